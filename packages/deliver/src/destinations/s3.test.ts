import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { startS3, type TestS3 } from '@orgreport/test-servers/s3';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DestinationError, PermanentDeliveryError, RetryableDeliveryError } from '../destination.ts';
import {
  failureOf,
  leakedSecrets,
  reportMessage,
  sendContext,
  sendTo,
  sendWithRetries,
  type TestFiles,
  testFiles,
} from '../testing/destination-fixtures.ts';
import { S3_PART_BYTES, s3 } from './s3.ts';

let files: TestFiles;
let server: TestS3;
const outputs: unknown[] = [];
const secrets: string[] = [];

beforeAll(async () => {
  files = await testFiles();
});
afterAll(async () => {
  await files.remove();
  expect(leakedSecrets(outputs, secrets)).toEqual([]);
});
beforeEach(async () => {
  server = await startS3({ buckets: ['reports'] });
  secrets.push(server.secretAccessKey);
});
afterEach(() => server.close());

const settings = (overrides: Record<string, string | undefined> = {}) => ({
  ORGREPORT_S3_ENDPOINT: server.endpoint,
  ORGREPORT_S3_FORCE_PATH_STYLE: 'true',
  AWS_ACCESS_KEY_ID: server.accessKeyId,
  AWS_SECRET_ACCESS_KEY: server.secretAccessKey,
  ...overrides,
});

async function deliver(target: string, message = reportMessage([]), context = sendContext(settings())) {
  try {
    const receipt = await sendTo(s3, target, message, context);
    outputs.push(...context.lines);
    return receipt;
  } catch (error) {
    outputs.push(error, ...context.lines);
    throw error;
  }
}

const smallPdf = () =>
  files.write('orgreport-acme-2026-10.pdf', 'application/pdf', Buffer.from('%PDF-1.7\n%test\n'));

/** Reads the bucket back through another client, straight from s3rver. */
async function readBack(prefix = '') {
  const reader = new S3Client({
    endpoint: server.directEndpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: server.accessKeyId, secretAccessKey: server.secretAccessKey },
  });
  try {
    const listed = await reader.send(new ListObjectsV2Command({ Bucket: 'reports', Prefix: prefix }));
    const objects: Record<
      string,
      { sha256: string; contentType?: string; metaSha256?: string; bytes: number }
    > = {};
    for (const { Key } of listed.Contents ?? []) {
      const got = await reader.send(new GetObjectCommand({ Bucket: 'reports', Key }));
      const bytes = Buffer.from(
        await (got.Body as { transformToByteArray(): Promise<Uint8Array> }).transformToByteArray(),
      );
      objects[Key as string] = {
        sha256: createHash('sha256').update(bytes).digest('hex'),
        contentType: got.ContentType,
        metaSha256: got.Metadata?.['sha256'],
        bytes: bytes.length,
      };
    }
    return objects;
  } finally {
    reader.destroy();
  }
}

describe('s3 targets', () => {
  it('reads a bucket and a prefix, which always ends in /', () => {
    expect(s3.parse('s3://reports/orgreport/')).toEqual({ bucket: 'reports', prefix: 'orgreport/' });
    expect(s3.parse('s3://reports/a/b')).toEqual({ bucket: 'reports', prefix: 'a/b/' });
    expect(s3.parse('s3://reports')).toEqual({ bucket: 'reports', prefix: '' });
    expect(s3.label(s3.parse('s3://reports/orgreport'))).toBe('s3://reports/orgreport/');
    expect(s3.stores).toBe(true);
    for (const bad of [
      's3://Reports/',
      's3://r/',
      's3://reports/a//b/',
      's3://reports/../x/',
      's3:/reports/',
    ]) {
      expect(() => s3.parse(bad)).toThrow(DestinationError);
    }
  });
});

