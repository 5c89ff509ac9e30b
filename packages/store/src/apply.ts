/**
 * Applying a fetched span to the store: each dataset's rows go into their month partitions (each
 * partition written aside and renamed over the old one, its other days kept), then the
 * organization's state records the span. Sync and rebuild both apply spans through here.
 */
import { readFile, rm, stat } from 'node:fs/promises';
import {
  activityDaySchema,
  controlChangeSchema,
  type DayRange,
  monthBounds,
  orgUserSchema,
  productivityDaySchema,
  readinessReportSchema,
  type Snapshot,
  tokensDaySchema,
  toolsDaySchema,
} from '@orgreport/api-core';
import { flushFile, publish, tempPath } from '@orgreport/api-core/files';
import { collectUnknownKeys } from '@orgreport/snapshot';
import { engineRead } from './damage.ts';
import { type Engine, sqlName, sqlString, storedExpression } from './engine.ts';
import type { StoreLayout } from './layout.ts';
import type { SpanInfo } from './raw.ts';
import { type RowTable, rowsOfSnapshot } from './rows.ts';
import { DATASETS, type DatasetSpec, STORE_SCHEMA_VERSION } from './schema.ts';
import {
  addSpan,
  type MonthInfo,
  mergeRowChecks,
  mergeUnknownFields,
  type OrgState,
  splitByMonth,
} from './state.ts';

/** What applying a span did to the partitions. */
export interface ApplyResult {
  /** Partitions whose file was replaced or created. */
  written: number;
  /** Partitions rewritten with the same content, left untouched. */
  unchanged: number;
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

async function sameBytes(a: string, b: string): Promise<boolean> {
  const [x, y] = await Promise.all([readFile(a), readFile(b)]);
  return x.equals(y);
}

/** The rows of `old` a fresh write keeps, as a SQL condition (the others are replaced). */
function keptCondition(spec: DatasetSpec, days: DayRange, fresh: string): string {
  switch (spec.replace.by) {
    case 'day':
      return `${spec.replace.day} NOT BETWEEN DATE ${sqlString(days.start)} AND DATE ${sqlString(days.end)}`;
    case 'key': {
      const key = sqlName(spec.replace.key);
      return `${key} NOT IN (SELECT ${key} FROM (${fresh}))`;
    }
    case 'partition':
      return 'false';
  }
}

/**
 * Writes one partition: the old file's kept rows and the fresh rows of `month`, ordered, into a
 * file aside that then replaces the old one. Returns whether the file changed.
 */
async function writePartition(
  engine: Engine,
  layout: StoreLayout,
  spec: DatasetSpec,
  orgId: string,
  month: string,
  staged: string,
  days: DayRange,
): Promise<boolean> {
  const target = layout.partitionFile(spec.name, orgId, month);
  const columns = spec.columns.map((c) => sqlName(c.name)).join(', ');
  const fresh = `SELECT ${spec.columns.map(storedExpression).join(', ')} FROM ${staged} WHERE __month = ${sqlString(month)}`;
  const had = await exists(target);
  const kept = had
    ? `SELECT ${columns} FROM read_parquet(${sqlString(target)}) WHERE ${keptCondition(spec, days, fresh)} UNION ALL `
    : '';
  const draft = await tempPath(layout.tmp, '.parquet');
  try {
    const metadata = `{orgreport_store_schema: '${STORE_SCHEMA_VERSION}', orgreport_dataset: ${sqlString(spec.name)}}`;
    await engine.run(
      `COPY (SELECT ${columns} FROM (${kept}${fresh}) ORDER BY ${spec.order.map(sqlName).join(', ')}) TO ${sqlString(draft)} (FORMAT parquet, COMPRESSION zstd, KV_METADATA ${metadata})`,
    );
    if (had && (await sameBytes(draft, target))) {
      await rm(draft, { force: true });
      return false;
    }
    await flushFile(draft);
    await publish(draft, target);
    return true;
  } catch (error) {
    await rm(draft, { force: true });
    throw error;
  }
}

/** The months a dataset's rows of a span go to, each with the days of the span inside it. */
async function targetMonths(
  layout: StoreLayout,
  spec: DatasetSpec,
  orgId: string,
  table: RowTable,
  span: DayRange,
): Promise<Map<string, DayRange>> {
  const months = new Map<string, DayRange>();
  const whole = (month: string) => months.set(month, { ...monthBounds(month) });
  if (spec.replace.by === 'day') {
    for (const piece of splitByMonth([span])) months.set(piece.start.slice(0, 7), piece);
  }
  for (const m of new Set(table.months)) if (!months.has(m)) whole(m);
  if (spec.replace.by === 'partition' && spec.replace.wholeList) {
    for (const m of await layout.partitionMonths(spec.name, orgId)) if (!months.has(m)) whole(m);
  }
  return months;
}

/**
 * Writes every dataset of a fetched span into its partitions. Datasets the span did not fetch (the
 * lists unless `info.lists`, the hook events without a hook log) are left as they are.
 */
export async function applySpan(
  engine: Engine,
  layout: StoreLayout,
  orgId: string,
  snapshot: Snapshot,
  info: SpanInfo,
): Promise<ApplyResult> {
  const tables = rowsOfSnapshot(snapshot, { lists: info.lists, asOf: info.asOf });
  const result: ApplyResult = { written: 0, unchanged: 0 };
  for (const spec of DATASETS) {
    const table = tables[spec.name];
    if (!table) continue;
    const staged = await engine.stage(spec.columns, table);
    try {
      const counts = new Map<string, number>();
      for (const m of table.months) counts.set(m, (counts.get(m) ?? 0) + 1);
      for (const [month, days] of await targetMonths(layout, spec, orgId, table, info.range)) {
        const target = layout.partitionFile(spec.name, orgId, month);
        // The partition as it is (a remote store's fetched into the cache), to keep its other rows.
        const had = (await layout.presentFiles(orgId, [target])).length > 0;
        if (!counts.get(month) && !had) continue; // nothing to write, nothing to replace
        // The old file's rows are read to keep them: a damaged one stops the sync and says so.
        const changed = await engineRead(layout, [target], () =>
          writePartition(engine, layout, spec, orgId, month, staged, days),
        );
        if (changed) result.written++;
        else result.unchanged++;
      }
    } finally {
      await engine.run(`DROP TABLE ${staged}`);
    }
  }
  return result;
}

/** The documented top-level fields of the snapshot's row datasets (what the store keeps of them). */
const DOCUMENTED = {
  tokens: new Set(Object.keys(tokensDaySchema.shape)),
  tools: new Set(Object.keys(toolsDaySchema.shape)),
  activity: new Set(Object.keys(activityDaySchema.shape)),
  productivity: new Set(Object.keys(productivityDaySchema.shape)),
  controls: new Set(Object.keys(controlChangeSchema.shape)),
  orgUsers: new Set(Object.keys(orgUserSchema.shape)),
  readiness: new Set(Object.keys(readinessReportSchema.shape)),
} as const;

/** Fields of `datasets` that the store's columns do not keep, per dataset (empty ones left out). */
function droppedFields(
  snapshot: Snapshot,
  datasets: ReadonlyArray<keyof typeof DOCUMENTED>,
): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const name of datasets) {
    const found = collectUnknownKeys(snapshot[name] as object[], DOCUMENTED[name], new Set());
    if (found.size > 0) out[name] = [...found].sort();
  }
  return out;
}

