/**
 * A store in object storage (S3 with conditional writes on loopback): a sync writes the Hive layout
 * of a folder, each partition one object named by its content and listed with its sha256 in the
 * organization's state; a period read back from the bucket is the one read from a folder synced the
 * same way, and its partitions, read by an independent reader (hyparquet), hold the folder's rows; a
 * read fetches only the partitions it needs; a damaged or missing object is named with the sync that
 * remakes it, and that sync does; a bucket that does not exist is named.
 */

import { readFile } from 'node:fs/promises';
import { GetObjectCommand, ListObjectsV2Command, PutObjectCommand } from '@aws-sdk/client-s3';
import { comparisonPeriod, monthPeriod } from '@orgreport/api-core';
import type { RunningEmulator } from '@orgreport/emulator';
import { startS3, type TestS3 } from '@orgreport/test-servers/s3';
import { parquetReadObjects } from 'hyparquet';
import { compressors } from 'hyparquet-compressors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  configureObjectStorage,
  DamagedStoreError,
  listOrganizations,
  readHistory,
  readPeriod,
  StoreError,
  StoreQuery,
  syncStore,
} from './index.ts';
import { emulated, now, tempStore } from './testing/emulated.ts';
import { partitionFiles } from './testing/files.ts';

let s3: TestS3;
let emulator: RunningEmulator;
let sync: (root: string, options?: Partial<Parameters<typeof syncStore>[1]>) => ReturnType<typeof syncStore>;
beforeAll(async () => {
  s3 = await startS3({ buckets: ['lake'] });
  configureObjectStorage(s3.env);
  const e = await emulated();
  emulator = e.emulator;
  sync = (root, options = {}) =>
    syncStore(root, { client: e.client, now: e.now, toolVersion: 'test', since: '2026-09-01', ...options });
});
afterAll(async () => {
  await emulator?.close();
  await s3?.close();
});

const period = monthPeriod('2026-10', { now });
const comparison = comparisonPeriod(period);

async function objects(prefix: string): Promise<Array<{ key: string; size: number }>> {
  const client = s3.client();
  try {
    const listed = await client.send(new ListObjectsV2Command({ Bucket: 'lake', Prefix: prefix }));
    return (listed.Contents ?? []).map((o) => ({ key: o.Key!, size: o.Size ?? 0 }));
  } finally {
    client.destroy();
  }
}

async function object(key: string): Promise<Buffer> {
  const client = s3.client();
  try {
    const got = await client.send(new GetObjectCommand({ Bucket: 'lake', Key: key }));
    return Buffer.from(await got.Body!.transformToByteArray());
  } finally {
    client.destroy();
  }
}

/**
 * A value with its secrets' fingerprints made alike: each store salts them with a salt of its own,
 * so the same secret reads differently in two stores (and alike within one).
 */
const unsalted = (value: unknown) =>
  JSON.parse(
    JSON.stringify(value, (_k, v) => (typeof v === 'bigint' ? `${v}n` : v)).replace(
      /\[redacted:[0-9a-f]+\]/g,
      '[redacted]',
    ),
  );

const rowsOf = async (bytes: Buffer) => {
  const file = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  return unsalted(await parquetReadObjects({ file, compressors }));
};

