/**
 * The files a sync writes, read by an independent Parquet reader (hyparquet, not DuckDB): every
 * dataset's columns, types, rows and key-value metadata are what schema.ts documents.
 */
import type { Snapshot } from '@orgreport/api-core';
import { fetchRange } from '@orgreport/snapshot';
import { parquetSchema, type SchemaTree } from 'hyparquet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ColumnType, DATASETS, STORE_SCHEMA_VERSION, syncStore } from './index.ts';
import type { RecordedHookEvent } from './rows.ts';
import { emulated, now, tempStore } from './testing/emulated.ts';
import { type PartitionFile, partitionFiles, readParquet } from './testing/files.ts';

/** The ColumnType a Parquet column stands for, read from its schema alone (null: none of them). */
function columnTypeOf(node: SchemaTree): ColumnType | null {
  const e = node.element;
  const utf8 = (x: typeof e) =>
    x.type === 'BYTE_ARRAY' && (x.converted_type === 'UTF8' || x.logical_type?.type === 'STRING');
  if (node.children.length > 0) {
    // A 3-level LIST of strings: <name> (LIST) / list (REPEATED) / element (UTF8).
    const list = node.children[0];
    const item = list?.children[0];
    const isList = e.converted_type === 'LIST' || e.logical_type?.type === 'LIST';
    if (isList && node.children.length === 1 && list?.element.repetition_type === 'REPEATED' && item) {
      return list.children.length === 1 && item.children.length === 0 && utf8(item.element)
        ? 'VARCHAR[]'
        : null;
    }
    return null;
  }
  if (utf8(e)) return 'VARCHAR';
  if (e.type === 'DOUBLE' && !e.converted_type && !e.logical_type) return 'DOUBLE';
  if (e.type === 'BOOLEAN') return 'BOOLEAN';
  if (e.type === 'INT32') {
    if (e.converted_type === 'DATE' || e.logical_type?.type === 'DATE') return 'DATE';
    if (!e.converted_type || e.converted_type === 'INT_32') return 'INTEGER';
    return null;
  }
  if (e.type === 'INT64') {
    const lt = e.logical_type;
    if (lt?.type === 'TIMESTAMP') return lt.isAdjustedToUTC ? 'TIMESTAMPTZ' : null;
    if (!e.converted_type || e.converted_type === 'INT_64') return 'BIGINT';
  }
  return null;
}

const count = (map: Map<string, number>, key: string, n = 1) => map.set(key, (map.get(key) ?? 0) + n);
const monthOfMs = (ms: number) => new Date(ms).toISOString().slice(0, 7);

/**
 * Rows per `<dataset>/<month>` a fetch of the same days must give, counted here from the snapshot
 * (not through the store's own row code).
 */
function expectedCounts(fresh: Snapshot, asOf: string): Map<string, number> {
  const out = new Map<string, number>();
  const add = (dataset: string, day: string, n = 1) => {
    if (n > 0) count(out, `${dataset}/${day.slice(0, 7)}`, n);
  };
  for (const day of fresh.userDays.date) add('user_days', day);
  for (const d of fresh.tokens) {
    add('tokens_daily', d.date);
    add('tokens_by_model', d.date, d.by_model?.length ?? 0);
  }
  for (const d of fresh.tools) {
    add('tools_daily', d.date);
    add('tools_by_tool', d.date, d.by_tool?.length ?? 0);
    add('mcp_by_server', d.date, d.mcp_by_server?.length ?? 0);
    add('skills_by_name', d.date, d.skills_by_name?.length ?? 0);
    add('slash_commands_by_name', d.date, d.slash_commands_by_name?.length ?? 0);
    add('hooks_by_event', d.date, d.hooks_by_event?.length ?? 0);
    add('tool_autonomy_levels', d.date, Object.keys(d.tool_autonomy_level_ratio ?? {}).length);
  }
  for (const d of fresh.activity) {
    add('activity_daily', d.date);
    add('activity_by_client', d.date, Object.keys(d.daily_active_users_by_client ?? {}).length);
  }
  for (const d of fresh.productivity) {
    add('productivity_daily', d.date);
    add('productivity_by_extension', d.date, d.by_extension?.length ?? 0);
    add('productivity_by_language', d.date, d.by_language?.length ?? 0);
  }
  for (const r of fresh.readiness) {
    const month = monthOfMs(r.createdAt);
    add('readiness_reports', month);
    add('readiness_criteria', month, Object.keys(r.report ?? {}).length);
    add('readiness_apps', month, Object.keys(r.apps ?? {}).length);
  }
  for (const c of fresh.controls) add('control_revisions', new Date(c.updatedAt).toISOString());
  add('org_users', asOf, fresh.orgUsers.length);
  for (const e of fresh.hookEvents ?? []) if (e.recorded_at) add('hook_events', e.recorded_at);
  return out;
}

const range = { start: '2026-09-01', end: '2026-11-21' };
const hookEvents: RecordedHookEvent[] = [
  {
    hook_event_name: 'Notification',
    session_id: 's1',
    cwd: '/w',
    message: 'waiting',
    recorded_at: '2026-09-03T10:00:00.250Z',
  },
  { hook_event_name: 'Stop', session_id: 's1', cwd: '/w', recorded_at: '2026-10-31T23:59:59.999Z' },
  {
    hook_event_name: 'SessionEnd',
    session_id: 's2',
    cwd: '/w',
    reason: 'other',
    recorded_at: '2026-11-01T00:00:00.000Z',
  },
  // Before the days synced: not stored.
  { hook_event_name: 'Stop', session_id: 's0', cwd: '/w', recorded_at: '2026-08-31T12:00:00.000Z' },
];

