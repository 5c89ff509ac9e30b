/**
 * S3 on loopback for the tests: s3rver (an implementation of the S3 REST protocol) in a scratch
 * folder, behind a proxy that adds what s3rver lacks, conditional writes as the Amazon S3 User Guide
 * ("How to prevent object overwrites with conditional writes") and the PutObject reference document
 * them:
 *
 * - `PutObject` with `If-None-Match: *` writes only when no object has the key; otherwise 412
 *   `PreconditionFailed`.
 * - `PutObject` with `If-Match: <etag>` writes only when the object's ETag is that one; 412
 *   `PreconditionFailed` when it differs, 404 `NoSuchKey` when there is no object.
 * - A conditional write while another conditional write to the same key is in progress: 409
 *   `ConditionalRequestConflict` (the caller retries).
 *
 * Writes to one key are serialized (the check and the write of a conditional one are one step), so
 * the conditions hold however requests interleave. The proxy also records every request (and the
 * names of its headers) and can answer the next ones with S3's error responses (503 `SlowDown`,
 * 500 `InternalError`), and hold conditional writes for a while so a test can make two of them
 * race. s3rver refuses an unknown access key id (403 `InvalidAccessKeyId`); it does not verify
 * signatures, and it does not implement AbortMultipartUpload (405).
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, request, type ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HeadObjectCommand, S3Client } from '@aws-sdk/client-s3';

interface S3rverInstance {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
}
type S3rverClass = new (options: Record<string, unknown>) => S3rverInstance;
interface Account {
  createKeyPair(accessKeyId: string, secretAccessKey: string): void;
  revokeAccessKey(accessKeyId: string): void;
}

const require = createRequire(import.meta.url);
const S3rver = require('s3rver') as S3rverClass;
/** s3rver's one account: test key pairs are added to it. */
const { DUMMY_ACCOUNT } = require('s3rver/lib/models/account.js') as { DUMMY_ACCOUNT: Account };

/** An error response to give instead of forwarding a request. */
export interface S3Fault {
  /** Only requests whose `METHOD /path?query` matches (default: the next request). */
  match?: RegExp;
  status: number;
  /** S3's error code: SlowDown, InternalError, ... */
  code: string;
  retryAfter?: string;
  /** Forward the request first, then answer the fault: the write lands and its answer is lost. */
  afterForwarding?: boolean;
}

export interface StartS3Options {
  /** Buckets made at the start. */
  buckets: string[];
  /**
   * Honour `If-None-Match` and `If-Match` on writes (default true). False gives a store that
   * ignores them, as S3 did before 2024: every conditional write then succeeds.
   */
  conditionalWrites?: boolean;
}

export interface TestS3 {
  /** The proxy's endpoint (conditional writes, faults and the request log apply). */
  endpoint: string;
  /** s3rver's own endpoint, for reading back past the proxy. */
  directEndpoint: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** The environment the AWS SDK and orgreport read these from. */
  env: Record<string, string>;
  /** A client of the proxy (path-style), for tests that read or write objects themselves. */
  client(): S3Client;
  /** Requests that went through the proxy: `PUT /bucket/key`. */
  requests: string[];
  /** The names of the headers of each request, in the same order. */
  headerNames: string[][];
  /** Conditional writes refused (412, 404) or in conflict (409): `409 PUT /bucket/key`. */
  refusals: string[];
  /** Answers the next (matching) requests with these faults, in order. */
  fail(...faults: S3Fault[]): void;
  /** Holds each conditional write `ms` after its key is taken and before it is checked (0: none). */
  holdConditionalWrites(ms: number): void;
  close(): Promise<void>;
}

/** S3's error response: an XML `<Error>` with a code, a message and a request id. */
function sendError(
  res: ServerResponse,
  status: number,
  code: string,
  message: string,
  headers: Record<string, string> = {},
): void {
  const id = randomBytes(8).toString('hex').toUpperCase();
  const body =
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    `<Error><Code>${code}</Code><Message>${message}</Message><RequestId>${id}</RequestId><HostId>${id}</HostId></Error>`;
  res.writeHead(status, { 'content-type': 'application/xml', 'x-amz-request-id': id, ...headers }).end(body);
}