describe('a store in object storage', () => {
  it('holds the layout and rows of a folder synced the same way, and reads the same period back', async () => {
    const folder = tempStore();
    const bucket = 's3://lake/store-a/';
    const local = await sync(folder, { until: '2026-10-31' });
    const remote = await sync(bucket, { until: '2026-10-31' });
    expect(remote.spans).toEqual(local.spans);

    // Each partition of the folder is one object in the same folder of the bucket, with its rows.
    const listed = await objects('store-a/');
    const parts = listed.filter((o) => !o.key.split('/')[1]!.startsWith('_'));
    const folderParts = await partitionFiles(folder);
    expect(parts).toHaveLength(folderParts.length);
    for (const p of folderParts) {
      const dir = `store-a/${p.dataset}/org_id=${p.orgId}/month=${p.month}/`;
      const inBucket = parts.filter((o) => o.key.startsWith(dir));
      expect(
        inBucket.map((o) => o.key),
        dir,
      ).toEqual([expect.stringMatching(/\/part-[0-9a-f]{16}\.parquet$/)]);
      expect(await rowsOf(await object(inBucket[0]!.key))).toEqual(await rowsOf(await readFile(p.path)));
    }
    // The state lists each partition's object and checksum.
    const state = JSON.parse((await object(`store-a/_state/org_id=${remote.orgId}.json`)).toString());
    expect(Object.keys(state.files)).toHaveLength(folderParts.length);
    expect(state.days).toEqual([{ start: '2026-09-01', end: '2026-10-31' }]);

    const fromFolder = await readPeriod(folder, local.orgId, period, comparison);
    const fromBucket = await readPeriod(bucket, remote.orgId, period, comparison);
    expect(unsalted(fromBucket)).toEqual(unsalted(fromFolder));
    expect(await readHistory(bucket, remote.orgId, { until: '2026-10' })).toEqual(
      await readHistory(folder, local.orgId, { until: '2026-10' }),
    );
    expect((await listOrganizations(bucket)).map((o) => o.orgId)).toEqual([remote.orgId]);
    const query = await StoreQuery.open(bucket);
    try {
      const sql = 'SELECT month, count(*) AS n FROM user_days GROUP BY month ORDER BY month';
      const folderQuery = await StoreQuery.open(folder);
      try {
        expect((await query.run(sql)).rows).toEqual((await folderQuery.run(sql)).rows);
      } finally {
        folderQuery.close();
      }
    } finally {
      query.close();
    }
  }, 120_000);

  it('fetches only the partitions a period needs', async () => {
    const bucket = 's3://lake/store-b/';
    await sync(bucket, { since: '2026-07-01', until: '2026-10-31' });
    // Read as another machine would, with a cache of its own (one per process and settings).
    configureObjectStorage({ ...s3.env, ORGREPORT_S3_REGION: 'us-east-1' });
    const before = s3.requests.length;
    try {
      const synced = await listOrganizations(bucket);
      await readPeriod(bucket, synced[0]!.orgId, monthPeriod('2026-08', { now }), null);
    } finally {
      configureObjectStorage(s3.env);
    }
    const fetched = s3.requests
      .slice(before)
      .filter((r) => r.startsWith('GET /lake/store-b/') && r.includes('.parquet'))
      .map((r) =>
        /store-b\/([a-z_]+)\/org_id=[^/]+\/month=(\d{4}-\d{2})/.exec(decodeURIComponent(r))!.slice(1, 3),
      );
    // The month's partitions of the dated datasets, and of the lists (readiness, controls: every
    // month held; users: the last) — no other month of a dated dataset.
    const lists = /^(readiness_|control_revisions|org_users)/;
    const dated = fetched.filter(([dataset]) => !lists.test(dataset!));
    expect(dated.length).toBeGreaterThan(10);
    expect(dated.filter(([, month]) => month !== '2026-08')).toEqual([]);
    expect(fetched.filter(([dataset]) => dataset === 'org_users').map(([, m]) => m)).toEqual(['2026-11']);
    expect(s3.requests.slice(before).filter((r) => r.includes('list-type'))).toHaveLength(1); // _state/
  }, 120_000);

  it('names a damaged or missing object with the sync that remakes it, which does', async () => {
    const bucket = 's3://lake/store-c/';
    const { orgId } = await sync(bucket, { until: '2026-10-31' });
    const key = (await objects('store-c/user_days/')).find((o) => o.key.includes('month=2026-10'))!.key;
    const client = s3.client();
    await client.send(new PutObjectCommand({ Bucket: 'lake', Key: key, Body: 'not parquet' }));
    client.destroy();
    // Another machine, whose cache has no good copy of it.
    configureObjectStorage({ ...s3.env, ORGREPORT_S3_REGION: 'us-east-1' });
    const error = await readPeriod(bucket, orgId, period, comparison)
      .catch((e: unknown) => e)
      .finally(() => configureObjectStorage(s3.env));
    expect(error).toBeInstanceOf(DamagedStoreError);
    expect((error as Error).message).toBe(
      `the store ${bucket} is damaged: ${key.slice('store-c/'.length)} is damaged (its sha256 is not the ${(error as DamagedStoreError).problem.match(/the (\w+)\.\.\./)![1]}... the state names); fetch that month again: orgreport sync --store ${bucket} --refetch 2026-10`,
    );
    await sync(bucket, { until: '2026-10-31', refetch: ['2026-10'] });
    const mended = await readPeriod(bucket, orgId, period, comparison);
    expect(mended.userDays.user_id.length).toBeGreaterThan(0);
  }, 120_000);

  it('names a bucket that does not exist', async () => {
    const error = await sync('s3://no-such-lake/store/', { until: '2026-10-31' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreError);
    expect((error as Error).message).toMatch(
      /the bucket no-such-lake does not exist: create it, or correct the URL/,
    );
  });
});