let env: Awaited<ReturnType<typeof emulated>>;
let store: string;
let files: PartitionFile[];
let fresh: Snapshot;
let orgId: string;
beforeAll(async () => {
  env = await emulated();
  store = tempStore();
  orgId = (
    await syncStore(store, { client: env.client, now, toolVersion: 't', since: range.start, hookEvents })
  ).orgId;
  files = await partitionFiles(store);
  fresh = await fetchRange(env.client, { range, lists: true, now, toolVersion: 't', hookEvents });
});
afterAll(() => env.emulator.close());

describe('the Parquet files of a synced store, read with hyparquet', () => {
  it('every dataset has files, each in its Hive partition', () => {
    expect(new Set(files.map((f) => f.dataset))).toEqual(new Set(DATASETS.map((d) => d.name)));
    expect(new Set(files.map((f) => f.orgId))).toEqual(new Set([orgId]));
  });

  it("every file's columns are the dataset's columns, in order, with the documented types", async () => {
    for (const f of files) {
      const spec = DATASETS.find((d) => d.name === f.dataset)!;
      const { metadata } = await readParquet(f.path);
      const columns = parquetSchema(metadata).children.map((c) => ({
        name: c.element.name,
        type: columnTypeOf(c),
      }));
      expect(columns, f.path).toEqual(spec.columns.map((c) => ({ name: c.name, type: c.type })));
    }
  });

  it('every file is ZSTD-compressed and carries the schema version and its dataset in its metadata', async () => {
    for (const f of files) {
      const { metadata } = await readParquet(f.path);
      const kv = Object.fromEntries((metadata.key_value_metadata ?? []).map((e) => [e.key, e.value]));
      expect(kv.orgreport_store_schema, f.path).toBe(String(STORE_SCHEMA_VERSION));
      expect(kv.orgreport_dataset, f.path).toBe(f.dataset);
      const codecs = new Set(metadata.row_groups.flatMap((g) => g.columns.map((c) => c.meta_data?.codec)));
      expect([...codecs], f.path).toEqual(['ZSTD']);
    }
  });

  it('every partition holds as many rows as the emulator served for its month', async () => {
    const found = new Map<string, number>();
    for (const f of files) {
      const { metadata, rows } = await readParquet(f.path);
      expect(Number(metadata.num_rows)).toBe(rows.length);
      found.set(`${f.dataset}/${f.month}`, rows.length);
    }
    const expected = expectedCounts(fresh, '2026-11-22');
    expect(Object.fromEntries([...found].sort())).toEqual(Object.fromEntries([...expected].sort()));
    // Hand-checked: the three hook events of the synced days, one per month.
    expect(found.get('hook_events/2026-09')).toBe(1);
    expect(found.get('hook_events/2026-10')).toBe(1);
    expect(found.get('hook_events/2026-11')).toBe(1);
    expect(found.has('hook_events/2026-08')).toBe(false);
    expect([...found.keys()].filter((k) => k.startsWith('org_users/'))).toEqual(['org_users/2026-11']);
  });

  it('user_days rows are the fetched user-days, value for value', async () => {
    const stored = files
      .filter((f) => f.dataset === 'user_days')
      .map(async (f) => (await readParquet(f.path)).rows);
    const got = (await Promise.all(stored)).flat().map((r) => JSON.stringify(r));
    const columns = Object.keys(fresh.userDays) as Array<keyof Snapshot['userDays']>;
    const want = fresh.userDays.date.map((_, i) =>
      JSON.stringify(
        Object.fromEntries(
          columns.map((c) => {
            const v = fresh.userDays[c][i] ?? null;
            return [c, c === 'date' ? `${v}T00:00:00.000Z` : v];
          }),
        ),
      ),
    );
    expect(got.length).toBe(fresh.userDays.date.length);
    expect(got.sort()).toEqual(want.sort());
  });

  it('instants are UTC instants to the millisecond; dates are days', async () => {
    const read = async (dataset: string) =>
      (await Promise.all(files.filter((f) => f.dataset === dataset).map((f) => readParquet(f.path))))
        .flatMap((p) => p.rows)
        .sort((a, b) =>
          String(a.recorded_at ?? a.created_at).localeCompare(String(b.recorded_at ?? b.created_at)),
        );
    expect(
      (await read('hook_events')).map((r) => [r.recorded_at, r.hook_event_name, r.message, r.reason]),
    ).toEqual([
      ['2026-09-03T10:00:00.250Z', 'Notification', 'waiting', null],
      ['2026-10-31T23:59:59.999Z', 'Stop', null, null],
      ['2026-11-01T00:00:00.000Z', 'SessionEnd', null, 'other'],
    ]);
    const reports = (await read('readiness_reports')).map((r) => `${r.report_id} ${r.created_at}`);
    expect(reports.sort()).toEqual(
      fresh.readiness.map((r) => `${r.reportId} ${new Date(r.createdAt).toISOString()}`).sort(),
    );
    const users = (await read('org_users')).map((r) => r.as_of);
    expect(new Set(users)).toEqual(new Set(['2026-11-22T00:00:00.000Z']));
  });
});
