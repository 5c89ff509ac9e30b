/** The store from the command line: sync, query, monthly --store, as a user runs them. */
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { RunningEmulator } from '@orgreport/emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, envFor, smallOrg, tempDir } from './helpers.ts';

let emulator: RunningEmulator;
beforeAll(async () => {
  emulator = await smallOrg({ users: 14 });
});
afterAll(() => emulator?.close());

/** Requests the emulator served while `run` ran, and their bytes. */
async function served<T>(run: () => Promise<T>): Promise<{ result: T; requests: number; bytes: number }> {
  const before = emulator.requestLog.length;
  const result = await run();
  const entries = emulator.requestLog.slice(before);
  return { result, requests: entries.length, bytes: entries.reduce((s, e) => s + (e.bytes ?? 0), 0) };
}

function figure(model: { figures: Array<{ id: string; value: number | null }> }, id: string): number {
  const value = model.figures.find((f) => f.id === id)?.value;
  if (typeof value !== 'number') throw new Error(`no figure ${id}`);
  return value;
}

describe('orgreport sync / query / monthly --store', () => {
  it('syncs the days the store lacks, once; queries them; a report from the store equals a fresh one', async () => {
    const store = join(tempDir(), 'store');
    const env = envFor(emulator);

    const first = await cli(['sync', '--store', store, '--since', '2026-09-01', '--json'], { env });
    expect(first.code, first.err).toBe(0);
    const summary = JSON.parse(first.out);
    expect(summary.spans.map((s: { start: string }) => s.start)).toEqual([
      '2026-09-01',
      '2026-10-01',
      '2026-11-01',
    ]);
    expect(summary.partitions.written).toBeGreaterThan(0);
    // Hive layout: <dataset>/org_id=<id>/month=<YYYY-MM>/part-0.parquet
    expect(readdirSync(join(store, 'user_days', `org_id=${summary.organization.id}`)).sort()).toEqual([
      'month=2026-09',
      'month=2026-10',
      'month=2026-11',
    ]);

    // A second sync fetches no day (one request asks which organization the key belongs to).
    const again = await served(() =>
      cli(['sync', '--store', store, '--since', '2026-09-01', '--json'], { env }),
    );
    expect(again.result.code, again.result.err).toBe(0);
    expect(JSON.parse(again.result.out).spans).toEqual([]);
    expect(again.requests).toBe(1);

    // monthly --store reads October and its comparison month from the store: no day is fetched.
    const fromStore = tempDir();
    const stored = await served(() =>
      cli(['monthly', '--store', store, '--month', '2026-10', '--formats', 'json', '--out', fromStore], {
        env,
      }),
    );
    expect(stored.result.code, stored.result.err).toBe(0);
    expect(stored.requests).toBe(1);
    const fresh = tempDir();
    const fetched = await served(() =>
      cli(['monthly', '--month', '2026-10', '--formats', 'json', '--out', fresh], { env }),
    );
    expect(fetched.result.code, fetched.result.err).toBe(0);
    expect(stored.bytes).toBeLessThan(fetched.bytes * 0.05);

    const modelOf = (dir: string) =>
      JSON.parse(readFileSync(join(dir, readdirSync(dir).find((f) => f.endsWith('.json'))!), 'utf8'));
    const a = modelOf(fromStore);
    const b = modelOf(fresh);
    for (const id of ['credits', 'active_users', 'sessions', 'tool_calls', 'git_commits']) {
      expect(figure(a, id), id).toBe(figure(b, id));
    }
    // From the store the report has a trend of the months it holds; a fresh fetch has none.
    const trend = a.sections.trend.months as Array<{ month: string; credits: number }>;
    expect(trend.map((m) => m.month)).toEqual(['2026-09', '2026-10']);
    expect(trend[1]!.credits).toBe(figure(b, 'credits'));
    expect(b.sections?.trend).toBeUndefined();

    // SQL over the store gives the report's figures.
    const sql =
      "SELECT sum(billable_tokens) AS credits, count(DISTINCT user_id) AS active_users, sum(tool_calls) AS tool_calls FROM user_days WHERE month = '2026-10'";
    const q = await cli(['query', '--store', store, '--format', 'json', sql], { env: {} });
    expect(q.code, q.err).toBe(0);
    const row = JSON.parse(q.out.trim());
    expect(row.credits).toBe(figure(b, 'credits'));
    expect(row.active_users).toBe(figure(b, 'active_users'));
    expect(row.tool_calls).toBe(figure(b, 'tool_calls'));

    const csv = await cli(
      [
        'query',
        '--store',
        store,
        '--format',
        'csv',
        'SELECT month, count(*) AS n FROM user_days GROUP BY ALL ORDER BY 1',
      ],
      { env: {} },
    );
    expect(csv.code, csv.err).toBe(0);
    expect(csv.out.split('\r\n')[0]).toBe('month,n');
    expect(
      csv.out
        .split('\r\n')
        .slice(1, 4)
        .map((l) => l.split(',')[0]),
    ).toEqual(['2026-09', '2026-10', '2026-11']);

    // A partition lost: sync --rebuild makes it again from the raw responses, without a request.
    const october = join(store, 'user_days', `org_id=${summary.organization.id}`, 'month=2026-10');
    rmSync(october, { recursive: true });
    const rebuilt = await served(() => cli(['sync', '--store', store, '--rebuild', '--json'], { env }));
    expect(rebuilt.result.code, rebuilt.result.err).toBe(0);
    expect(rebuilt.requests).toBe(0);
    expect(JSON.parse(rebuilt.result.out).rebuilt).toEqual([{ orgId: summary.organization.id, spans: 3 }]);
    const q2 = await cli(['query', '--store', store, '--format', 'json', sql], { env: {} });
    expect(JSON.parse(q2.out.trim())).toEqual(row);
  });

  it('says what was wrong, with exit 2: no store given, a folder that is no store, SQL the engine refuses', async () => {
    const none = await cli(['query', 'SELECT 1'], { env: {} });
    expect(none.code).toBe(2);
    expect(none.err).toContain('--store');

    const notStore = await cli(['query', '--store', join(tempDir(), 'missing'), 'SELECT 1'], { env: {} });
    expect(notStore.code).toBe(2);
    expect(notStore.err).toMatch(/does not exist.*orgreport sync --store/);

    const store = join(tempDir(), 'store');
    const synced = await cli(['sync', '--store', store, '--since', '2026-11-01'], { env: envFor(emulator) });
    expect(synced.code, synced.err).toBe(0);
    const bad = await cli(['query', '--store', store, 'SELEC 1'], { env: {} });
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('syntax error');
    // Said once, not again in the binding's words.
    expect(bad.err.match(/syntax error/g)).toHaveLength(1);
    const copy = await cli(['query', '--store', store, `COPY (SELECT 1) TO '${join(tempDir(), 'x.csv')}'`], {
      env: {},
    });
    expect(copy.code).toBe(2);
    expect(copy.err).toMatch(/only a query that reads runs here/);
    const unknown = await cli(['query', '--store', store, 'SELECT * FROM no_such_table'], { env: {} });
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain('no_such_table');

    const badDay = await cli(['sync', '--store', store, '--since', '2026-02-30'], { env: envFor(emulator) });
    expect(badDay.code).toBe(2);
    expect(badDay.err).toContain('--since');

    const rebuildAndFetch = await cli(['sync', '--store', store, '--rebuild', '--since', '2026-11-01'], {
      env: envFor(emulator),
    });
    expect(rebuildAndFetch.code).toBe(2);
    expect(rebuildAndFetch.err).toContain('--rebuild fetches nothing');
  });
});
