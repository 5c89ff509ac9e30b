/** One sync per organization at a time: the lock of lock.ts, through syncStore and lockOrganization. */

import type { ChildProcess } from 'node:child_process';
import { spawnSync } from 'node:child_process';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { dirname } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  lockOrganization,
  openStore,
  readState,
  StoreError,
  StoreLayout,
  StoreLockedError,
  syncStore,
} from './index.ts';
import { jsonLines, spawnScript } from './testing/child.ts';
import { emulated, now, tempStore } from './testing/emulated.ts';
import { listFiles } from './testing/files.ts';

let env: Awaited<ReturnType<typeof emulated>>;
let orgId: string;
beforeAll(async () => {
  env = await emulated();
  orgId = env.emulator.organization.orgId;
});
afterAll(() => env.emulator.close());

/** The id of a process that has exited (ids are not reused that soon). */
function deadPid(): number {
  const done = spawnSync(process.execPath, ['-e', '']);
  expect(done.status).toBe(0);
  return done.pid;
}

/** A store with a lock file of `orgId` owned by `owner` (raw text when a string). */
async function storeLockedBy(owner: object | string): Promise<{ store: string; lockFile: string }> {
  const store = tempStore();
  await openStore(store, { create: true });
  const lockFile = new StoreLayout(store).lockFile(orgId);
  await mkdir(dirname(lockFile), { recursive: true });
  await writeFile(lockFile, typeof owner === 'string' ? owner : JSON.stringify(owner));
  return { store, lockFile };
}

describe('while a sync of an organization runs', () => {
  it('a second sync of it fails at once with StoreLockedError; a sync of another organization runs beside it', async () => {
    const store = tempStore();
    // Slow responses keep the first sync holding the lock for seconds.
    const slow = await emulated({ latency: 300 });
    const other = await emulated({ seed: 12 });
    try {
      let planned!: () => void;
      const holding = new Promise<void>((resolve) => {
        planned = resolve;
      });
      let firstDone = false;
      const first = syncStore(store, {
        client: slow.client,
        now,
        toolVersion: 't',
        since: '2026-09-01',
        onProgress: (p) => p.stage === 'plan' && planned(),
      }).finally(() => {
        firstDone = true;
      });
      await holding;

      const started = Date.now();
      const progress: string[] = [];
      const second = syncStore(store, {
        client: env.client,
        now,
        toolVersion: 't',
        orgId,
        onProgress: (p) => progress.push(p.stage),
      });
      await expect(second).rejects.toBeInstanceOf(StoreLockedError);
      await expect(second).rejects.toBeInstanceOf(StoreError);
      await expect(second).rejects.toThrow(
        new RegExp(
          `another sync of organization ${orgId} is running \\(process ${process.pid} on .+\\); wait for it to finish, or remove .+org_id=${orgId}\\.lock if that process is gone`,
        ),
      );
      expect(Date.now() - started).toBeLessThan(1000);
      expect(progress).toEqual([]);
      expect(firstDone).toBe(false);

      const beside = await syncStore(store, {
        client: other.client,
        now,
        toolVersion: 't',
        since: '2026-09-01',
      });
      expect(beside.orgId).not.toBe(orgId);
      expect(beside.spans).toHaveLength(3);
      expect(firstDone).toBe(false);

      const done = await first;
      expect(done.spans).toHaveLength(3);
      const layout = await openStore(store);
      expect((await readState(layout, orgId))?.days).toEqual([{ start: '2026-09-01', end: '2026-11-21' }]);
      expect((await readState(layout, beside.orgId))?.days).toEqual([
        { start: '2026-09-01', end: '2026-11-21' },
      ]);
      expect(await listFiles(`${store}/_locks`)).toEqual([]);
    } finally {
      await slow.emulator.close();
      await other.emulator.close();
    }
  }, 60_000);
});

