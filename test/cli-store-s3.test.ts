/**
 * The store in a bucket through the CLI (S3 with conditional writes on loopback): `sync --demo` then
 * `monthly --demo` from an empty folder, `query` and `rollup` over the bucket; two syncs of
 * different days from two folders into one bucket at once (their commits made to collide), after
 * which the bucket holds both and equals a store synced in one run, partition by partition, read by
 * an independent Parquet reader (hyparquet), with one file in each partition's folder. `watch` on a
 * bucket: cli-watch-s3.test.ts.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GetObjectCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import type { RunningEmulator } from '@orgreport/emulator';
import { startS3, type TestS3 } from '@orgreport/test-servers/s3';
import { parquetReadObjects } from 'hyparquet';
import { compressors } from 'hyparquet-compressors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, envFor, smallOrg, tempDir } from './helpers.ts';

const bin = fileURLToPath(new URL('../apps/report-cli/bin/orgreport.js', import.meta.url));
let s3: TestS3;
let emulator: RunningEmulator;
beforeAll(async () => {
  [s3, emulator] = await Promise.all([startS3({ buckets: ['lake'] }), smallOrg()]);
});
afterAll(async () => {
  await s3?.close();
  await emulator?.close();
});

async function list(prefix: string): Promise<string[]> {
  const client = s3.client();
  try {
    const out: string[] = [];
    let token: string | undefined;
    do {
      const page = await client.send(
        new ListObjectsV2Command({
          Bucket: 'lake',
          Prefix: prefix,
          ...(token && { ContinuationToken: token }),
        }),
      );
      out.push(...(page.Contents ?? []).map((o) => o.Key!));
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return out;
  } finally {
    client.destroy();
  }
}

async function rows(key: string): Promise<unknown> {
  const client = s3.client();
  try {
    const got = await client.send(new GetObjectCommand({ Bucket: 'lake', Key: key }));
    const bytes = await got.Body!.transformToByteArray();
    const file = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
    const read = await parquetReadObjects({ file, compressors });
    // Each sync salts the fingerprints of secrets with its own salt: compared without it.
    return JSON.parse(
      JSON.stringify(read, (_k, v) => (typeof v === 'bigint' ? `${v}n` : v)).replace(
        /\[redacted:[0-9a-f]+\]/g,
        '[redacted]',
      ),
    );
  } finally {
    client.destroy();
  }
}

/** Each partition folder of a store in the bucket, with the rows of its one file. */
async function partitions(prefix: string): Promise<Map<string, unknown>> {
  const keys = (await list(prefix)).filter((k) => /\/month=\d{4}-\d{2}\/part-[0-9a-f]{16}\.parquet$/.test(k));
  const out = new Map<string, unknown>();
  for (const key of keys) {
    const folder = key.slice(prefix.length, key.lastIndexOf('/'));
    expect(out.has(folder), `${folder} holds one file`).toBe(false);
    out.set(folder, await rows(key));
  }
  return out;
}

describe('the store in a bucket, through the CLI', () => {
  it('sync --demo, then monthly --demo from an empty folder; query and rollup read the bucket', async () => {
    const store = 's3://lake/demo/';
    const env = { ...s3.env };
    const synced = await cli(['sync', '--demo', '--store', store, '--since', '2026-09-01', '--quiet'], {
      env,
    });
    expect(synced.code, synced.err).toBe(0);
    const empty = tempDir('orgreport-s3-monthly-');
    const out = join(empty, 'out');
    const monthly = await cli(['monthly', '--demo', '--store', store, '--formats', 'json', '--out', out], {
      env,
    });
    expect(monthly.code, monthly.err).toBe(0);
    const report = readdirSync(out).find((f) => f.endsWith('.json'))!;
    const model = JSON.parse(readFileSync(join(out, report), 'utf8'));
    expect(model.period.month).toBe('2026-10');
    expect(monthly.err).toContain(`2026-10 from ${store}`);
    const query = await cli(
      [
        'query',
        '--store',
        store,
        '--format',
        'json',
        'SELECT month, count(*) AS n FROM user_days GROUP BY month ORDER BY month',
      ],
      { env },
    );
    expect(query.code, query.err).toBe(0);
    const months = query.out
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line).month);
    expect(months).toEqual(['2026-09', '2026-10', '2026-11']);
    const rollup = await cli(
      ['rollup', '--store', store, '--formats', 'json', '--out', join(empty, 'rollup')],
      { env },
    );
    expect(rollup.code, rollup.err).toBe(0);
    // Nothing of the store was left in the working folder: only the reports.
    expect(readdirSync(empty).sort()).toEqual(['out', 'rollup']);
    for (const text of [synced.err, monthly.err, query.out, rollup.err])
      expect(text).not.toContain(s3.secretAccessKey);
  }, 180_000);

  it('two syncs of different days from two folders at once hold both, equal to one sync of them all', async () => {
    const sync = (dir: string, store: string, since: string, until: string) =>
      new Promise<{ code: number | null; err: string }>((resolve) => {
        const tmp = join(dir, 'tmp');
        mkdirSync(tmp, { recursive: true });
        const child = spawn(
          process.execPath,
          [bin, 'sync', '--store', store, '--since', since, '--until', until, '--today', '2026-11-22'],
          {
            cwd: dir,
            env: { ...process.env, ...envFor(emulator), ...s3.env, TMPDIR: tmp },
            stdio: ['ignore', 'ignore', 'pipe'],
          },
        );
        let err = '';
        child.stderr!.on('data', (c: Buffer) => {
          err += c.toString();
        });
        child.once('exit', (code) => resolve({ code, err }));
      });
    // Each commit holds its key a while: the second sync's commit meets the first's (a few seconds:
    // on a loaded machine the two processes' commits can come that far apart).
    s3.holdConditionalWrites(5000);
    const before = s3.refusals.length;
    let a: { code: number | null; err: string };
    let b: { code: number | null; err: string };
    try {
      [a, b] = await Promise.all([
        sync(tempDir('orgreport-machine-a-'), 's3://lake/two/', '2026-10-01', '2026-10-15'),
        sync(tempDir('orgreport-machine-b-'), 's3://lake/two/', '2026-10-16', '2026-10-31'),
      ]);
    } finally {
      s3.holdConditionalWrites(0);
    }
    expect(a.code, a.err).toBe(0);
    expect(b.code, b.err).toBe(0);
    // They met: a commit of the organization's state was refused or in conflict, and applied again.
    expect(s3.refusals.slice(before).some((r) => r.includes('/two/_state/'))).toBe(true);
    const one = await sync(tempDir('orgreport-machine-c-'), 's3://lake/one/', '2026-10-01', '2026-10-31');
    expect(one.code, one.err).toBe(0);

    const two = await partitions('two/');
    const whole = await partitions('one/');
    expect([...two.keys()].sort()).toEqual([...whole.keys()].sort());
    for (const [folder, content] of whole) expect(two.get(folder), folder).toEqual(content);
    const states = await Promise.all(
      ['two/', 'one/'].map(async (p) => {
        const key = (await list(`${p}_state/`))[0]!;
        const client = s3.client();
        const got = await client.send(new GetObjectCommand({ Bucket: 'lake', Key: key }));
        client.destroy();
        return JSON.parse(await got.Body!.transformToString()).days;
      }),
    );
    expect(states[0]).toEqual([{ start: '2026-10-01', end: '2026-10-31' }]);
    expect(states[0]).toEqual(states[1]);
  }, 240_000);
});
