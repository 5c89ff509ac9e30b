/**
 * The state of one organization in a store (`_state/org_id=<id>.json`): the days it holds, when the
 * lists were last fetched, where the data came from, and per month what the fetch found wrong.
 * It is written last, after a month's partitions are in place: a day counts as held only once all
 * of its partitions are, so a sync killed before that fetches the day again.
 */
import { addDays, type DayRange, type IsoDate, type RowCheck } from '@orgreport/api-core';
import { writeFileAtomic } from '@orgreport/api-core/files';
import { damaged, readJsonFile } from './damage.ts';
import { entries } from './files.ts';
import type { StoreLayout } from './layout.ts';
import { STORE_SCHEMA_VERSION } from './schema.ts';

/** What the fetch of a month's days found wrong (as a snapshot manifest says it). */
export interface MonthFindings {
  /** Fields the API sent that the store does not keep, by snapshot dataset. */
  unknownFields?: Record<string, string[]>;
  rowChecks?: RowCheck[];
}

export interface MonthInfo extends MonthFindings {
  /** When the month's latest days were fetched (ISO instant). */
  fetchedAt: string;
  toolVersion: string;
}

export interface OrgState {
  schemaVersion: number;
  orgId: string;
  organizationName: string;
  source: { baseUrl: string; appUrl: string };
  /** The days held, as sorted, disjoint, non-adjacent spans. */
  days: DayRange[];
  /** The day the organization users and readiness reports were last fetched, or null. */
  listsAsOf: IsoDate | null;
  /** Unknown fields of the lists' last fetch (`orgUsers`, `readiness`). */
  listsUnknownFields?: Record<string, string[]>;
  /** Whether a hook log was synced with the days (then `hook_events` is authoritative for them). */
  hookLog: boolean;
  months: Record<string, MonthInfo>;
  /**
   * Salt of the secret fingerprints of this organization's data (kept so that an unchanged secret
   * keeps its fingerprint across syncs; whoever has the store can test guesses against them).
   */
  salt?: string;
}

/** The state of an organization with nothing held yet. */
export function emptyState(orgId: string): OrgState {
  return {
    schemaVersion: STORE_SCHEMA_VERSION,
    orgId,
    organizationName: orgId,
    source: { baseUrl: '', appUrl: '' },
    days: [],
    listsAsOf: null,
    hookLog: false,
    months: {},
  };
}

/**
 * Reads an organization's state; null when the store has none for it. A state file that cannot be
 * read or is not a state is a `DamagedStoreError` (the rebuild writes it anew).
 */
export async function readState(layout: StoreLayout, orgId: string): Promise<OrgState | null> {
  await layout.remote?.pullState(orgId);
  return readCachedState(layout, orgId);
}

/** An organization's state as the folder holds it (a remote store's as last pulled). */
async function readCachedState(layout: StoreLayout, orgId: string): Promise<OrgState | null> {
  const path = layout.stateFile(orgId);
  const json = await readJsonFile(layout, path);
  if (json === undefined) return null;
  const state = json as Partial<OrgState> | null;
  if (!state || typeof state !== 'object' || !Array.isArray(state.days) || typeof state.orgId !== 'string') {
    throw damaged(layout, path, 'is not a state (no organization id or days)');
  }
  return state as OrgState;
}

/** The states of every organization the store holds, by id. */
export async function readStates(layout: StoreLayout): Promise<OrgState[]> {
  await layout.remote?.pullStates();
  const ids = (await entries(`${layout.root}/_state`))
    .map((f) => /^org_id=(.+)\.json$/.exec(f)?.[1])
    .filter((id): id is string => id !== undefined)
    .map(decodeURIComponent);
  const read = (id: string) => (layout.remote ? readCachedState(layout, id) : readState(layout, id));
  const states = await Promise.all(ids.map(read));
  return states.filter((s): s is OrgState => s !== null);
}

export async function writeState(layout: StoreLayout, state: OrgState): Promise<void> {
  await writeFileAtomic(layout.stateFile(state.orgId), `${JSON.stringify(state, null, 2)}\n`, {
    tmpDir: layout.tmp,
  });
}

/** `spans` with `range` added, merged into sorted, disjoint, non-adjacent spans. */
export function addSpan(spans: readonly DayRange[], range: DayRange): DayRange[] {
  const all = [...spans, range].sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0));
  const out: DayRange[] = [];
  for (const s of all) {
    const last = out[out.length - 1];
    if (last && s.start <= addDays(last.end, 1)) {
      if (s.end > last.end) last.end = s.end;
    } else out.push({ ...s });
  }
  return out;
}

/** `spans` without the days of `range`. */
export function removeSpan(spans: readonly DayRange[], range: DayRange): DayRange[] {
  const out: DayRange[] = [];
  for (const s of spans) {
    if (s.end < range.start || s.start > range.end) {
      out.push({ ...s });
      continue;
    }
    if (s.start < range.start) out.push({ start: s.start, end: addDays(range.start, -1) });
    if (s.end > range.end) out.push({ start: addDays(range.end, 1), end: s.end });
  }
  return out;
}

/** The days of `range` that `spans` lack, as spans. */
export function missingSpans(spans: readonly DayRange[], range: DayRange): DayRange[] {
  let missing: DayRange[] = range.start <= range.end ? [{ ...range }] : [];
  for (const s of spans) missing = removeSpan(missing, s);
  return missing;
}

/** Spans cut at month ends: each piece lies in one calendar month. */
export function splitByMonth(spans: readonly DayRange[]): DayRange[] {
  const out: DayRange[] = [];
  for (const s of spans) {
    let start = s.start;
    while (start <= s.end) {
      const [y, m] = [Number(start.slice(0, 4)), Number(start.slice(5, 7))];
      const monthEnd = new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
      const end = monthEnd < s.end ? monthEnd : s.end;
      out.push({ start, end });
      start = addDays(end, 1);
    }
  }
  return out;
}

/** Row checks of several fetches together: rows of the same dataset, rule and action summed. */
export function mergeRowChecks(a: readonly RowCheck[] = [], b: readonly RowCheck[] = []): RowCheck[] {
  const out = new Map<string, RowCheck>();
  for (const c of [...a, ...b]) {
    const key = `${c.dataset}\0${c.rule}\0${c.action}`;
    const seen = out.get(key);
    if (seen) {
      seen.rows += c.rows;
      seen.examples = [...seen.examples, ...c.examples].slice(0, 5);
    } else out.set(key, { ...c, examples: [...c.examples] });
  }
  return [...out.values()];
}

/** Unknown field names of several fetches together, per dataset, sorted. */
export function mergeUnknownFields(
  a: Record<string, string[]> = {},
  b: Record<string, string[]> = {},
): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [dataset, fields] of [...Object.entries(a), ...Object.entries(b)]) {
    out[dataset] = [...new Set([...(out[dataset] ?? []), ...fields])].sort();
  }
  return out;
}
