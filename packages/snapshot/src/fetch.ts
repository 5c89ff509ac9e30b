/**
 * The fetch stage: one month (and its comparison month) of the organization API into a {@link Snapshot}.
 * Each analytics endpoint is requested ONCE over the combined range (comparison start .. period end),
 * all datasets concurrently under the client's own limit; `/users` pages are folded into columns as they
 * arrive; secrets are redacted (salted fingerprints, so a changed secret still shows as changed), every
 * dataset through the one `redactSecrets` walk. `/users` fields the columns do not keep are named in
 * the manifest (`unknownFields`), so schema drift shows under data quality instead of vanishing.
 */
import {
  type Clock,
  type ControlChange,
  type DayRange,
  type HookEvent,
  type MonthPeriod,
  type OrgClient,
  type OrgUser,
  type ReadinessReport,
  redactSecrets,
  SNAPSHOT_FORMAT_VERSION,
  type Snapshot,
  secretFingerprinter,
  USER_DAY_COLUMNS,
  UserDayColumnsBuilder,
  utcDay,
} from '@orgreport/api-core';
import { revisionPlace } from './control-range.ts';
import { organizationNameFromUsers } from './organization-name.ts';
import { periodNotes } from './period-notes.ts';
import { RowChecker } from './row-checks.ts';

/** What fetching has done so far, reported after each page. */
export interface FetchProgress {
  /** Requests answered so far, all datasets together. */
  pages: number;
  /** `/users` rows folded so far. */
  userDays: number;
  /** The dataset of the page just received. */
  dataset: string;
}

export interface FetchSnapshotOptions {
  period: MonthPeriod;
  /** The comparison period (`comparisonPeriod(period)`), or null. */
  comparison: MonthPeriod | null;
  /** Clock for `fetchedAt`. */
  now: Clock;
  /** Version of the tool, recorded in the manifest. */
  toolVersion: string;
  /** Display name of the organization (defaults to its id). */
  organizationName?: string;
  /** Events of the local hook log; those inside the fetched range are kept. */
  hookEvents?: Array<HookEvent & { recorded_at?: string }>;
  /** Salt of the secret fingerprints (random when omitted). */
  salt?: string;
  /**
   * Values masked wherever they occur in the fetched data (the configured API key, the SMTP
   * password): a server that echoes them inside a row never gets them written.
   */
  secrets?: ReadonlyArray<string>;
  /** `/users` rows per page (1..100, default 100). */
  usersPageSize?: number;
  /**
   * Fetch the organization users and the readiness reports, which are not dated (default true);
   * false leaves them empty, as a store does for all but one of the spans of a sync.
   */
  lists?: boolean;
  onProgress?: (progress: FetchProgress) => void;
  signal?: AbortSignal;
}

/** The days fetched for a period: from the comparison start (or the period start) to the period end. */
export function fetchedRangeOf(period: MonthPeriod, comparison: MonthPeriod | null): DayRange {
  return { start: comparison?.start ?? period.start, end: period.end };
}

/**
 * Fetches the snapshot of `period` through `client`.
 *
 * @example
 * const period = monthPeriod('2026-10', { now });
 * const snapshot = await fetchSnapshot(client, { period, comparison: comparisonPeriod(period), now, toolVersion: '0.1.0' });
 */
