/**
 * The test Postgres: a real server (Debian's), reached with its password, refusing a wrong one,
 * gone once closed; and what the ledger relies on, a unique key that lets one of two racing
 * inserts in (INSERT ... ON CONFLICT DO NOTHING).
 */
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPostgres, type TestPostgres } from './postgres.ts';

let server: TestPostgres;
beforeAll(async () => {
  server = await startPostgres();
});
afterAll(() => server?.close());

async function query<T>(url: string, text: string, values: Array<string | number> = []) {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const rows = await sql.unsafe(text, values);
    return { rows: rows as unknown as T[], rowCount: rows.count };
  } finally {
    await sql.end();
  }
}

describe('the test Postgres', () => {
  it('answers with its password and refuses a wrong one', async () => {
    const { rows } = await query<{ version: string }>(server.url, 'SELECT version()');
    expect(rows[0]!.version).toMatch(/^PostgreSQL \d+/);
    await expect(query(server.wrongPasswordUrl, 'SELECT 1')).rejects.toThrow(
      /password authentication failed/,
    );
  });

  it('lets exactly one of many racing inserts of one key in (ON CONFLICT DO NOTHING)', async () => {
    await query(server.url, 'CREATE TABLE claims (key text PRIMARY KEY, holder text NOT NULL)');
    const claim = (holder: string) =>
      query(server.url, 'INSERT INTO claims (key, holder) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING', [
        'k',
        holder,
      ]);
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => claim(`run ${i}`)));
    expect(results.map((r) => r.rowCount).sort()).toEqual([0, 0, 0, 0, 0, 1]);
    const { rows } = await query<{ holder: string }>(server.url, 'SELECT holder FROM claims');
    expect(rows).toHaveLength(1);
  });

  it('is gone once closed', async () => {
    const other = await startPostgres();
    await other.close();
    await expect(query(other.url, 'SELECT 1')).rejects.toThrow(/ECONNREFUSED/);
  });
});
