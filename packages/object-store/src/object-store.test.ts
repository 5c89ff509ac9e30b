/**
 * The object store against S3 on loopback (s3rver behind the conditional-writes proxy of
 * @orgreport/test-servers): creates only when absent, replaces only the version read, lists by
 * prefix, retries SlowDown and 409 conflicts without waiting in the test, and names what to fix
 * when the bucket is missing or the credentials are refused, never printing the secret key.
 */
import { freePort } from '@orgreport/test-servers/postgres';
import { startS3, type TestS3 } from '@orgreport/test-servers/s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isObjectUrl, ObjectStoreError, openObjectStore, parseObjectUrl } from './index.ts';

let s3: TestS3;
beforeAll(async () => {
  s3 = await startS3({ buckets: ['acme'] });
});
afterAll(() => s3?.close());

const sleeps: number[] = [];
const open = (url = 's3://acme/store/', settings: Record<string, string> = s3.env) =>
  openObjectStore(url, { settings, sleep: async (ms) => void sleeps.push(ms), random: () => 0 });

async function failure(work: () => Promise<unknown>): Promise<ObjectStoreError> {
  try {
    await work();
  } catch (error) {
    expect(error).toBeInstanceOf(ObjectStoreError);
    return error as ObjectStoreError;
  }
  throw new Error('expected a failure');
}

describe('object locations', () => {
  it('reads s3://bucket/prefix/ and refuses what is not one', () => {
    expect(parseObjectUrl('s3://acme-reports/orgreport')).toEqual({
      bucket: 'acme-reports',
      prefix: 'orgreport/',
      url: 's3://acme-reports/orgreport/',
    });
    expect(parseObjectUrl('s3://acme/')).toEqual({ bucket: 'acme', prefix: '', url: 's3://acme/' });
    expect(isObjectUrl('s3://acme/')).toBe(true);
    expect(isObjectUrl('./store')).toBe(false);
    expect(() => parseObjectUrl('s3://Acme_Bad/x')).toThrow(/write s3:\/\/BUCKET\/PREFIX\//);
    expect(() => parseObjectUrl('s3://acme/a//b/')).toThrow(/empty, \. or \.\. segment/);
  });
});

describe('the object store on S3', () => {
  it('creates only when absent and replaces only the version it read', async () => {
    const store = open();
    try {
      const created = await store.put('k/one.json', '{"n":1}', { ifAbsent: true });
      expect(created.written).toBe(true);
      expect(await store.put('k/one.json', '{"n":2}', { ifAbsent: true })).toEqual({
        written: false,
        reason: 'exists',
      });
      const read = await store.get('k/one.json');
      expect(read?.body.toString()).toBe('{"n":1}');
      const swapped = await store.put('k/one.json', '{"n":3}', { ifMatch: read!.etag });
      expect(swapped.written).toBe(true);
      // The first ETag is stale now: a second writer holding it is refused.
      expect(await store.put('k/one.json', '{"n":4}', { ifMatch: read!.etag })).toEqual({
        written: false,
        reason: 'changed',
      });
      expect(await store.put('k/gone.json', '{}', { ifMatch: read!.etag })).toEqual({
        written: false,
        reason: 'absent',
      });
      expect((await store.get('k/one.json'))?.body.toString()).toBe('{"n":3}');
      expect(await store.get('k/missing.json')).toBeUndefined();
    } finally {
      store.close();
    }
  });

  it('lists by prefix under its own prefix, and removes', async () => {
    const store = open('s3://acme/listing/');
    try {
      for (const key of ['a/1', 'a/2', 'b/1']) await store.put(key, key);
      expect((await store.list('a/')).map((o) => o.key)).toEqual(['a/1', 'a/2']);
      expect((await store.list()).map((o) => [o.key, o.size])).toEqual([
        ['a/1', 3],
        ['a/2', 3],
        ['b/1', 3],
      ]);
      await store.delete('a/1');
      expect((await store.list('a/')).map((o) => o.key)).toEqual(['a/2']);
    } finally {
      store.close();
    }
  });

  it('retries 503 SlowDown and 409 ConditionalRequestConflict with backoff, then writes once', async () => {
    const store = open();
    sleeps.length = 0;
    try {
      s3.fail(
        { match: /^PUT \/acme\/store\/retry\.json/, status: 503, code: 'SlowDown' },
        { match: /^PUT \/acme\/store\/retry\.json/, status: 409, code: 'ConditionalRequestConflict' },
        { match: /^PUT \/acme\/store\/retry\.json/, status: 503, code: 'SlowDown' },
      );
      const before = s3.requests.length;
      expect((await store.put('retry.json', 'x', { ifAbsent: true })).written).toBe(true);
      expect(s3.requests.slice(before).filter((r) => r.startsWith('PUT'))).toHaveLength(4);
      expect(sleeps).toEqual([100, 200, 400]);
      expect(store.counts).toMatchObject({ put: 4, retried: 3 });
    } finally {
      store.close();
    }
  });

  it('gives up after its attempts, saying what S3 kept answering', async () => {
    const store = openObjectStore('s3://acme/store/', {
      settings: s3.env,
      attempts: 2,
      sleep: async () => {},
    });
    try {
      s3.fail(
        { match: /^GET \/acme\/store\/slow/, status: 503, code: 'SlowDown' },
        { match: /^GET \/acme\/store\/slow/, status: 503, code: 'SlowDown' },
      );
      const error = await failure(() => store.get('slow.json'));
      expect(error.kind).toBe('failure');
      expect(error.message).toMatch(
        /^read s3:\/\/acme\/store\/slow\.json failed after 2 attempts \(SlowDown 503/,
      );
    } finally {
      store.close();
    }
  });

  it('names a missing bucket and refused credentials as input to fix, without the secret key', async () => {
    const missing = open('s3://no-such-bucket/x/');
    const error = await failure(() => missing.check());
    missing.close();
    expect(error.kind).toBe('input');
    expect(error.message).toMatch(/the bucket no-such-bucket does not exist: create it, or correct the URL/);

    const secret = 'a-wrong-secret-value-123';
    const refused = open('s3://acme/store/', {
      ...s3.env,
      AWS_ACCESS_KEY_ID: 'UNKNOWNKEY',
      AWS_SECRET_ACCESS_KEY: secret,
    });
    const denied = await failure(() => refused.check());
    refused.close();
    expect(denied.kind).toBe('input');
    expect(denied.message).toMatch(/S3 does not know the access key: check AWS_ACCESS_KEY_ID/);
    expect(denied.message).not.toContain(secret);
  });

  it('says the endpoint cannot be reached, after retrying', async () => {
    const port = await freePort();
    const store = openObjectStore('s3://acme/store/', {
      settings: { ...s3.env, ORGREPORT_S3_ENDPOINT: `http://127.0.0.1:${port}` },
      attempts: 3,
      sleep: async () => {},
    });
    const error = await failure(() => store.check());
    store.close();
    expect(error.kind).toBe('failure');
    expect(error.message).toMatch(
      /could not reach http:\/\/127\.0\.0\.1:\d+ after 3 attempts \(ECONNREFUSED\): check ORGREPORT_S3_ENDPOINT/,
    );
  });
});
