/** `StoreQuery`: SQL over the datasets gives the report's figures; refusals and non-stores are errors that say why. */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { comparisonPeriod, monthPeriod } from '@orgreport/api-core';
import { buildReportModel, type FigureId } from '@orgreport/metrics';
import { fetchSnapshot } from '@orgreport/snapshot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  readPeriod,
  STORE_SCHEMA_VERSION,
  StoreError,
  StoreQuery,
  StoreQueryError,
  syncStore,
} from './index.ts';
import { emulated, now, tempStore } from './testing/emulated.ts';

let env: Awaited<ReturnType<typeof emulated>>;
let store: string;
let q: StoreQuery;
beforeAll(async () => {
  env = await emulated();
  store = tempStore();
  await syncStore(store, { client: env.client, now, toolVersion: 't', since: '2026-09-01' });
  q = await StoreQuery.open(store);
});
afterAll(async () => {
  q.close();
  await env.emulator.close();
});

/** The one value of a one-row, one-column query. */
async function value(sql: string): Promise<unknown> {
  const { rows } = await q.run(sql);
  expect(rows).toHaveLength(1);
  return rows[0]![0];
}

describe('SQL over the store', () => {
  it('gives the figures buildReportModel computes for October from a fresh fetch', async () => {
    const period = monthPeriod('2026-10', { now });
    const fresh = await fetchSnapshot(env.client, {
      period,
      comparison: comparisonPeriod(period),
      now,
      toolVersion: 't',
    });
    const model = buildReportModel(fresh, { generatedAt: '2026-11-22T07:00:00.000Z' });
    const figure = (id: FigureId) => model.figures.find((f) => f.id === id)!;

    const credits = (month: string) =>
      value(`SELECT sum(billable_tokens) FROM user_days WHERE month = '${month}'`);
    expect(await credits('2026-10')).toBe(figure('credits').value);
    expect(await credits('2026-09')).toBe(figure('credits').previous);
    expect(await value("SELECT sum(input_tokens) FROM tokens_daily WHERE month = '2026-10'")).toBe(
      figure('input_tokens').value,
    );
    expect(
      await value(
        "SELECT count(DISTINCT user_id) FROM user_days WHERE month = '2026-10' AND (tool_calls > 0 OR messages > 0 OR sessions > 0)",
      ),
    ).toBe(figure('active_users').value);
    expect(await value("SELECT max(daily_active_users) FROM activity_daily WHERE month = '2026-10'")).toBe(
      figure('peak_dau').value,
    );
    const avgDau = (await value(
      "SELECT avg(daily_active_users) FROM activity_daily WHERE month = '2026-10'",
    )) as number;
    expect(avgDau).toBeCloseTo(figure('avg_dau').value!, 9);
    // User-days: the October rows the fetch gave, and 31 days of each daily dataset.
    const userDays = fresh.userDays.date.filter((d) => d.startsWith('2026-10')).length;
    expect(await value("SELECT count(*) FROM user_days WHERE month = '2026-10'")).toBe(userDays);
    expect(userDays).toBeGreaterThan(100);
    expect(await value("SELECT count(*) FROM tokens_daily WHERE month = '2026-10'")).toBe(31);
    // The figures are not all zero: the comparison would prove nothing.
    expect(figure('credits').value).toBeGreaterThan(0);
    expect(figure('active_users').value).toBeGreaterThan(0);
  });

  it('reads the store the same way readPeriod does: a row per user-day, org_id and month as columns', async () => {
    const result = await q.run(
      'SELECT org_id, month, count(*) AS n, min(date) AS first, max(date) AS last FROM user_days GROUP BY ALL ORDER BY month',
    );
    expect(result.columns).toEqual(['org_id', 'month', 'n', 'first', 'last']);
    expect(result.types).toEqual(['VARCHAR', 'VARCHAR', 'BIGINT', 'DATE', 'DATE']);
    const orgId = env.emulator.organization.orgId;
    expect(result.rows.map((r) => [r[0], r[1], r[3], r[4]])).toEqual([
      [orgId, '2026-09', '2026-09-01', '2026-09-30'],
      [orgId, '2026-10', '2026-10-01', '2026-10-31'],
      [orgId, '2026-11', '2026-11-01', '2026-11-21'],
    ]);
    const period = monthPeriod('2026-10', { now });
    const snapshot = await readPeriod(store, orgId, period, null);
    expect(result.rows[1]![2]).toBe(snapshot.userDays.date.length);
  });
});

