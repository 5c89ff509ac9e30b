/**
 * The snapshot: the raw API data of one report period and its comparison period, plus a manifest.
 * It is the only input of the metrics stage, and what `orgreport render --snapshot` reads back offline.
 * Secrets are redacted before a snapshot is built (see redact.ts).
 */
import type { DayRange, MonthPeriod } from './dates.ts';
import type {
  ActivityDay,
  ControlChange,
  HookEvent,
  OrgUser,
  ProductivityDay,
  ReadinessReport,
  TokensDay,
  ToolsDay,
  UserDay,
} from './schemas.ts';

export const SNAPSHOT_FORMAT_VERSION = 1;

/** Rules the fetch stage checks rows by (see the snapshot package's row checks). */
export type RowRule = 'negative' | 'fractional' | 'outside-range' | 'future' | 'duplicate';

/** Rows of one dataset that broke one rule, and what was done with them. */
export interface RowCheck {
  /** `userDays`, `tokens`, `tools`, `activity` or `productivity`. */
  dataset: string;
  rule: RowRule;
  rows: number;
  action: 'excluded' | 'kept';
  /** A few of the rows (user and day, or day, and the field), to look them up. */
  examples: string[];
}

export interface SnapshotManifest {
  formatVersion: typeof SNAPSHOT_FORMAT_VERSION;
  /** `id` is the analytics `meta.org_id`; `name` is the configured display name (or the id). */
  organization: { id: string; name: string };
  period: MonthPeriod;
  /** The previous month clamped the same way, or null when it has no data. */
  comparison: MonthPeriod | null;
  /** The days fetched from the analytics endpoints: comparison start (or period start) to period end. */
  fetchedRange: DayRange;
  /** ISO 8601 instant at which fetching started. */
  fetchedAt: string;
  /** Version of the tool that fetched the snapshot. */
  toolVersion: string;
  /**
   * Where the data came from (never the key); `redirectedTo`: other hosts the caller allowed
   * redirects to and that answered (absent when none did).
   */
  source: { baseUrl: string; appUrl: string; redirectedTo?: string[] };
  /** Rows per dataset (`tokens`, `tools`, `activity`, `productivity`, `userDays`, `orgUsers`, ...). */
  counts: Record<string, number>;
  /** sha256 of each stored file, filled in by the snapshot writer. */
  checksums: Record<string, string>;
  /** Plain-language notes on what was left out or adjusted while fetching. */
  notes: string[];
  /**
   * Fields the API sent that the snapshot does not keep, by dataset (`{ userDays: ['x_drift_meta'] }`):
   * schema drift, for data quality. Absent when there were none.
   */
  unknownFields?: Record<string, string[]>;
  /** What the fetch stage found wrong in the rows and did about it; absent when nothing was wrong. */
  rowChecks?: RowCheck[];
  /**
   * The demo organization's snapshot (`--demo`): its size and the day it was made for, by which a
   * report made from it again gets the demo's prices and directory, as the first one did. Absent
   * for a real organization's.
   */
  demo?: { users: number; today: string };
}

/** The fields of a `/users` row that a snapshot keeps, in column order. */
export const USER_DAY_COLUMNS = [
  'user_id',
  'user_email',
  'date',
  'tool_calls',
  'billable_tokens',
  'primary_model',
  'primary_model_tier',
  'files_created',
  'files_edited',
  'git_commits',
  'git_prs_created',
  'mcp_calls',
  'skill_calls',
  'slash_commands',
  'hooks',
  'sessions',
  'messages',
  'user_messages',
  'assistant_messages',
  'autonomy_ratio',
  'delegation_level',
  'languages',
] as const satisfies ReadonlyArray<keyof UserDay>;
export type UserDayColumn = (typeof USER_DAY_COLUMNS)[number];

/** The additive counters of a user-day that reports sum per user, day and week. */
export const USER_DAY_SUMS = [
  'billable_tokens',
  'tool_calls',
  'sessions',
  'messages',
  'user_messages',
  'files_created',
  'files_edited',
  'git_commits',
  'git_prs_created',
  'mcp_calls',
  'skill_calls',
  'slash_commands',
  'hooks',
] as const satisfies ReadonlyArray<UserDayColumn>;

/**
 * A column of a numeric field: a JS array (null where a row has no value), or a typed array of
 * the values when none is null. The store's read gives typed arrays: 8 or 4 bytes a value, where a
 * JS array of doubles with one null among them holds every value as an object of its own.
 */
export type NumberColumn<T> = Array<T> | Float64Array | Int32Array;

/** `/users` rows held as one array per field (the form arquero reads without copying). */
export type UserDayColumns = {
  [K in UserDayColumn]: [UserDay[K]] extends [number | null | undefined]
    ? NumberColumn<UserDay[K]>
    : Array<UserDay[K]>;
};

