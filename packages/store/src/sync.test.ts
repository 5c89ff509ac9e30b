/** `syncStore` run again: with nothing new it writes nothing; a later day or a refetch touches only what it must. */
import { existsSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { OrgClient } from '@orgreport/api-core';
import { fetchRange } from '@orgreport/snapshot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATASETS, rebuildStore, syncStore } from './index.ts';
import { emulated, now, tempStore } from './testing/emulated.ts';
import { changedFiles, datasetLines, hashFiles, listFiles } from './testing/files.ts';

const since = '2026-09-01';
const byDay = DATASETS.filter((d) => d.replace.by === 'day').map((d) => d.name);

let env: Awaited<ReturnType<typeof emulated>>;
beforeAll(async () => {
  env = await emulated();
});
afterAll(() => env.emulator.close());

/** The dataset of a changed path, or null for the underscore folders. */
const datasetOf = (path: string) => (path.startsWith('_') ? null : path.split('/')[0]!);
const monthOf = (path: string) => /\/month=(\d{4}-\d{2})\//.exec(path)?.[1];

describe('syncStore run again', () => {
  it('with the same clock fetches nothing and leaves every file byte-identical', async () => {
    const store = tempStore();
    const first = await syncStore(store, { client: env.client, now, toolVersion: 't', since });
    expect(first.spans).toHaveLength(3);
    const before = await hashFiles(store);
    expect([...before.keys()].filter((p) => p.endsWith('.parquet')).length).toBeGreaterThan(40);

    const requests = env.emulator.requestLog.length;
    const progress: string[] = [];
    const again = await syncStore(store, {
      client: env.client,
      now,
      toolVersion: 't',
      since,
      orgId: first.orgId,
      onProgress: (p) => progress.push(p.stage),
    });
    expect(again).toEqual({ orgId: first.orgId, spans: [], written: 0, unchanged: 0 });
    expect(progress).toEqual(['plan']);
    expect(env.emulator.requestLog.length).toBe(requests);
    expect(changedFiles(before, await hashFiles(store))).toEqual([]);
    expect(await listFiles(`${store}/_locks`)).toEqual([]);
  });

  it("a day later writes only that month's partitions", async () => {
    const store = tempStore();
    const first = await syncStore(store, { client: env.client, now, toolVersion: 't', since });
    const before = await hashFiles(store);
    const novemberBefore = (await datasetLines(store, 'user_days')).filter((l) =>
      l.includes('"month":"2026-11"'),
    );

    const later = await emulated({ today: '2026-11-23' });
    try {
      const result = await syncStore(store, {
        client: later.client,
        now: later.now,
        toolVersion: 't',
        since,
      });
      expect(result.spans).toEqual([{ start: '2026-11-22', end: '2026-11-22' }]);
      const changed = changedFiles(before, await hashFiles(store));
      const datasets = changed.filter((p) => datasetOf(p) !== null);
      expect(datasets.length).toBe(result.written);
      expect(new Set(datasets.map(monthOf))).toEqual(new Set(['2026-11']));
      expect(datasets.some((p) => p.startsWith('user_days/'))).toBe(true);
      // Beside them only the organization's state and the new raw span.
      const others = changed.filter((p) => datasetOf(p) === null);
      for (const p of others) {
        expect(p).toMatch(
          new RegExp(
            `^(_state/org_id=${first.orgId}\\.json|_raw/org_id=${first.orgId}/\\w+_2026-11-22_2026-11-22/.+)$`,
          ),
        );
      }
      expect(others).toContain(`_state/org_id=${first.orgId}.json`);
      // November keeps its first 21 days as they were and gains the 22nd.
      const novemberAfter = (await datasetLines(store, 'user_days')).filter((l) =>
        l.includes('"month":"2026-11"'),
      );
      const added = novemberAfter.filter((l) => !novemberBefore.includes(l));
      expect(novemberAfter.length).toBe(novemberBefore.length + added.length);
      expect(added.length).toBeGreaterThan(0);
      for (const l of added) expect(JSON.parse(l).date).toBe('2026-11-22T00:00:00.000Z');
    } finally {
      await later.emulator.close();
    }
  });
});

describe('a sync refused before it fetched', () => {
  it('leaves no empty store behind when there is no day to sync', async () => {
    const store = tempStore();
    await expect(
      syncStore(store, { client: env.client, now, toolVersion: 't', since: '2026-11-25' }),
    ).rejects.toThrow(/no day to sync/);
    expect(existsSync(store)).toBe(false);
  });

  it('leaves no empty store behind when the API refuses the key', async () => {
    const store = tempStore();
    const client = new OrgClient({
      apiKey: 'not-the-key',
      baseUrl: env.emulator.baseUrl,
      appUrl: env.emulator.appUrl,
      now,
    });
    await expect(syncStore(store, { client, now, toolVersion: 't', since })).rejects.toThrow();
    expect(existsSync(store)).toBe(false);
  });
});

describe('refetch', () => {
  it("fetches the month again and replaces its partitions whole; other months' files stay as they were", async () => {
    const store = tempStore();
    const { orgId } = await syncStore(store, { client: env.client, now, toolVersion: 't', since });
    const before = await hashFiles(store);
    const octoberBefore = (await datasetLines(store, 'user_days')).filter((l) =>
      l.includes('"month":"2026-10"'),
    );

    // The same organization id with another seed: the service "revised" its data.
    const revised = await emulated({ seed: 12, orgId });
    try {
      const result = await syncStore(store, {
        client: revised.client,
        now,
        toolVersion: 't',
        since,
        refetch: ['2026-10'],
      });
      expect(result.spans).toEqual([{ start: '2026-10-01', end: '2026-10-31' }]);
      const changed = changedFiles(before, await hashFiles(store));
      // Every dated dataset's October file changed, and none of its September or November files.
      for (const d of byDay.filter((d) => d !== 'hook_events')) {
        const files = changed.filter((p) => datasetOf(p) === d);
        expect(files.map(monthOf), d).toEqual(['2026-10']);
      }

      const fresh = await fetchRange(revised.client, {
        range: { start: '2026-10-01', end: '2026-10-31' },
        lists: false,
        now,
        toolVersion: 't',
      });
      const october = (await datasetLines(store, 'user_days')).filter((l) => l.includes('"month":"2026-10"'));
      const rows = october.map((l) => JSON.parse(l) as Record<string, unknown>);
      // Only the revised rows: none of the first fetch's rows of October is left.
      expect(rows.length).toBe(fresh.userDays.date.length);
      expect(october.filter((l) => octoberBefore.includes(l))).toEqual([]);
      const key = (user: unknown, day: unknown) => `${user} ${String(day).slice(0, 10)}`;
      expect(rows.map((r) => key(r.user_id, r.date)).sort()).toEqual(
        fresh.userDays.user_id.map((u, i) => key(u, fresh.userDays.date[i])).sort(),
      );
      const credits = (xs: ArrayLike<number>) => Array.from(xs).reduce((a, b) => a + b, 0);
      expect(credits(rows.map((r) => r.billable_tokens as number))).toBe(
        credits(fresh.userDays.billable_tokens),
      );
      const daily = (await datasetLines(store, 'tokens_daily'))
        .map((l) => JSON.parse(l) as Record<string, unknown>)
        .filter((r) => r.month === '2026-10')
        .map((r) => [String(r.date).slice(0, 10), r.billable_tokens]);
      expect(daily).toEqual(fresh.tokens.map((d) => [d.date, d.billable_tokens]));
    } finally {
      await revised.emulator.close();
    }
  });
});

describe('rebuildStore', () => {
  it('makes every dataset and the state again from the raw spans, byte for byte, without a request', async () => {
    const store = tempStore();
    const { orgId } = await syncStore(store, { client: env.client, now, toolVersion: 't', since });
    const skip = ['_locks', '_tmp'];
    const before = await hashFiles(store, skip);
    const parts = [...before.keys()].filter((p) => p.endsWith('.parquet'));
    // Damage: a partition deleted, another truncated, the state unreadable.
    await rm(join(store, parts[0]!));
    await writeFile(join(store, parts[5]!), 'PAR1');
    await writeFile(join(store, '_state', `org_id=${orgId}.json`), '{');
    await expect(
      syncStore(store, { client: env.client, now, toolVersion: 't', since, orgId }),
    ).rejects.toThrow(/_state\/org_id=.+\.json is not valid JSON; .*orgreport sync --store .* --rebuild/);

    const requests = env.emulator.requestLog.length;
    const seen: number[] = [];
    const result = await rebuildStore(store, { now, onProgress: (p) => seen.push(p.index) });
    expect(result).toEqual([{ orgId, spans: 3 }]);
    expect(seen).toEqual([0, 1, 2]);
    expect(env.emulator.requestLog.length).toBe(requests);
    expect(changedFiles(before, await hashFiles(store, skip))).toEqual([]);
  });

  it('says when there is nothing to rebuild from', async () => {
    const store = tempStore();
    await syncStore(store, { client: env.client, now, toolVersion: 't', since: '2026-11-01' });
    await expect(rebuildStore(store, { now, orgId: 'org_nobody' })).rejects.toThrow(
      /keeps no raw data of organization org_nobody/,
    );
  });
});
