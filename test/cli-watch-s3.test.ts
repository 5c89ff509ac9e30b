/**
 * `watch` on a store in a bucket (S3 with conditional writes on loopback), each run a process of its
 * own in an empty folder with its own temporary folder, as on machines that share nothing but the
 * bucket: `sync --demo` then `watch --demo` writes its alerts, its state and its outbox in the
 * bucket, and a second watch from another folder sends nothing. Two watches at once: one keeps its
 * state, the other's lost race is an error that says to run again, and nothing is sent twice.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GetObjectCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { startS3, type TestS3 } from '@orgreport/test-servers/s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from './helpers.ts';

const bin = fileURLToPath(new URL('../apps/report-cli/bin/orgreport.js', import.meta.url));
const TODAY = '2026-11-22';
let s3: TestS3;
beforeAll(async () => {
  s3 = await startS3({ buckets: ['lake'] });
});
afterAll(async () => {
  await s3?.close();
});

/** The CLI as a process in an empty folder of its own, with a temporary folder of its own. */
function orgreport(args: string[]): Promise<{ code: number | null; out: string; err: string; dir: string }> {
  const dir = tempDir('orgreport-machine-');
  const tmp = join(dir, 'tmp');
  mkdirSync(tmp);
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, ...args, '--today', TODAY], {
      cwd: dir,
      env: { ...process.env, ...s3.env, TMPDIR: tmp },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
    });
    child.stderr!.on('data', (c: Buffer) => {
      err += c.toString();
    });
    child.once('exit', (code) => resolve({ code, out, err, dir }));
  });
}

async function keys(prefix: string): Promise<string[]> {
  const client = s3.client();
  try {
    const listed = await client.send(new ListObjectsV2Command({ Bucket: 'lake', Prefix: prefix }));
    return (listed.Contents ?? []).map((o) => o.Key!).sort();
  } finally {
    client.destroy();
  }
}

async function json(key: string): Promise<Record<string, unknown>> {
  const client = s3.client();
  try {
    const got = await client.send(new GetObjectCommand({ Bucket: 'lake', Key: key }));
    return JSON.parse(await got.Body!.transformToString());
  } finally {
    client.destroy();
  }
}

/**
 * A config file (outside the working folders) routing every alert to a folder, with a monthly
 * budget the demo organization is past by 2026-11-21 (917,709,774 credits): one budget alert.
 */
function routesTo(alerts: string): string {
  const config = join(tempDir('orgreport-watch-config-'), 'orgreport.yaml');
  writeFileSync(
    config,
    `watch:\n  budgets:\n    organization: 500000000\n  routes:\n    - to: ["dir:${alerts}"]\n      people: all\n`,
  );
  return config;
}

describe('watch on a store in a bucket', () => {
  it('keeps its state and outbox in the bucket: a second watch from another folder sends nothing', async () => {
    const store = 's3://lake/watched/';
    const synced = await orgreport(['sync', '--demo', '--store', store, '--since', '2026-09-01', '--quiet']);
    expect(synced.code, synced.err).toBe(0);
    const alerts = join(tempDir('orgreport-alerts-'), 'alerts');
    const config = routesTo(alerts);

    const first = await orgreport(['watch', '--demo', '--store', store, '--config', config]);
    expect(first.code, first.err).toBe(0);
    const sent = Number(/deliveries: (\d+) sent/.exec(first.out)?.[1]);
    expect(sent, first.out).toBeGreaterThan(0);
    expect(first.out).toContain(`ledger ${store}_ledger/`);
    const files = readdirSync(alerts).sort();
    expect(files).toHaveLength(sent);

    // Nothing but the temporary folder in the working folder, and nothing left in it.
    expect(readdirSync(first.dir)).toEqual(['tmp']);
    expect(readdirSync(join(first.dir, 'tmp'))).toEqual([]);

    // The state is in the bucket, and the outbox, emptied once every alert arrived.
    const watchKeys = await keys('watched/_watch/');
    expect(watchKeys).toHaveLength(2);
    const stateKey = watchKeys.find((k) => k.endsWith('/state.json'))!;
    expect(stateKey).toMatch(/^watched\/_watch\/org_id=[^/]+\/state\.json$/);
    const state = await json(stateKey);
    const orgId = decodeURIComponent(/org_id=([^/]+)\//.exec(stateKey)![1]!);
    expect(state).toMatchObject({ version: 1, orgId });
    expect(Object.keys(state.fired as object).length).toBeGreaterThan(0);
    const outboxKey = watchKeys.find((k) => k.endsWith('/outbox.json'))!;
    const client = s3.client();
    const outbox = await client.send(new GetObjectCommand({ Bucket: 'lake', Key: outboxKey }));
    expect(await outbox.Body!.transformToString()).toBe('');
    client.destroy();

    const second = await orgreport(['watch', '--demo', '--store', store, '--config', config]);
    expect(second.code, second.err).toBe(0);
    expect(second.out).toMatch(/deliveries: 0 sent/);
    expect(readdirSync(alerts).sort()).toEqual(files);
    expect(readdirSync(second.dir)).toEqual(['tmp']);
  }, 240_000);

  it('two watches at once: one keeps its state, the other is told to run again, nothing sent twice', async () => {
    const store = 's3://lake/raced/';
    const synced = await orgreport(['sync', '--demo', '--store', store, '--since', '2026-09-01', '--quiet']);
    expect(synced.code, synced.err).toBe(0);
    const alerts = join(tempDir('orgreport-alerts-'), 'alerts');
    const config = routesTo(alerts);
    const args = ['watch', '--demo', '--store', store, '--config', config];
    // Each conditional write holds its key a while: the two watches' writes of the state meet.
    s3.holdConditionalWrites(3000);
    const before = s3.refusals.length;
    let runs: Array<Awaited<ReturnType<typeof orgreport>>>;
    try {
      runs = await Promise.all([orgreport(args), orgreport(args)]);
    } finally {
      s3.holdConditionalWrites(0);
    }
    expect(runs.map((r) => r.code).sort(), runs.map((r) => r.err).join('\n')).toEqual([0, 1]);
    const lost = runs.find((r) => r.code === 1)!;
    expect(lost.err).toMatch(/another watch .* at the same time: run again/);
    expect(s3.refusals.slice(before).some((r) => r.includes('/raced/_watch/'))).toBe(true);
    const kept = runs.find((r) => r.code === 0)!;
    const sent = Number(/deliveries: (\d+) sent/.exec(kept.out)?.[1]);
    expect(sent).toBeGreaterThan(0);
    expect(readdirSync(alerts)).toHaveLength(sent);

    // Run again: nothing new, nothing twice.
    const again = await orgreport(args);
    expect(again.code, again.err).toBe(0);
    expect(again.out).toMatch(/deliveries: 0 sent/);
    expect(readdirSync(alerts)).toHaveLength(sent);
  }, 240_000);
});