/** The text and list columns of the `/users` rows, which a reader may hand over as codes (see {@link UserDayCodes}). */
export const USER_DAY_TEXT_COLUMNS = [
  'user_id',
  'user_email',
  'primary_model',
  'primary_model_tier',
  'delegation_level',
  'languages',
] as const satisfies ReadonlyArray<UserDayColumn>;
export type UserDayTextColumn = (typeof USER_DAY_TEXT_COLUMNS)[number];

/**
 * The `/users` columns' text and dates as the reader had them before making the JS values: a code
 * per row into a list of the texts (a list column's items joined by U+0001, '' for none; null for
 * a null value) and the days since 1970-01-01. The store's read has them; the report's encoding
 * then works on the integers instead of hashing every row's strings again.
 */
export interface UserDayCodes {
  date: ArrayLike<number | null>;
  text: Record<UserDayTextColumn, { codes: ArrayLike<number | null>; values: readonly string[] }>;
}

const userDayCodes = new WeakMap<UserDayColumns, UserDayCodes>();

/** A coded list's items from its code's text (joined by U+0001, '' for none; see {@link UserDayCodes}). */
export function codedListItems(joined: string): string[] {
  return joined === '' ? [] : joined.split('\u0001');
}

/** Records the codes `columns` were made from (see {@link UserDayCodes}); returns `columns`. */
export function withUserDayCodes(columns: UserDayColumns, codes: UserDayCodes): UserDayColumns {
  userDayCodes.set(columns, codes);
  return columns;
}

/** The codes `columns` were made from, when their reader recorded them; columns made otherwise have none. */
export function userDayCodesOf(columns: UserDayColumns): UserDayCodes | undefined {
  return userDayCodes.get(columns);
}

/** Accumulates `/users` rows page by page into columns, so no page outlives its parse. */
export class UserDayColumnsBuilder {
  readonly columns: UserDayColumns;
  constructor() {
    this.columns = Object.fromEntries(USER_DAY_COLUMNS.map((c) => [c, []])) as unknown as UserDayColumns;
  }
  get length(): number {
    return this.columns.user_id.length;
  }
  /** Appends rows; fields missing from a row are stored as null. */
  push(rows: Iterable<Partial<UserDay>>): this {
    const cols = this.columns as unknown as Record<UserDayColumn, unknown[]>;
    for (const row of rows) {
      for (const c of USER_DAY_COLUMNS) cols[c].push(row[c] ?? null);
    }
    return this;
  }
}

/** Columns from a list of rows (tests and small data). */
export function userDayColumnsFromRows(rows: Iterable<Partial<UserDay>>): UserDayColumns {
  return new UserDayColumnsBuilder().push(rows).columns;
}

/**
 * The number of rows of `columns`, read off a number column: a reader may make the text columns
 * only when they are first read (see {@link UserDayCodes}), and a count should not make them.
 */
export function userDayRowCount(columns: UserDayColumns): number {
  return columns.tool_calls.length;
}

/** Row `i` of the columns as an object. */
export function userDayRowAt(columns: UserDayColumns, i: number): UserDay {
  const row: Record<string, unknown> = {};
  for (const c of USER_DAY_COLUMNS) row[c] = columns[c][i];
  return row as UserDay;
}

export interface Snapshot {
  manifest: SnapshotManifest;
  /** Ungrouped `/tokens` days of `fetchedRange`, without `by_user` (the same credits are in `userDays`). */
  tokens: TokensDay[];
  /** Ungrouped `/tools` days of `fetchedRange`. */
  tools: ToolsDay[];
  /** Ungrouped `/activity` days of `fetchedRange`. */
  activity: ActivityDay[];
  /** `/productivity` days of `fetchedRange`. */
  productivity: ProductivityDay[];
  /** `/users` rows of `fetchedRange`, as columns. */
  userDays: UserDayColumns;
  /** Every organization user. */
  orgUsers: OrgUser[];
  /** Every readiness report (the list cannot be filtered by date). */
  readiness: ReadinessReport[];
  /**
   * Enterprise-control revisions from the newest one on or before the period's end back to the
   * newest one before the comparison period (or the period) starts, secrets redacted.
   */
  controls: ControlChange[];
  /** Events of the local hook log in `fetchedRange`, when a hook log is configured. */
  hookEvents?: Array<HookEvent & { recorded_at?: string }>;
  /**
   * Only in a snapshot made of several organizations (a rollup): each of them with what belongs to
   * it alone and does not merge. Absent in an organization's own snapshot.
   */
  organizations?: SnapshotOrganization[];
}

/**
 * One organization of a combined snapshot and its own lists: its enterprise-control revisions
 * (revision numbers count per organization, so they are never mixed with another's) and its
 * readiness reports (a repository is identified by organization and URL: two organizations may
 * evaluate the same URL, each its own way).
 */
export interface SnapshotOrganization {
  organization: { id: string; name: string };
  controls: ControlChange[];
  readiness: ReadinessReport[];
}
