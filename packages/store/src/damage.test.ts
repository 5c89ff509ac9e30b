/**
 * A damaged store: every reader (readPeriod, readHistory, StoreQuery, a sync over the file) fails
 * with a DamagedStoreError that names the file inside the store and the rebuild; checkStore finds
 * every damaged file at once without the engine; the rebuild mends what it names.
 */
import { cp, mkdir, readFile, rm, stat, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { monthPeriod } from '@orgreport/api-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkStore,
  DamagedStoreError,
  openStore,
  readHistory,
  readPeriod,
  rebuildStore,
  StoreQuery,
  StoreQueryError,
  syncStore,
} from './index.ts';
import { emulated, now, tempStore } from './testing/emulated.ts';
import { partitionFiles } from './testing/files.ts';

let env: Awaited<ReturnType<typeof emulated>>;
/** A store of 2026-10-01..2026-11-21, synced once and copied for each case. */
let pristine: string;
let orgId: string;
beforeAll(async () => {
  env = await emulated();
  pristine = tempStore();
  ({ orgId } = await syncStore(pristine, { client: env.client, now, toolVersion: 't', since: '2026-10-01' }));
});
afterAll(() => env.emulator.close());

async function copy(): Promise<string> {
  const store = tempStore();
  await cp(pristine, store, { recursive: true });
  return store;
}

const october = monthPeriod('2026-10', { now });
const userDays = (org: string, month = '2026-10') => `user_days/org_id=${org}/month=${month}/part-0.parquet`;

/** Ways a partition gets damaged, and the words the error has for each. */
const DAMAGE: Array<[string, (path: string) => Promise<void>, RegExp]> = [
  ['truncated', async (p) => truncate(p, Math.floor((await stat(p)).size / 2)), /is cut short/],
  ['zero bytes', async (p) => truncate(p, 0), /is empty \(0 bytes\)/],
  ['garbage', async (p) => writeFile(p, 'not parquet, just text\n'.repeat(50)), /is not a Parquet file/],
  [
    'garbage framed as Parquet',
    async (p) => {
      // Magic at both ends and a footer length that fits: only walking the footer finds it.
      const bytes = Buffer.alloc((await stat(p)).size, 0xff);
      bytes.write('PAR1', 0);
      bytes.writeUInt32LE(200, bytes.length - 8);
      bytes.write('PAR1', bytes.length - 4);
      await writeFile(p, bytes);
    },
    /is damaged \(its Parquet footer/,
  ],
];

/** `run` rejects with a DamagedStoreError naming `file` and the rebuild of `store`. */
async function expectDamaged(run: () => Promise<unknown>, store: string, file: string, problem: RegExp) {
  const error = await run().then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DamagedStoreError);
  const damaged = error as DamagedStoreError;
  expect(damaged.file).toBe(file);
  expect(damaged.problem).toMatch(problem);
  expect(damaged.remedy).toContain(`orgreport sync --store ${store} --rebuild`);
  expect(damaged.message).toContain(file);
}

describe('a damaged partition', () => {
  it('a whole store has no damage; every partition is looked at', async () => {
    const check = await checkStore(pristine);
    expect(check.damaged).toEqual([]);
    expect(check.partitions).toBe((await partitionFiles(pristine)).length);
  });

  it.each(DAMAGE)(
    '%s: every reader names the file and the rebuild; the rebuild mends it',
    async (_, damage, problem) => {
      const store = await copy();
      const file = userDays(orgId);
      await damage(join(store, file));

      const check = await checkStore(store);
      expect(check.damaged.map((d) => d.file)).toEqual([file]);
      expect(check.damaged[0]!.problem).toMatch(problem);

      await expectDamaged(() => readPeriod(store, orgId, october, null), store, file, problem);
      await expectDamaged(() => readHistory(store, orgId, { until: '2026-10' }), store, file, problem);
      await expectDamaged(
        async () => {
          const q = await StoreQuery.open(store);
          try {
            return await q.run("SELECT count(*) FROM user_days WHERE month = '2026-10'");
          } finally {
            q.close();
          }
        },
        store,
        file,
        problem,
      );
      // A sync that rewrites the month reads the old file first.
      await expectDamaged(
        () =>
          syncStore(store, {
            client: env.client,
            now,
            toolVersion: 't',
            since: '2026-10-25',
            refetch: ['2026-10'],
            orgId,
          }),
        store,
        file,
        problem,
      );

      await rebuildStore(store, { now });
      expect((await checkStore(store)).damaged).toEqual([]);
      expect(await readFile(join(store, file))).toEqual(await readFile(join(pristine, file)));
      const snapshot = await readPeriod(store, orgId, october, null);
      expect(snapshot.userDays.user_id.length).toBeGreaterThan(0);
    },
  );

  it('a query that reads no damaged file still runs; SQL the engine refuses is no damage', async () => {
    const store = await copy();
    const file = userDays(orgId, '2026-11');
    await truncate(join(store, file), 0);
    const q = await StoreQuery.open(store);
    try {
      const { rows } = await q.run('SELECT count(*) AS n FROM tokens_daily');
      expect(rows[0]![0]).toBeGreaterThan(0);
      const refused = await q.run('SELEC 1').catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(StoreQueryError);
      expect(refused).not.toBeInstanceOf(DamagedStoreError);
      await expectDamaged(() => q.run('SELECT count(*) FROM user_days'), store, file, /is empty/);
    } finally {
      q.close();
    }
  });
});

describe('damaged JSON files', () => {
  it('a _store.json cut short: every reader names it; the rebuild writes it anew', async () => {
    const store = await copy();
    const text = await readFile(join(store, '_store.json'), 'utf8');
    await writeFile(join(store, '_store.json'), text.slice(0, 40));
    await expectDamaged(() => openStore(store), store, '_store.json', /is not valid JSON/);
    await expectDamaged(
      () => readPeriod(store, orgId, october, null),
      store,
      '_store.json',
      /not valid JSON/,
    );
    expect((await checkStore(store)).damaged.map((d) => d.file)).toEqual(['_store.json']);

    await rebuildStore(store, { now });
    expect(await readFile(join(store, '_store.json'), 'utf8')).toBe(text);
    expect((await checkStore(store)).damaged).toEqual([]);
  });

  it('a state file empty, not JSON, or not a file: named, with the rebuild', async () => {
    const file = `_state/org_id=${orgId}.json`;
    for (const [damage, problem] of [
      [(p: string) => writeFile(p, ''), /is empty \(0 bytes\)/],
      [(p: string) => writeFile(p, '{"orgId": "x", "da'), /is not valid JSON/],
      [(p: string) => writeFile(p, '[1, 2]'), /is not a state/],
      [
        async (p: string) => {
          await rm(p);
          await mkdir(p);
        },
        /cannot be read \(EISDIR\)/,
      ],
    ] as const) {
      const store = await copy();
      await damage(join(store, file));
      await expectDamaged(() => readPeriod(store, orgId, october, null), store, file, problem);
      const check = await checkStore(store);
      expect(check.damaged.map((d) => d.file)).toEqual([file]);
    }
  });
});