describe('a bounded read', () => {
  it('keeps the first maxRows rows and counts the others', async () => {
    const sql =
      "SELECT user_id, date, tool_calls FROM user_days WHERE month = '2026-10' ORDER BY user_id, date";
    const all = await q.run(sql);
    expect(all.rowCount).toBe(all.rows.length);
    expect(all.rowCount).toBe(await value("SELECT count(*) FROM user_days WHERE month = '2026-10'"));
    expect(all.rowCount).toBeGreaterThan(100);
    const few = await q.run(sql, { maxRows: 3 });
    expect(few.rows).toEqual(all.rows.slice(0, 3));
    expect(few.rowCount).toBe(all.rowCount);
    expect(few.columns).toEqual(['user_id', 'date', 'tool_calls']);

    // Past one DuckDB chunk (2,048 rows): the cut falls in the second chunk, the rest counted.
    const long = await q.run('SELECT range AS n FROM range(5000)', { maxRows: 2_100 });
    expect(long.rows).toEqual(Array.from({ length: 2_100 }, (_, i) => [i]));
    expect(long.rowCount).toBe(5_000);

    const roomy = await q.run('SELECT 42 AS n', { maxRows: 10 });
    expect(roomy).toEqual({ columns: ['n'], types: ['INTEGER'], rows: [[42]], rowCount: 1 });
  });
});

describe('errors', () => {
  it('a query the engine refuses is a StoreQueryError naming the problem; the query object goes on', async () => {
    const refused = async (sql: string) => {
      const error = await q.run(sql).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(StoreQueryError);
      expect(error).toBeInstanceOf(StoreError);
      return (error as Error).message;
    };
    expect(await refused('SELEC 1')).toMatch(/^Parser Error: syntax error at or near "SELEC"/);
    expect(await refused('SELECT * FROM user_dayz')).toMatch(/Table with name user_dayz does not exist/);
    expect(await refused('SELECT credits FROM user_days')).toMatch(/"credits" not found/);
    expect(await value('SELECT 1 + 1')).toBe(2);
  });

  it('runs one statement that reads: a second one, or one that writes a file, is refused and runs not', async () => {
    const refused = (sql: string) =>
      q.run(sql).then(
        () => null,
        (e: unknown) => (e instanceof StoreQueryError ? e.message : e),
      );
    expect(await refused('SELECT 1; SELECT 2')).toMatch(/holds 2 statements: give one query at a time/);
    const file = join(tempStore(), '..', 'written.csv');
    expect(await refused(`COPY (SELECT 1) TO '${file}'`)).toMatch(
      /only a query that reads runs here .* is COPY, which writes/,
    );
    expect(existsSync(file)).toBe(false);
    expect(await refused("ATTACH ':memory:' AS other")).toMatch(
      /is ATTACH, which writes or changes something/,
    );
    // What reads still runs: a query, the tables' columns, a plan.
    expect(await value('WITH x AS (SELECT 3 AS v) SELECT v FROM x')).toBe(3);
    expect((await q.run('DESCRIBE user_days')).rows.length).toBeGreaterThan(5);
    expect((await q.run('EXPLAIN SELECT count(*) FROM user_days')).rows.length).toBeGreaterThan(0);
  });

  it('a folder that is not a store is a StoreError that says so', async () => {
    const notAStore = join(tempStore(), '..', 'plain');
    mkdirSync(notAStore);
    writeFileSync(join(notAStore, 'notes.txt'), 'hello');
    const opened = StoreQuery.open(notAStore);
    await expect(opened).rejects.toBeInstanceOf(StoreError);
    await expect(opened).rejects.not.toBeInstanceOf(StoreQueryError);
    await expect(opened).rejects.toThrow(`${notAStore} is not a store (it has no _store.json)`);
    const period = monthPeriod('2026-10', { now });
    await expect(readPeriod(notAStore, 'org_x', period, null)).rejects.toThrow(/is not a store/);
    await expect(StoreQuery.open(join(notAStore, 'missing'))).rejects.toThrow(/does not exist/);

    writeFileSync(join(notAStore, '_store.json'), '{"format":"something-else","schemaVersion":1}');
    await expect(StoreQuery.open(notAStore)).rejects.toThrow(/is not an orgreport store/);
    writeFileSync(join(notAStore, '_store.json'), '{not json');
    await expect(StoreQuery.open(notAStore)).rejects.toThrow(/is not valid JSON/);
    const future = STORE_SCHEMA_VERSION + 1;
    writeFileSync(
      join(notAStore, '_store.json'),
      JSON.stringify({ format: 'orgreport-store', schemaVersion: future }),
    );
    const newer = syncStore(notAStore, { client: env.client, now, toolVersion: 't', since: '2026-11-20' });
    await expect(newer).rejects.toBeInstanceOf(StoreError);
    await expect(newer).rejects.toThrow(
      `has schema version ${future}; this orgreport reads version ${STORE_SCHEMA_VERSION}`,
    );
  });

  it('a store that lacks the days asked is a StoreError that says which and what to run', async () => {
    const orgId = env.emulator.organization.orgId;
    const period = monthPeriod('2026-08', { now });
    await expect(readPeriod(store, orgId, period, null)).rejects.toThrow(
      `the store ${store} lacks 2026-08-01..2026-08-31 of organization ${orgId}; fetch them with orgreport sync --store ${store}`,
    );
    await expect(readPeriod(store, 'org_other', period, null)).rejects.toThrow(
      /holds no data of organization org_other/,
    );
  });
});