describe('s3 delivery against s3rver', () => {
  it('stores each document at <prefix><month>/<filename>, a large one in parts, read back intact', async () => {
    const pdf = await smallPdf();
    const workbook = await files.write(
      'orgreport-acme-2026-10.xlsx',
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      randomBytes(S3_PART_BYTES + 1024 * 1024),
    );
    const context = sendContext(settings());
    const receipt = await deliver('s3://reports/orgreport/', reportMessage([pdf, workbook]), context);

    expect(receipt).toEqual({
      id: 'orgreport/2026-10/orgreport-acme-2026-10.pdf,orgreport/2026-10/orgreport-acme-2026-10.xlsx',
      location: 's3://reports/orgreport/2026-10/',
    });
    expect(await readBack()).toEqual({
      'orgreport/2026-10/orgreport-acme-2026-10.pdf': {
        sha256: pdf.sha256,
        contentType: 'application/pdf',
        metaSha256: pdf.sha256,
        bytes: pdf.bytes,
      },
      'orgreport/2026-10/orgreport-acme-2026-10.xlsx': {
        sha256: workbook.sha256,
        contentType: workbook.contentType,
        metaSha256: workbook.sha256,
        bytes: workbook.bytes,
      },
    });
    // The small file in one PUT; the large one as a multipart upload of two parts.
    const kinds = server.requests.map((r) =>
      r
        .replace(/uploadId=[^&]+/, 'uploadId=ID')
        .replace(/[?&]x-id=[^&]+/, '')
        .replace(/^(\w+) \/reports\/orgreport\/2026-10\/orgreport-acme-2026-10/, '$1 '),
    );
    expect(kinds.sort()).toEqual(
      [
        'PUT .pdf',
        'POST .xlsx?uploads=',
        'PUT .xlsx?partNumber=1&uploadId=ID',
        'PUT .xlsx?partNumber=2&uploadId=ID',
        'POST .xlsx?uploadId=ID',
      ].sort(),
    );
    // No checksum headers (S3-compatible stores that predate S3's default CRC32 refuse them).
    expect(server.headerNames.flat().filter((name) => /checksum/.test(name))).toEqual([]);
    expect(context.lines).toEqual([
      `s3://reports/orgreport/: stored orgreport/2026-10/orgreport-acme-2026-10.pdf (${pdf.bytes} bytes)`,
      `s3://reports/orgreport/: stored orgreport/2026-10/orgreport-acme-2026-10.xlsx (${workbook.bytes} bytes)`,
    ]);
  });

  it('retries 503 SlowDown and 429 (with its Retry-After), then stores the document once', async () => {
    const pdf = await smallPdf();
    server.fail({ status: 503, code: 'SlowDown' }, { status: 429, code: 'TooManyRequests', retryAfter: '2' });
    const { receipt, errors } = await sendWithRetries(() => deliver('s3://reports/', reportMessage([pdf])));
    expect(errors.map((e) => [e.constructor, e.retryAfterMs])).toEqual([
      [RetryableDeliveryError, undefined],
      [RetryableDeliveryError, 2000],
    ]);
    expect(errors[0]?.message).toMatch(
      /^S3 asked to try again later \(SlowDown, HTTP 503, request [0-9A-F]+\)$/,
    );
    expect(errors[0]?.destination).toBe('s3://reports/');
    expect(receipt.id).toBe('2026-10/orgreport-acme-2026-10.pdf');
    expect(Object.keys(await readBack())).toEqual(['2026-10/orgreport-acme-2026-10.pdf']);
  });

  it('aborts a multipart upload whose part failed, and the retry stores the whole file', async () => {
    const big = await files.write(
      'orgreport-acme-2026-10.json',
      'application/json',
      randomBytes(S3_PART_BYTES + 4096),
    );
    server.fail({ match: /partNumber=2/, status: 500, code: 'InternalError' });
    const context = sendContext(settings());
    const { errors } = await sendWithRetries(() => deliver('s3://reports/', reportMessage([big]), context));
    expect(errors).toHaveLength(1);
    expect(errors[0]?.message).toMatch(/^S3 asked to try again later \(InternalError, HTTP 500/);
    // The abort was sent; s3rver does not implement it (405), which is logged, not raised.
    expect(server.requests.filter((r) => /^DELETE .*uploadId=/.test(r))).toHaveLength(1);
    expect(context.lines[0]).toBe(
      's3://reports/: the failed multipart upload of 2026-10/orgreport-acme-2026-10.json could not be aborted (MethodNotAllowed); a lifecycle rule (AbortIncompleteMultipartUpload) removes its parts',
    );
    expect(await readBack()).toEqual({
      '2026-10/orgreport-acme-2026-10.json': {
        sha256: big.sha256,
        contentType: 'application/json',
        metaSha256: big.sha256,
        bytes: big.bytes,
      },
    });
  });

  it('refuses a missing bucket permanently, naming it', async () => {
    const error = await failureOf(async () => deliver('s3://nowhere/x/', reportMessage([await smallPdf()])));
    expect(error).toBeInstanceOf(PermanentDeliveryError);
    expect((error as PermanentDeliveryError).destination).toBe('s3://nowhere/x/');
    expect(error.message).toMatch(/^the bucket nowhere does not exist \(NoSuchBucket, HTTP 404/);
  });

  it('refuses an unknown access key or a denied access permanently, saying what to check', async () => {
    const pdf = await smallPdf();
    const unknownKey = await failureOf(() =>
      deliver(
        's3://reports/',
        reportMessage([pdf]),
        sendContext(settings({ AWS_ACCESS_KEY_ID: 'TESTUNKNOWNKEY' })),
      ),
    );
    expect(unknownKey).toBeInstanceOf(PermanentDeliveryError);
    expect(unknownKey.message).toMatch(
      /^S3 does not know the access key: check AWS_ACCESS_KEY_ID \(InvalidAccessKeyId, HTTP 403/,
    );
    server.fail({ status: 403, code: 'AccessDenied' });
    const denied = await failureOf(() => deliver('s3://reports/orgreport/', reportMessage([pdf])));
    expect(denied).toBeInstanceOf(PermanentDeliveryError);
    expect(denied.message).toMatch(
      /^access denied to s3:\/\/reports\/orgreport\/: the credentials need s3:PutObject there \(AccessDenied, HTTP 403/,
    );
    expect(await readBack()).toEqual({});
  });

  it('refuses for good when no credentials are found anywhere, naming the variables to set', async () => {
    const pdf = await smallPdf();
    // No variable, no profile (an empty home), no instance role to ask.
    const saved = { ...process.env };
    for (const name of Object.keys(process.env)) if (name.startsWith('AWS_')) delete process.env[name];
    process.env.AWS_EC2_METADATA_DISABLED = 'true';
    const home = mkdtempSync(join(tmpdir(), 'no-aws-'));
    process.env.HOME = home;
    try {
      const none = { AWS_ACCESS_KEY_ID: undefined, AWS_SECRET_ACCESS_KEY: undefined };
      const error = await failureOf(() =>
        deliver('s3://reports/', reportMessage([pdf]), sendContext(settings(none))),
      );
      expect(error).toBeInstanceOf(PermanentDeliveryError);
      expect(error.message).toBe(
        'no S3 credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or give the machine an AWS profile or role',
      );
    } finally {
      process.env = saved;
      rmSync(home, { recursive: true, force: true });
    }
  });

  it('refuses before sending: half the credentials, or a message without a month', async () => {
    const pdf = await smallPdf();
    const half = await failureOf(() =>
      deliver(
        's3://reports/',
        reportMessage([pdf]),
        sendContext(settings({ AWS_SECRET_ACCESS_KEY: undefined })),
      ),
    );
    expect(half).toBeInstanceOf(PermanentDeliveryError);
    expect(half.message).toMatch(/set both AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or neither/);
    const noMonth = await failureOf(() =>
      deliver('s3://reports/', reportMessage([pdf], { meta: { scope: 'all' } })),
    );
    expect(noMonth).toBeInstanceOf(PermanentDeliveryError);
    expect(noMonth.message).toMatch(/no usable meta.month/);
    const slash = await failureOf(() =>
      deliver('s3://reports/', reportMessage([{ ...pdf, filename: '../x.pdf' }])),
    );
    expect(slash).toBeInstanceOf(PermanentDeliveryError);
    expect(slash.message).toBe('a document\'s name cannot be an object\'s name: "../x.pdf"');
    expect(server.requests).toEqual([]);
  });

  it('stores nothing for a message without documents, and refuses a document that cannot be read', async () => {
    expect(await deliver('s3://reports/', reportMessage([]))).toEqual({ id: 'no documents' });
    const pdf = await smallPdf();
    const missing = await failureOf(() =>
      deliver('s3://reports/', reportMessage([{ ...pdf, path: `${files.dir}/not-there.pdf` }])),
    );
    expect(missing).toBeInstanceOf(PermanentDeliveryError);
    expect(missing.message).toBe('a document could not be read (ENOENT)');
    expect(await readBack()).toEqual({});
  });

  it('counts an endpoint that cannot be reached as retryable', async () => {
    const pdf = await smallPdf();
    const endpoint = server.endpoint;
    await server.close();
    const error = await failureOf(() =>
      deliver(
        's3://reports/',
        reportMessage([pdf]),
        sendContext(settings({ ORGREPORT_S3_ENDPOINT: endpoint })),
      ),
    );
    expect(error).toBeInstanceOf(RetryableDeliveryError);
    expect(error.message).toBe('could not reach S3 (ECONNREFUSED)');
    server = await startS3({ buckets: ['reports'] });
  });
});