describe('a lock left behind', () => {
  it('by a process of this machine that is gone is taken over, then released', async () => {
    const { store, lockFile } = await storeLockedBy({
      pid: deadPid(),
      host: hostname(),
      since: '2026-11-21T00:00:00Z',
    });
    const result = await syncStore(store, {
      client: env.client,
      now,
      toolVersion: 't',
      since: '2026-11-15',
      orgId,
    });
    expect(result.spans).toEqual([{ start: '2026-11-15', end: '2026-11-21' }]);
    await expect(readFile(lockFile)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('unreadable (not JSON, no pid) is taken over', async () => {
    for (const text of ['{"pid": 12', '{"host":"x"}']) {
      const { store } = await storeLockedBy(text);
      const result = await syncStore(store, {
        client: env.client,
        now,
        toolVersion: 't',
        since: '2026-11-20',
        orgId,
      });
      expect(result.spans).toHaveLength(1);
      expect(await listFiles(`${store}/_locks`)).toEqual([]);
    }
  });

  it('with the takeover file of a process that died taking it over says what to remove', async () => {
    const { store, lockFile } = await storeLockedBy({ pid: deadPid(), host: hostname(), since: '' });
    await writeFile(`${lockFile}.takeover`, JSON.stringify({ pid: deadPid(), host: hostname(), since: '' }));
    const options = { client: env.client, now, toolVersion: 't', since: '2026-11-20', orgId };
    const sync = syncStore(store, options);
    await expect(sync).rejects.toBeInstanceOf(StoreLockedError);
    await expect(sync).rejects.toThrow(`remove ${lockFile}.takeover`);
    await rm(`${lockFile}.takeover`);
    expect((await syncStore(store, options)).spans).toHaveLength(1);
  });

  it('by a process of another machine is respected: its pid cannot be checked from here', async () => {
    const owner = { pid: deadPid(), host: 'build-7.example', since: '2026-11-21T00:00:00Z' };
    const { store, lockFile } = await storeLockedBy(owner);
    const sync = syncStore(store, { client: env.client, now, toolVersion: 't', since: '2026-11-20', orgId });
    await expect(sync).rejects.toBeInstanceOf(StoreLockedError);
    await expect(sync).rejects.toThrow(`process ${owner.pid} on build-7.example, since 2026-11-21T00:00:00Z`);
    expect(JSON.parse(await readFile(lockFile, 'utf8'))).toEqual(owner);
    expect(await readState(await openStore(store), orgId)).toBeNull();
  });
});

describe('lockOrganization', () => {
  it('is one per organization; release frees it, and only removes a lock that is still its own', async () => {
    const layout = await openStore(tempStore(), { create: true });
    const a = await lockOrganization(layout, 'org_a', now);
    await expect(lockOrganization(layout, 'org_a', now)).rejects.toBeInstanceOf(StoreLockedError);
    const b = await lockOrganization(layout, 'org_b', now);
    expect(JSON.parse(await readFile(a.path, 'utf8'))).toEqual({
      pid: process.pid,
      host: hostname(),
      since: now().toISOString(),
    });
    await a.release();
    const again = await lockOrganization(layout, 'org_a', now);
    // Someone removed b's lock and took it: b's release leaves the new owner's lock alone.
    const foreign = JSON.stringify({ pid: process.pid + 1, host: 'elsewhere', since: '' });
    await writeFile(b.path, foreign);
    await b.release();
    expect(await readFile(b.path, 'utf8')).toBe(foreign);
    await again.release();
    expect(await listFiles(`${layout.root}/_locks`)).toEqual(['org_id=org_b.lock']);
  });

  it('is released when the sync fails', async () => {
    const store = tempStore();
    const sync = syncStore(store, {
      client: env.client,
      now,
      toolVersion: 't',
      since: '2026-11-20',
      orgId: 'org_wrong',
    });
    await expect(sync).rejects.toThrow(`the API answered for organization ${orgId}, not org_wrong`);
    expect(await listFiles(`${store}/_locks`)).toEqual([]);
  });
});

describe('processes racing for a stale lock', () => {
  const children: ChildProcess[] = [];
  afterEach(() => {
    for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
  });

  it('never hold it two at a time', async () => {
    // Several processes find the same stale lock at the same moment, round after round.
    for (let i = 0; i < 6; i++) children.push(spawnScript('./lock-child.ts'));
    const next = children.map(jsonLines);
    for (const line of await Promise.all(next.map((n) => n()))) expect(line).toEqual({ ready: true });
    for (let round = 0; round < 10; round++) {
      const layout = await openStore(tempStore(), { create: true });
      await mkdir(dirname(layout.lockFile('org_a')), { recursive: true });
      await writeFile(
        layout.lockFile('org_a'),
        JSON.stringify({ pid: deadPid(), host: hostname(), since: '' }),
      );
      for (const c of children) c.stdin!.write(`${layout.root}\n`);
      const lines = await Promise.all(next.map((n) => n()));
      const held = lines.filter((l) => l.held).map((l) => l.held as [number, number]);
      expect(held.length, `round ${round}`).toBeGreaterThan(0);
      for (const l of lines) if (!l.held) expect(l.error).toBe('StoreLockedError');
      const overlapping = held.filter((a, i) => held.some((b, j) => j !== i && a[0] < b[1] && b[0] < a[1]));
      expect(overlapping, `round ${round}: holders at the same time`).toEqual([]);
      expect(await listFiles(`${layout.root}/_locks`)).toEqual([]);
    }
    for (const c of children) c.stdin!.end();
  }, 60_000);
});