export async function fetchSnapshot(client: OrgClient, options: FetchSnapshotOptions): Promise<Snapshot> {
  const { period, comparison } = options;
  const range = fetchedRangeOf(period, comparison);
  const fetchedAt = options.now().toISOString();
  const fingerprint = secretFingerprinter(options.salt);
  const literals = options.secrets ?? [];
  const redact = <T>(value: T): T => redactSecrets(value, { fingerprint, literals });
  const checker = new RowChecker(range, utcDay(options.now()));
  const days = { startDate: range.start, endDate: range.end };
  const reqOptions = options.signal ? { signal: options.signal } : undefined;
  const builder = new UserDayColumnsBuilder();
  const unknownUserDayFields = new Set<string>();
  let pages = 0;
  const tick = (dataset: string) => {
    pages++;
    options.onProgress?.({ pages, userDays: builder.length, dataset });
  };
  const counted = <T>(dataset: string, promise: Promise<T>): Promise<T> =>
    promise.then((value) => {
      tick(dataset);
      return value;
    });

  const userDaysDone = (async () => {
    const list = client.analytics.users({ ...days, limit: options.usersPageSize ?? 100 }, reqOptions);
    for await (const page of list.pages()) {
      collectUnknownKeys(page.items, KNOWN_USER_DAY_FIELDS, unknownUserDayFields);
      builder.push(redact(page.items.filter((row) => checker.keepUserDay(row))));
      tick('userDays');
    }
  })();
  const collect = async <T>(dataset: string, list: AsyncIterable<{ items: T[] }>): Promise<T[]> => {
    const out: T[] = [];
    for await (const page of list) {
      out.push(...page.items);
      tick(dataset);
    }
    return out;
  };

  const [tokens, tools, activity, productivity, orgUsers, readiness, controls] = await Promise.all([
    // The same credits per user are in `userDays`: `by_user` would only double the snapshot, and it
    // is most of the largest body, so it is dropped while the body streams in.
    counted('tokens', client.analytics.tokens({ ...days, byUser: false }, reqOptions)),
    counted('tools', client.analytics.tools(days, reqOptions)),
    counted('activity', client.analytics.activity(days, reqOptions)),
    counted('productivity', client.analytics.productivity(days, reqOptions)),
    options.lists === false
      ? []
      : collect<OrgUser>('orgUsers', client.orgUsers.list({ limit: 100 }, reqOptions).pages()),
    options.lists === false
      ? []
      : collect<ReadinessReport>('readiness', client.readiness.list({ limit: 100 }, reqOptions).pages()),
    controlsOfRange(client, period.end, range.start, reqOptions, () => tick('controls')),
    userDaysDone,
  ]);

  const notes = periodNotes(period, comparison);

  const orgId = redact(tokens.meta.org_id);
  const snapshot: Snapshot = {
    manifest: {
      formatVersion: SNAPSHOT_FORMAT_VERSION,
      // Without a configured name, the users' e-mail domain: the API has no organization name.
      organization: {
        id: orgId,
        name: options.organizationName ?? organizationNameFromUsers(orgUsers) ?? orgId,
      },
      period,
      comparison,
      fetchedRange: range,
      fetchedAt,
      toolVersion: options.toolVersion,
      source: {
        baseUrl: client.baseUrl,
        appUrl: client.appUrl ?? client.baseUrl,
        ...(client.stats.redirectedTo.length > 0 && { redirectedTo: client.stats.redirectedTo }),
      },
      counts: { requests: pages },
      checksums: {},
      notes,
      ...(unknownUserDayFields.size > 0 && { unknownFields: { userDays: [...unknownUserDayFields].sort() } }),
    },
    tokens: redact(checker.days('tokens', tokens.data)),
    tools: redact(checker.days('tools', tools.data)),
    activity: redact(checker.days('activity', activity.data)),
    productivity: redact(checker.days('productivity', productivity.data)),
    userDays: builder.columns,
    orgUsers: redact(orgUsers),
    readiness: redact(readiness),
    controls: redact(controls),
  };
  if (options.hookEvents) {
    snapshot.hookEvents = redact(
      options.hookEvents.filter((e) => {
        const day = e.recorded_at?.slice(0, 10);
        return day === undefined || (day >= range.start && day <= range.end);
      }),
    );
  }
  const rowChecks = checker.findings();
  if (rowChecks.length > 0) snapshot.manifest.rowChecks = rowChecks;
  return snapshot;
}

/**
 * Control revisions from the newest one on or before `periodEnd` back to the newest one before
 * `rangeStart` (the state the range starts from); history is newest first, so paging stops there.
 */
async function controlsOfRange(
  client: OrgClient,
  periodEnd: string,
  rangeStart: string,
  reqOptions: { signal: AbortSignal } | undefined,
  onPage: () => void,
): Promise<ControlChange[]> {
  const kept: ControlChange[] = [];
  for await (const page of client.controls.history({ limit: 100 }, reqOptions).pages()) {
    onPage();
    for (const change of page.items) {
      const place = revisionPlace(change, periodEnd, rangeStart);
      if (place === 'after') continue;
      kept.push(change);
      if (place === 'baseline') return kept;
    }
  }
  return kept;
}

const KNOWN_USER_DAY_FIELDS: ReadonlySet<string> = new Set(USER_DAY_COLUMNS);
/** At most this many unknown field names are recorded per dataset (a runaway API cannot bloat the manifest). */
export const MAX_UNKNOWN_FIELD_NAMES = 100;

/**
 * Adds to `into` the keys of `rows` that are not in `known`, up to {@link MAX_UNKNOWN_FIELD_NAMES}.
 * Every row is looked at: a key the API sends on some rows only is still found, at a few set lookups per row.
 */
export function collectUnknownKeys(
  rows: ReadonlyArray<object>,
  known: ReadonlySet<string>,
  into: Set<string>,
): Set<string> {
  for (const row of rows) {
    for (const key of Object.keys(row)) {
      if (known.has(key)) continue;
      if (into.size >= MAX_UNKNOWN_FIELD_NAMES) return into;
      into.add(key);
    }
  }
  return into;
}
