/**
 * The test S3 keeps conditional writes as the Amazon S3 User Guide and the PutObject reference
 * describe them, checked with the AWS SDK (never our own client): If-None-Match: * creates only
 * when absent (412 otherwise), If-Match replaces only the ETag read (412 when it changed, 404
 * NoSuchKey when the object is gone), two conditional writes racing for one key leave one written
 * and the other 409 ConditionalRequestConflict; unconditional writes still overwrite.
 */
import { GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3, type TestS3 } from './s3.ts';

let s3: TestS3;
let client: S3Client;
beforeAll(async () => {
  s3 = await startS3({ buckets: ['b'] });
  client = s3.client();
});
afterAll(async () => {
  client?.destroy();
  await s3?.close();
});

/** The status and S3 error code a request ended with (200 and no code when it succeeded). */
async function outcome(send: () => Promise<unknown>): Promise<{ status: number; code?: string }> {
  try {
    await send();
    return { status: 200 };
  } catch (error) {
    const e = error as { name?: string; Code?: string; $metadata?: { httpStatusCode?: number } };
    return { status: e.$metadata?.httpStatusCode ?? 0, code: e.Code ?? e.name };
  }
}

const put = (Key: string, Body: string, conditions: { IfNoneMatch?: string; IfMatch?: string } = {}) =>
  client.send(new PutObjectCommand({ Bucket: 'b', Key, Body, ...conditions }));

const read = async (Key: string) =>
  (await client.send(new GetObjectCommand({ Bucket: 'b', Key }))).Body!.transformToString();

describe('the test S3: conditional writes as AWS documents them', () => {
  it('If-None-Match: * creates an object that is absent, and answers 412 PreconditionFailed when it exists', async () => {
    expect(await outcome(() => put('a/create', 'first', { IfNoneMatch: '*' }))).toEqual({ status: 200 });
    expect(await outcome(() => put('a/create', 'second', { IfNoneMatch: '*' }))).toEqual({
      status: 412,
      code: 'PreconditionFailed',
    });
    expect(await read('a/create')).toBe('first');
  });

  it('If-Match replaces the object whose ETag was read; 412 when it changed since, 404 NoSuchKey when there is none', async () => {
    const first = await put('a/swap', 'v1');
    const second = await put('a/swap', 'v2', { IfMatch: first.ETag! });
    expect(second.ETag).not.toBe(first.ETag);
    // A writer that still holds v1's ETag is refused: it would lose v2.
    expect(await outcome(() => put('a/swap', 'v3', { IfMatch: first.ETag! }))).toEqual({
      status: 412,
      code: 'PreconditionFailed',
    });
    expect(await read('a/swap')).toBe('v2');
    expect(await outcome(() => put('a/none', 'v1', { IfMatch: first.ETag! }))).toEqual({
      status: 404,
      code: 'NoSuchKey',
    });
  });

  it('two conditional writes racing for one key: one is written, the other gets 409 ConditionalRequestConflict', async () => {
    s3.holdConditionalWrites(200);
    try {
      const results = await Promise.all([
        outcome(() => put('a/race', 'one', { IfNoneMatch: '*' })),
        outcome(() => put('a/race', 'two', { IfNoneMatch: '*' })),
      ]);
      expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
      expect(results.find((r) => r.status === 409)?.code).toBe('ConditionalRequestConflict');
      const winner = results[0]!.status === 200 ? 'one' : 'two';
      expect(await read('a/race')).toBe(winner);
    } finally {
      s3.holdConditionalWrites(0);
    }
  });

  it('many creates of one key, retried after 409: exactly one succeeds, every other one ends 412', async () => {
    s3.holdConditionalWrites(20);
    try {
      const create = async (n: number) => {
        for (;;) {
          const r = await outcome(() => put('a/many', `writer ${n}`, { IfNoneMatch: '*' }));
          if (r.status !== 409) return r.status;
        }
      };
      const statuses = await Promise.all(Array.from({ length: 8 }, (_, n) => create(n)));
      expect(statuses.filter((s) => s === 200)).toHaveLength(1);
      expect(statuses.filter((s) => s === 412)).toHaveLength(7);
    } finally {
      s3.holdConditionalWrites(0);
    }
  });

  it('an unconditional write overwrites, and a fault is answered as S3 answers it', async () => {
    await put('a/plain', 'v1');
    await put('a/plain', 'v2');
    expect(await read('a/plain')).toBe('v2');
    s3.fail({ match: /^PUT \/b\/a\/plain/, status: 503, code: 'SlowDown' });
    const slow = client.send(new PutObjectCommand({ Bucket: 'b', Key: 'a/plain', Body: 'v3' }));
    // The SDK retries 503 SlowDown by itself (3 attempts by default): the write lands.
    await slow;
    expect(await read('a/plain')).toBe('v3');
    expect(s3.requests.filter((r) => r.startsWith('PUT /b/a/plain')).length).toBe(4);
  });

  it("records each request's header names; s3rver's own endpoint reads past the proxy, unrecorded", async () => {
    const from = s3.requests.length;
    await put('a/headers', 'h', { IfNoneMatch: '*' });
    expect(s3.requests.slice(from)).toEqual(['PUT /b/a/headers?x-id=PutObject']);
    expect(s3.headerNames.length).toBe(s3.requests.length);
    expect(s3.headerNames.at(-1)).toEqual(expect.arrayContaining(['if-none-match', 'authorization']));
    const direct = new S3Client({
      endpoint: s3.directEndpoint,
      region: s3.region,
      forcePathStyle: true,
      credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
    });
    try {
      const got = await direct.send(new GetObjectCommand({ Bucket: 'b', Key: 'a/headers' }));
      expect(await got.Body!.transformToString()).toBe('h');
    } finally {
      direct.destroy();
    }
    expect(s3.requests.length).toBe(from + 1);
  });

  it('a fault after forwarding: the write lands, its answer is an error', async () => {
    s3.fail({ match: /^PUT \/b\/a\/lost/, status: 500, code: 'InternalError', afterForwarding: true });
    const lost = await outcome(() =>
      client.send(new PutObjectCommand({ Bucket: 'b', Key: 'a/lost', Body: 'landed', IfNoneMatch: '*' })),
    );
    // The SDK retried the create: the object was there, so the retry was refused.
    expect(lost).toEqual({ status: 412, code: 'PreconditionFailed' });
    expect(await read('a/lost')).toBe('landed');
  });

  it('a store without conditional writes ignores the headers: both creates succeed', async () => {
    const old = await startS3({ buckets: ['b'], conditionalWrites: false });
    const c = old.client();
    try {
      await c.send(new PutObjectCommand({ Bucket: 'b', Key: 'k', Body: '1', IfNoneMatch: '*' }));
      await c.send(new PutObjectCommand({ Bucket: 'b', Key: 'k', Body: '2', IfNoneMatch: '*' }));
      const body = await (
        await c.send(new GetObjectCommand({ Bucket: 'b', Key: 'k' }))
      ).Body!.transformToString();
      expect(body).toBe('2');
    } finally {
      c.destroy();
      await old.close();
    }
  });
});