/** The bucket and key of a plain PutObject (not a part, not a copy), path-style; undefined otherwise. */
function putObjectOf(req: IncomingMessage): { bucket: string; key: string } | undefined {
  if (req.method !== 'PUT' || req.headers['x-amz-copy-source']) return undefined;
  const url = new URL(req.url ?? '/', 'http://s3');
  if (url.searchParams.has('uploadId') || url.searchParams.has('partNumber')) return undefined;
  const [, bucket, ...key] = url.pathname.split('/');
  if (!bucket || key.length === 0) return undefined;
  return { bucket: decodeURIComponent(bucket), key: key.map(decodeURIComponent).join('/') };
}

/** `bucket/key` of a GET or HEAD of an object, path-style; undefined otherwise. */
function readObjectOf(req: IncomingMessage): string | undefined {
  if (req.method !== 'GET' && req.method !== 'HEAD') return undefined;
  const url = new URL(req.url ?? '/', 'http://s3');
  const [, bucket, ...key] = url.pathname.split('/');
  if (!bucket || key.length === 0 || key.join('') === '') return undefined;
  return `${decodeURIComponent(bucket)}/${key.map(decodeURIComponent).join('/')}`;
}

const unquoted = (etag: string) => etag.trim().replace(/^W\//, '').replace(/^"|"$/g, '');

/** Starts s3rver with the buckets and the proxy, both on 127.0.0.1 (free ports). */
export async function startS3(options: StartS3Options): Promise<TestS3> {
  const conditional = options.conditionalWrites ?? true;
  const directory = await mkdtemp(join(tmpdir(), 'orgreport-s3rver-'));
  const accessKeyId = `TESTKEY${randomBytes(6).toString('hex').toUpperCase()}`;
  const secretAccessKey = `test-s3-secret-${randomBytes(12).toString('hex')}`;
  DUMMY_ACCOUNT.createKeyPair(accessKeyId, secretAccessKey);
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: options.buckets.map((name) => ({ name })),
  });
  const { port: s3Port } = await server.run();
  const region = 'us-east-1';
  const credentials = { accessKeyId, secretAccessKey };
  const direct = new S3Client({
    endpoint: `http://127.0.0.1:${s3Port}`,
    region,
    forcePathStyle: true,
    credentials,
  });

  const requests: string[] = [];
  const headerNames: string[][] = [];
  const refusals: string[] = [];
  const faults: S3Fault[] = [];
  let holdMs = 0;
  /** The last write of each key, in order: a write starts when the one before it has ended. */
  const writes = new Map<string, Promise<void>>();
  /** Keys with a conditional write in progress. */
  const conditionalInFlight = new Set<string>();

  /** Faults to answer once the request was forwarded, by request. */
  const lostAnswers = new WeakMap<IncomingMessage, S3Fault>();
  const forward = (req: IncomingMessage, res: ServerResponse): Promise<void> =>
    new Promise((resolve) => {
      const upstream = request(
        { host: '127.0.0.1', port: s3Port, method: req.method, path: req.url, headers: req.headers },
        (answer) => {
          const lost = lostAnswers.get(req);
          if (lost) {
            answer.resume();
            answer.on('end', () => {
              sendError(res, lost.status, lost.code, 'We encountered an internal error. Please try again.');
              resolve();
            });
            return;
          }
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
          answer.on('end', resolve);
          answer.on('error', () => resolve());
        },
      );
      upstream.on('error', () => {
        if (!res.headersSent) res.writeHead(502).end();
        resolve();
      });
      req.pipe(upstream);
    });

  /** The ETag of the object, or undefined when there is none. */
  const etagOf = async (bucket: string, key: string): Promise<string | undefined> => {
    try {
      return (await direct.send(new HeadObjectCommand({ Bucket: bucket, Key: key }))).ETag;
    } catch (error) {
      if ((error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404)
        return undefined;
      throw error;
    }
  };

  /** A conditional PutObject: taken, checked, and written or refused, in one step per key. */
  const conditionalPut = async (
    req: IncomingMessage,
    res: ServerResponse,
    target: { bucket: string; key: string },
    ifNoneMatch: string | undefined,
    ifMatch: string | undefined,
  ): Promise<void> => {
    const id = `${target.bucket}/${target.key}`;
    const refuse = (status: number, code: string, message: string) => {
      refusals.push(`${status} ${req.method} ${req.url}`);
      req.resume();
      sendError(res, status, code, message);
    };
    if (conditionalInFlight.has(id)) {
      refusals.push(`409 ${req.method} ${req.url}`);
      req.resume();
      sendError(
        res,
        409,
        'ConditionalRequestConflict',
        'A conflicting conditional operation is currently in progress against this resource. Please try again.',
      );
      return;
    }
    conditionalInFlight.add(id);
    try {
      if (holdMs > 0) await new Promise((resolve) => setTimeout(resolve, holdMs));
      const previous = writes.get(id) ?? Promise.resolve();
      let done!: () => void;
      const mine = new Promise<void>((resolve) => {
        done = resolve;
      });
      writes.set(id, mine);
      await previous;
      try {
        if (ifNoneMatch !== undefined && ifNoneMatch.trim() !== '*') {
          req.resume();
          sendError(res, 501, 'NotImplemented', 'If-None-Match on a write takes only the value *.');
          return;
        }
        const etag = await etagOf(target.bucket, target.key);
        const failed = 'At least one of the pre-conditions you specified did not hold';
        if (ifNoneMatch !== undefined && etag !== undefined) return refuse(412, 'PreconditionFailed', failed);
        if (ifMatch !== undefined && etag === undefined) {
          return refuse(404, 'NoSuchKey', 'The specified key does not exist.');
        }
        if (ifMatch !== undefined && etag !== undefined && unquoted(ifMatch) !== unquoted(etag)) {
          return refuse(412, 'PreconditionFailed', failed);
        }
        await forward(req, res);
      } finally {
        done();
        if (writes.get(id) === mine) writes.delete(id);
      }
    } finally {
      conditionalInFlight.delete(id);
    }
  };

  /** An unconditional PutObject: after the writes of its key under way. */
  const plainPut = async (req: IncomingMessage, res: ServerResponse, id: string): Promise<void> => {
    const previous = writes.get(id) ?? Promise.resolve();
    let done!: () => void;
    const mine = new Promise<void>((resolve) => {
      done = resolve;
    });
    writes.set(id, mine);
    await previous;
    try {
      await forward(req, res);
    } finally {
      done();
      if (writes.get(id) === mine) writes.delete(id);
    }
  };

  const proxy = createServer((req, res) => {
    const line = `${req.method} ${req.url}`;
    requests.push(line);
    headerNames.push(Object.keys(req.headers));
    const at = faults.findIndex((f) => f.match === undefined || f.match.test(line));
    const fault = at === -1 ? undefined : faults.splice(at, 1)[0];
    if (fault?.afterForwarding) lostAnswers.set(req, fault);
    else if (fault) {
      req.resume();
      sendError(
        res,
        fault.status,
        fault.code,
        'Please reduce your request rate.',
        fault.retryAfter === undefined ? {} : { 'retry-after': fault.retryAfter },
      );
      return;
    }
    // A read of an object waits for the writes of its key under way: S3 answers with the whole
    // object before or after a write, never a part (s3rver writes its files in place).
    const read = readObjectOf(req);
    if (read && writes.has(read)) {
      const pending = writes.get(read)!;
      pending.then(() => forward(req, res)).catch(() => {});
      return;
    }
    const target = putObjectOf(req);
    const ifNoneMatch = req.headers['if-none-match'] as string | undefined;
    const ifMatch = req.headers['if-match'] as string | undefined;
    const work = !target
      ? forward(req, res)
      : conditional && (ifNoneMatch !== undefined || ifMatch !== undefined)
        ? conditionalPut(req, res, target, ifNoneMatch, ifMatch)
        : plainPut(req, res, `${target.bucket}/${target.key}`);
    work.catch((error: Error) => {
      if (!res.headersSent) sendError(res, 500, 'InternalError', error.message.replace(/[<&>]/g, ''));
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const endpoint = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;

  return {
    endpoint,
    directEndpoint: `http://127.0.0.1:${s3Port}`,
    region,
    accessKeyId,
    secretAccessKey,
    env: {
      AWS_ACCESS_KEY_ID: accessKeyId,
      AWS_SECRET_ACCESS_KEY: secretAccessKey,
      AWS_REGION: region,
      ORGREPORT_S3_ENDPOINT: endpoint,
      ORGREPORT_S3_FORCE_PATH_STYLE: 'true',
    },
    client: () => new S3Client({ endpoint, region, forcePathStyle: true, credentials }),
    requests,
    headerNames,
    refusals,
    fail: (...more) => faults.push(...more),
    holdConditionalWrites: (ms) => {
      holdMs = ms;
    },
    async close() {
      proxy.closeAllConnections();
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
      direct.destroy();
      await server.close();
      DUMMY_ACCOUNT.revokeAccessKey(accessKeyId);
      await rm(directory, { recursive: true, force: true });
    },
  };
}