/** The organization's state once `snapshot` (a span described by `info`) is in place. */
export function stateAfterSpan(state: OrgState, snapshot: Snapshot, info: SpanInfo): OrgState {
  const { manifest } = snapshot;
  const month = info.range.end.slice(0, 7);
  const heldBefore = state.days.some((d) => d.end >= `${month}-01` && d.start <= monthBounds(month).end);
  const coversHeld =
    !heldBefore ||
    state.days.every(
      (d) =>
        d.end < `${month}-01` ||
        d.start > monthBounds(month).end ||
        (d.start >= info.range.start && d.end <= info.range.end),
    );
  const previous = coversHeld ? undefined : state.months[month];
  const unknownFields = mergeUnknownFields(
    previous?.unknownFields,
    mergeUnknownFields(
      manifest.unknownFields,
      droppedFields(snapshot, ['tokens', 'tools', 'activity', 'productivity', 'controls']),
    ),
  );
  const rowChecks = mergeRowChecks(previous?.rowChecks, manifest.rowChecks);
  const monthInfo: MonthInfo = {
    fetchedAt: manifest.fetchedAt,
    toolVersion: manifest.toolVersion,
    ...(Object.keys(unknownFields).length > 0 && { unknownFields }),
    ...(rowChecks.length > 0 && { rowChecks }),
  };
  const next: OrgState = {
    ...state,
    // A span fetched without the users has only the id for a name: the better one is kept.
    organizationName:
      manifest.organization.name === manifest.organization.id
        ? state.organizationName
        : manifest.organization.name,
    source: { baseUrl: manifest.source.baseUrl, appUrl: manifest.source.appUrl },
    days: addSpan(state.days, info.range),
    hookLog: state.hookLog || info.hookLog,
    months: { ...state.months, [month]: monthInfo },
  };
  if (info.lists) {
    next.listsAsOf = info.asOf;
    const listsUnknown = droppedFields(snapshot, ['orgUsers', 'readiness']);
    if (Object.keys(listsUnknown).length > 0) next.listsUnknownFields = listsUnknown;
    else delete next.listsUnknownFields;
  }
  return next;
}
