/**
 * Syncs in processes of their own: one killed (SIGKILL) mid-way and resumed gives the store an
 * uninterrupted sync gives; two organizations synced by two processes at once into one store give
 * each what it gets alone.
 */
import { existsSync } from 'node:fs';
import { copyFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DATASETS, openStore, readState, StoreQuery, syncStore } from './index.ts';
import { type SyncChild, startSyncChild } from './testing/child.ts';
import { emulated, now, tempStore } from './testing/emulated.ts';
import { datasetLines, listFiles, partitionFiles, readParquet, sameFingerprints } from './testing/files.ts';

const children: SyncChild[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.process.exitCode === null) c.process.kill('SIGKILL');
});

/** Every dataset's rows of one organization, fingerprints compared by rank (each store has its own salt). */
async function contents(store: string, orgId?: string): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const d of DATASETS) out[d.name] = sameFingerprints(await datasetLines(store, d.name, orgId));
  return out;
}

let env: Awaited<ReturnType<typeof emulated>>;
beforeAll(async () => {
  env = await emulated();
});
afterAll(() => env.emulator.close());

/** A partition file of the child's organization exists (polled: the child writes it by a rename). */
async function appears(path: () => string | undefined, child: SyncChild): Promise<void> {
  while (child.process.exitCode === null) {
    const p = path();
    if (p && existsSync(p)) return;
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  throw new Error('the sync child exited first');
}

describe('a sync killed mid-way', () => {
  const since = '2026-09-01';
  let whole: Record<string, string[]>;
  beforeAll(async () => {
    const store = tempStore();
    await syncStore(store, { client: env.client, now, toolVersion: 't', since });
    whole = await contents(store);
  });

  it.each([
    ['as soon as it reports its first month written', 'written'],
    ["while it writes its second month's partitions", 'second-month'],
  ])(
    '%s, then resumed, gives the content of an uninterrupted sync; nothing half-written shows',
    async (_, when) => {
      const killed = tempStore();
      // Latency keeps the child busy long enough to be killed before its last month.
      const child = startSyncChild({ store: killed, since, emulator: { latency: 20 } });
      children.push(child);
      const orgId = (await child.waitFor('plan')).orgId as string;
      if (when === 'written') await child.waitFor('written');
      // user_days is the first dataset written: its October file means October is being applied.
      else
        await appears(
          () => join(killed, 'user_days', `org_id=${orgId}`, 'month=2026-10', 'part-0.parquet'),
          child,
        );
      child.process.kill('SIGKILL');
      expect((await child.exited).signal).toBe('SIGKILL');

      // It was killed mid-way: September is held, October is not (its days are fetched again).
      const state = await readState(await openStore(killed), orgId);
      expect(state?.days).toEqual([{ start: since, end: '2026-09-30' }]);
      // Its lock is left behind, naming a process that is gone.
      expect(await listFiles(join(killed, '_locks'))).toEqual([`org_id=${orgId}.lock`]);

      // Every dataset file is a whole Parquet file in its partition (partitionFiles throws on any other).
      const files = await partitionFiles(killed);
      expect(files.some((f) => f.month === '2026-09')).toBe(true);
      for (const f of files) {
        const { metadata, rows } = await readParquet(f.path);
        expect(Number(metadata.num_rows)).toBe(rows.length);
      }
      // A leftover in _tmp, even one named like a partition file, is not data.
      const aUserDays = files.find((f) => f.dataset === 'user_days')!;
      await mkdir(join(killed, '_tmp'), { recursive: true });
      await copyFile(aUserDays.path, join(killed, '_tmp', 'part-0.parquet'));
      const q = await StoreQuery.open(killed);
      try {
        const { rows } = await q.run('SELECT count(*) FROM user_days');
        expect(rows[0]![0]).toBe((await datasetLines(killed, 'user_days')).length);
      } finally {
        q.close();
      }

      const resumed = await syncStore(killed, { client: env.client, now, toolVersion: 't', since });
      // It fetches from the first day not held; the stale lock was taken over, then released.
      expect(resumed.spans[0]?.start).toBe('2026-10-01');
      expect(resumed.spans.at(-1)?.end).toBe('2026-11-21');
      expect(await listFiles(join(killed, '_locks'))).toEqual([]);

      const got = await contents(killed);
      for (const d of DATASETS) expect(got[d.name], d.name).toEqual(whole[d.name]);
      expect(got.user_days!.length).toBeGreaterThan(500);
    },
    60_000,
  );
});

describe('two organizations synced by two processes at once into one store', () => {
  it('give exactly the datasets each gives alone', async () => {
    const since = '2026-11-01';
    const shared = tempStore();
    const runs = [11, 12].map((seed) => startSyncChild({ store: shared, since, emulator: { seed } }));
    children.push(...runs);
    const plans = await Promise.all(runs.map((r) => r.waitFor('plan')));
    const exits = await Promise.all(runs.map((r) => r.exited));
    for (const e of exits) expect(e.code, e.stderr).toBe(0);
    const orgIds = plans.map((p) => p.orgId as string);
    expect(new Set(orgIds).size).toBe(2);

    for (const [i, seed] of [11, 12].entries()) {
      const alone = tempStore();
      const other = await emulated({ seed });
      try {
        await syncStore(alone, { client: other.client, now, toolVersion: 't', since });
      } finally {
        await other.emulator.close();
      }
      const [a, b] = [await contents(shared, orgIds[i]), await contents(alone)];
      for (const d of DATASETS) expect(a[d.name], `${seed} ${d.name}`).toEqual(b[d.name]);
    }
    // Nothing in the shared store belongs to a third organization.
    expect(new Set((await partitionFiles(shared)).map((f) => f.orgId))).toEqual(new Set(orgIds));
  }, 60_000);
});
