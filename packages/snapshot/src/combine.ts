/**
 * `combineSnapshots`: the snapshots of several organizations over the same period as the snapshot
 * of one organization made of them all (a rollup). Per day, counts are summed and breakdown lists
 * merged by their item (same model, tool, server, ... summed); shares of the tool calls by autonomy
 * level are weighted by each organization's tool calls; the service's own per-day averages and
 * percentiles cannot be combined and are left out (the report recomputes autonomy from the user
 * rows). Users, organization users and readiness reports are put together: each organization's
 * users are its own, so distinct counts add up. What belongs to one organization and does not merge
 * is kept under `organizations`, one entry each: its enterprise-control revisions (revision numbers
 * count per organization) and its readiness reports (a repository is identified by organization and
 * URL); the combined `controls` list stays empty.
 */
import {
  type DayRange,
  type Snapshot,
  type SnapshotManifest,
  USER_DAY_COLUMNS,
  type UserDayColumns,
} from '@orgreport/api-core';

/** Fields of a day row that are averages or percentiles of the service (not summable). */
const NOT_SUMMABLE = /(_avg|_p50|_p90)$/;
/** Record fields that are shares of the day's tool calls. */
const SHARES_OF_TOOL_CALLS = new Set(['tool_autonomy_level_ratio']);

type Row = Record<string, unknown>;

const isRecordOfNumbers = (v: unknown): v is Record<string, number> =>
  typeof v === 'object' &&
  v !== null &&
  !Array.isArray(v) &&
  Object.values(v).every((x) => typeof x === 'number');

/** Merges list items that name the same thing (equal text fields), summing their numbers. */
function mergeItems(lists: ReadonlyArray<ReadonlyArray<Row>>): Row[] {
  const merged = new Map<string, Row>();
  for (const list of lists) {
    for (const item of list) {
      const key = JSON.stringify(
        Object.entries(item)
          .filter(([, v]) => typeof v !== 'number')
          .sort(([a], [b]) => (a < b ? -1 : 1)),
      );
      const seen = merged.get(key);
      if (!seen) {
        merged.set(key, { ...item });
        continue;
      }
      for (const [k, v] of Object.entries(item)) {
        if (typeof v === 'number') seen[k] = ((seen[k] as number | undefined) ?? 0) + v;
      }
    }
  }
  return [...merged.values()];
}

/** One day's rows of several organizations as one row. */
function mergeDay(rows: readonly Row[]): Row {
  const out: Row = {};
  const keys = new Set(rows.flatMap((r) => Object.keys(r)));
  const toolCalls = rows.map((r) => (typeof r.tool_calls === 'number' ? r.tool_calls : 0));
  const allCalls = toolCalls.reduce((a, b) => a + b, 0);
  for (const key of keys) {
    const values = rows.map((r) => r[key]).filter((v) => v !== undefined && v !== null);
    if (key === 'date') out.date = rows[0]!.date;
    else if (NOT_SUMMABLE.test(key)) continue;
    else if (values.length === 0)
      out[key] = null; // no organization sent it
    else if (values.every((v) => typeof v === 'number'))
      out[key] = (values as number[]).reduce((a, b) => a + b, 0);
    else if (values.every(Array.isArray)) out[key] = mergeItems(values as Row[][]);
    else if (SHARES_OF_TOOL_CALLS.has(key) && values.every(isRecordOfNumbers)) {
      const shares: Record<string, number> = {};
      rows.forEach((r, i) => {
        const record = r[key];
        if (!isRecordOfNumbers(record) || allCalls === 0) return;
        for (const [level, share] of Object.entries(record)) {
          shares[level] = (shares[level] ?? 0) + (share * toolCalls[i]!) / allCalls;
        }
      });
      out[key] = shares;
    } else if (values.every(isRecordOfNumbers)) {
      const sums: Record<string, number> = {};
      for (const record of values) for (const [k, v] of Object.entries(record)) sums[k] = (sums[k] ?? 0) + v;
      out[key] = sums;
    } else out[key] = values[0];
  }
  return out;
}

