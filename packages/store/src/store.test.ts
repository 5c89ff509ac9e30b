/**
 * The store as other readers see it: every dataset read back by hyparquet (an independent Parquet
 * reader, not DuckDB that writes them) with the documented columns; a second sync changes no byte;
 * two organizations synced at once into one store give each the files it gives alone; docs/store.md
 * is the schema.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { asyncBufferFromFile, parquetMetadataAsync, parquetReadObjects, parquetSchema } from 'hyparquet';
import { compressors } from 'hyparquet-compressors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { datasetsMarkdown } from './docs.ts';
import { DATASETS, STORE_SCHEMA_VERSION } from './schema.ts';
import { syncStore } from './sync.ts';
import { emulated, now, tempStore } from './testing/emulated.ts';

type Env = Awaited<ReturnType<typeof emulated>>;
let a: Env;
let b: Env;
beforeAll(async () => {
  // Two organizations; a hook log would only add hook_events, which the sync test of the CLI covers.
  [a, b] = await Promise.all([emulated(), emulated({ seed: 12, users: 9 })]);
});
afterAll(async () => {
  await Promise.all([a.emulator.close(), b.emulator.close()]);
});

/** Every file under `root` (but the lock and scratch folders) with the SHA-256 of its bytes. */
function hashes(root: string, under = root, out = new Map<string, string>()): Map<string, string> {
  for (const name of readdirSync(under)) {
    const path = join(under, name);
    if (statSync(path).isDirectory()) {
      if (name !== '_locks' && name !== '_tmp') hashes(root, path, out);
    } else {
      out.set(relative(root, path), createHash('sha256').update(readFileSync(path)).digest('hex'));
    }
  }
  return out;
}

/** The Parquet type hyparquet reports for a column, in the store's type names. */
function storeType(element: {
  type?: string;
  converted_type?: string;
  logical_type?: { type: string; isAdjustedToUTC?: boolean };
}): string {
  const logical = element.logical_type?.type;
  if (logical === 'DATE' || element.converted_type === 'DATE') return 'DATE';
  if (logical === 'TIMESTAMP') return element.logical_type?.isAdjustedToUTC ? 'TIMESTAMPTZ' : 'TIMESTAMP';
  if (logical === 'STRING' || element.converted_type === 'UTF8') return 'VARCHAR';
  return (
    { DOUBLE: 'DOUBLE', INT64: 'BIGINT', INT32: 'INTEGER', BOOLEAN: 'BOOLEAN' }[element.type ?? ''] ?? '?'
  );
}

const options = { now, toolVersion: 't', since: '2026-09-20' } as const;

describe('a synced store', () => {
  it('is read by an independent Parquet reader with the documented columns and types', async () => {
    const store = tempStore();
    const result = await syncStore(store, { client: a.client, ...options });
    const seen = new Set<string>();
    let userDayRows = 0;
    for (const spec of DATASETS) {
      const orgDir = join(store, spec.name, `org_id=${result.orgId}`);
      let months: string[] = [];
      try {
        months = readdirSync(orgDir);
      } catch {
        continue; // a dataset without rows in these days (hook_events without a hook log)
      }
      for (const month of months) {
        expect(month).toMatch(/^month=\d{4}-\d{2}$/);
        const file = await asyncBufferFromFile(join(orgDir, month, 'part-0.parquet'));
        const metadata = await parquetMetadataAsync(file);
        const fields = parquetSchema(metadata).children;
        expect(
          fields.map((f) => f.element.name),
          spec.name,
        ).toEqual(spec.columns.map((c) => c.name));
        for (const [i, column] of spec.columns.entries()) {
          const field = fields[i]!;
          if (column.type === 'VARCHAR[]') {
            expect(field.element.converted_type ?? field.element.logical_type?.type, column.name).toBe(
              'LIST',
            );
            const leaf = field.children[0]!.children[0]!;
            expect(storeType(leaf.element), column.name).toBe('VARCHAR');
          } else {
            expect(storeType(field.element), `${spec.name}.${column.name}`).toBe(column.type);
          }
        }
        const kv = Object.fromEntries((metadata.key_value_metadata ?? []).map((e) => [e.key, e.value]));
        expect(kv.orgreport_store_schema).toBe(String(STORE_SCHEMA_VERSION));
        expect(kv.orgreport_dataset).toBe(spec.name);
        const rows = await parquetReadObjects({ file, compressors });
        expect(rows.length).toBe(Number(metadata.num_rows));
        if (spec.name === 'user_days') {
          userDayRows += rows.length;
          for (const row of rows) expect((row.date as Date).toISOString().slice(0, 7)).toBe(month.slice(6));
        }
        seen.add(spec.name);
      }
    }
    // Every dataset the emulator has rows for was found and read.
    expect([...seen].sort()).toEqual(
      DATASETS.map((d) => d.name)
        .filter((n) => n !== 'hook_events')
        .sort(),
    );
    // The user-day rows are those the API served for those days: one per user and active day.
    let served = 0;
    for await (const _ of a.client.analytics.users({ startDate: '2026-09-20', endDate: '2026-11-21' }))
      served++;
    expect(userDayRows).toBe(served);
  });

  it('is left byte for byte as it was by a second sync; syncs of two organizations do not interfere', async () => {
    const shared = tempStore();
    const [ra, rb] = await Promise.all([
      syncStore(shared, { client: a.client, ...options }),
      syncStore(shared, { client: b.client, ...options }),
    ]);
    expect(ra.orgId).not.toBe(rb.orgId);
    const before = hashes(shared);
    const again = await syncStore(shared, { client: a.client, ...options });
    expect(again.spans).toEqual([]);
    expect(hashes(shared)).toEqual(before);

    // Alone, each organization writes the very partition files it wrote beside the other.
    for (const [env, id] of [
      [a, ra.orgId],
      [b, rb.orgId],
    ] as const) {
      const alone = tempStore();
      await syncStore(alone, { client: env.client, ...options });
      // Control revisions hold secrets' fingerprints salted per store, so they differ by design.
      const mine = (m: Map<string, string>) =>
        new Map(
          [...m].filter(
            ([path]) =>
              path.includes(`/org_id=${id}/`) &&
              path.endsWith('.parquet') &&
              !path.startsWith('control_revisions/'),
          ),
        );
      const files = mine(hashes(alone));
      expect(files.size).toBeGreaterThan(10);
      expect(mine(before)).toEqual(files);
    }
  });
});

describe('docs/store.md', () => {
  it('lists every dataset and column of the schema (pnpm --filter @orgreport/store docs rewrites it)', () => {
    const doc = readFileSync(new URL('../../../docs/store.md', import.meta.url), 'utf8');
    const between = doc.slice(
      doc.indexOf('<!-- datasets:start -->') + '<!-- datasets:start -->'.length,
      doc.indexOf('<!-- datasets:end -->'),
    );
    const normal = (s: string) =>
      s
        .replace(/\s+/g, ' ')
        .replace(/\| -+ /g, '| --- ')
        .trim();
    expect(normal(between)).toBe(normal(datasetsMarkdown()));
  });
});
