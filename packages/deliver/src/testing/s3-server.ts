/**
 * An S3 server on loopback for the tests: s3rver (an implementation of the S3 REST protocol,
 * multipart uploads included) in a scratch folder, with a key pair of test credentials (it refuses
 * an unknown access key id; it does not verify V4 signatures, so a wrong secret key goes unnoticed,
 * and it does not implement AbortMultipartUpload, answering 405), behind a small HTTP proxy that records each request and can answer the next ones
 * with S3's own throttling and error responses (503 SlowDown, 500 InternalError, 429) as S3 sends
 * them: an XML `<Error>` body with a Code, a Message and a RequestId. The objects are read back by
 * a separate S3Client talking to s3rver directly.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, request } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

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
/** s3rver's one account: test key pairs are added to it (its default pair is S3RVER/S3RVER). */
const { DUMMY_ACCOUNT } = require('s3rver/lib/models/account.js') as { DUMMY_ACCOUNT: Account };

export interface S3Fault {
  /** Only requests whose `METHOD /path?query` matches (default: the next request). */
  match?: RegExp;
  status: number;
  /** S3's error code: SlowDown, InternalError, ... */
  code: string;
  retryAfter?: string;
}

export interface TestS3 {
  /** The proxy's endpoint, for ORGREPORT_S3_ENDPOINT (faults and the request log apply). */
  endpoint: string;
  /** s3rver's own endpoint, for reading back. */
  directEndpoint: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Requests that went through the proxy: `PUT /bucket/key?uploadId=...`. */
  requests: string[];
  /** The names of the headers of each request, in the same order. */
  headerNames: string[][];
  /** Answers the next (matching) requests through the proxy with these faults, in order. */
  fail(...faults: S3Fault[]): void;
  close(): Promise<void>;
}

/** Starts s3rver with the given buckets and the proxy, both on 127.0.0.1 (any free port). */
export async function startS3(buckets: string[]): Promise<TestS3> {
  const directory = await mkdtemp(join(tmpdir(), 'orgreport-s3rver-'));
  const accessKeyId = `TESTKEY${randomBytes(6).toString('hex').toUpperCase()}`;
  const secretAccessKey = `test-s3-secret-${randomBytes(12).toString('hex')}`;
  DUMMY_ACCOUNT.createKeyPair(accessKeyId, secretAccessKey);
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: buckets.map((name) => ({ name })),
  });
  const { port: s3Port } = await server.run();

  const requests: string[] = [];
  const headerNames: string[][] = [];
  const faults: S3Fault[] = [];
  const proxy = createServer((req, res) => {
    const line = `${req.method} ${req.url}`;
    requests.push(line);
    headerNames.push(Object.keys(req.headers));
    const at = faults.findIndex((f) => f.match === undefined || f.match.test(line));
    const fault = at === -1 ? undefined : faults.splice(at, 1)[0];
    if (fault) {
      req.resume();
      const id = randomBytes(8).toString('hex').toUpperCase();
      const body =
        '<?xml version="1.0" encoding="UTF-8"?>\n' +
        `<Error><Code>${fault.code}</Code><Message>Please reduce your request rate.</Message>` +
        `<RequestId>${id}</RequestId><HostId>${id}</HostId></Error>`;
      const headers: Record<string, string> = { 'content-type': 'application/xml', 'x-amz-request-id': id };
      if (fault.retryAfter !== undefined) headers['retry-after'] = fault.retryAfter;
      res.writeHead(fault.status, headers).end(body);
      return;
    }
    const upstream = request(
      { host: '127.0.0.1', port: s3Port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const proxyPort = (proxy.address() as AddressInfo).port;

  return {
    endpoint: `http://127.0.0.1:${proxyPort}`,
    directEndpoint: `http://127.0.0.1:${s3Port}`,
    accessKeyId,
    secretAccessKey,
    requests,
    headerNames,
    fail: (...more) => faults.push(...more),
    async close() {
      proxy.closeAllConnections();
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
      await server.close();
      DUMMY_ACCOUNT.revokeAccessKey(accessKeyId);
      await rm(directory, { recursive: true, force: true });
    },
  };
}