/** Day rows of several organizations, one per day, in date order. */
function mergeDays<T extends { date: string }>(lists: ReadonlyArray<readonly T[]>): T[] {
  const byDate = new Map<string, Row[]>();
  for (const list of lists) {
    for (const row of list) {
      const rows = byDate.get(row.date) ?? [];
      rows.push(row as unknown as Row);
      byDate.set(row.date, rows);
    }
  }
  return [...byDate.keys()].sort().map((date) => mergeDay(byDate.get(date)!) as unknown as T);
}

function concatColumns(parts: readonly UserDayColumns[]): UserDayColumns {
  const out = {} as Record<string, unknown[]>;
  // Index by index: a part's column may be a typed array, which flatMap would not spread.
  for (const c of USER_DAY_COLUMNS) {
    const column: unknown[] = [];
    for (const part of parts) {
      const values = part[c] as ArrayLike<unknown>;
      for (let i = 0; i < values.length; i++) column.push(values[i]);
    }
    out[c] = column;
  }
  return out as unknown as UserDayColumns;
}

function sameRange(a: DayRange | null | undefined, b: DayRange | null | undefined): boolean {
  return a?.start === b?.start && a?.end === b?.end;
}

/**
 * One snapshot of the organizations of `snapshots` (same period and comparison), named
 * `organization`.
 *
 * @example
 * const all = combineSnapshots([eu, us], { id: 'all', name: 'Acme (all organizations)' });
 */
export function combineSnapshots(
  snapshots: readonly Snapshot[],
  organization: { id: string; name: string },
): Snapshot {
  const first = snapshots[0];
  if (!first) throw new Error('combineSnapshots: no snapshot to combine');
  for (const s of snapshots) {
    if (
      !sameRange(s.manifest.period, first.manifest.period) ||
      !sameRange(s.manifest.comparison, first.manifest.comparison)
    ) {
      throw new Error(
        `combineSnapshots: ${s.manifest.organization.name} covers another period than ${first.manifest.organization.name}`,
      );
    }
  }
  const manifests = snapshots.map((s) => s.manifest);
  const counts: Record<string, number> = {};
  for (const m of manifests) for (const [k, v] of Object.entries(m.counts)) counts[k] = (counts[k] ?? 0) + v;
  const unknownFields: Record<string, string[]> = {};
  for (const m of manifests) {
    for (const [k, v] of Object.entries(m.unknownFields ?? {})) {
      unknownFields[k] = [...new Set([...(unknownFields[k] ?? []), ...v])].sort();
    }
  }
  const rowChecks = manifests.flatMap((m) =>
    (m.rowChecks ?? []).map((c) => ({
      ...c,
      examples: c.examples.map((e) => `${m.organization.name}: ${e}`),
    })),
  );
  const manifest: SnapshotManifest = {
    ...first.manifest,
    organization,
    fetchedAt: manifests.map((m) => m.fetchedAt).sort()[0]!,
    source: {
      baseUrl: [...new Set(manifests.map((m) => m.source.baseUrl))].join(', '),
      appUrl: first.manifest.source.appUrl,
    },
    counts,
    checksums: {},
    notes: [
      `Rollup of ${snapshots.length} organizations: ${manifests.map((m) => m.organization.name).join(', ')}. Enterprise controls and readiness reports are kept per organization.`,
      ...manifests.flatMap((m) => m.notes.map((n) => `${m.organization.name}: ${n}`)),
    ],
    ...(Object.keys(unknownFields).length > 0 && { unknownFields }),
    ...(rowChecks.length > 0 && { rowChecks }),
  };
  const hookEvents = snapshots.flatMap((s) => s.hookEvents ?? []);
  return {
    manifest,
    tokens: mergeDays(snapshots.map((s) => s.tokens)),
    tools: mergeDays(snapshots.map((s) => s.tools)),
    activity: mergeDays(snapshots.map((s) => s.activity)),
    productivity: mergeDays(snapshots.map((s) => s.productivity)),
    userDays: concatColumns(snapshots.map((s) => s.userDays)),
    orgUsers: snapshots.flatMap((s) => s.orgUsers),
    readiness: snapshots.flatMap((s) => s.readiness),
    controls: [],
    ...(snapshots.some((s) => s.hookEvents) && { hookEvents }),
    organizations: snapshots.map((s) => ({
      organization: { ...s.manifest.organization },
      controls: s.controls,
      readiness: s.readiness,
    })),
  };
}
