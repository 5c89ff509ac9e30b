/**
 * Objects under one `s3://bucket/prefix/`, as the delivery ledger and the Parquet store keep them:
 * read, written (plainly, only when absent, or only over the version read: S3's conditional writes),
 * listed by prefix and removed. Throttling (503 SlowDown), server errors, dropped connections and
 * conflicting conditional writes (409) are retried here with backoff, one policy for every caller;
 * a configuration S3 refuses (no bucket, unknown key, denied) is an {@link ObjectStoreError} of kind
 * `input` that names the setting to fix, never a secret's value.
 *
 * A conditional write retried after a dropped answer may find its own first attempt already
 * written (412 on a create): callers that must know tell it by what they wrote (a claim's id).
 */
import {
  DeleteObjectCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { scrubText } from '@orgreport/api-core/redact';
import { ObjectStoreError } from './errors.ts';
import { type ObjectLocation, parseObjectUrl } from './location.ts';
import { S3_SECRET_SETTINGS, S3_SETTINGS } from './settings.ts';

export interface ObjectStoreOptions {
  /** The S3 settings by variable name ({@link S3_SETTINGS}); this package never reads the environment. */
  settings: Readonly<Record<string, string | undefined>>;
  /** Attempts of one request (default 8). */
  attempts?: number;
  /** The first retry's delay (default 100 ms), doubling up to `maxDelayMs` (default 5000 ms). */
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** Waits (injected so tests need not wait). */
  sleep?: (ms: number) => Promise<void>;
  /** A number in [0, 1), for the retries' jitter. */
  random?: () => number;
}

/** An object read: its bytes and its ETag (the version a compare-and-swap names). */
export interface StoredObject {
  body: Buffer;
  etag: string;
}

/** An object listed: its key (under the store's prefix), ETag and size. */
export interface ListedObject {
  key: string;
  etag: string;
  size: number;
}

/** When a write goes through: always, only if no object has the key, or only over the ETag read. */
export type WriteCondition = { ifAbsent: true } | { ifMatch: string };

/** A write's outcome: written (its ETag), or refused because the key exists, changed, or is gone. */
export type WriteResult =
  | { written: true; etag: string }
  | { written: false; reason: 'exists' | 'changed' | 'absent' };

/** Requests made, by kind (for the cost of a run). */
export interface RequestCounts {
  get: number;
  put: number;
  list: number;
  delete: number;
  /** Requests answered with a retryable error and sent again. */
  retried: number;
}

const RETRYABLE_CODES = new Set([
  'SlowDown',
  'ServiceUnavailable',
  'InternalError',
  'RequestTimeout',
  'TooManyRequests',
  'Throttling',
  'OperationAborted',
  'ConditionalRequestConflict',
]);
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EAI_AGAIN',
  'ENETUNREACH',
]);

interface SdkError {
  name?: string;
  Code?: string;
  code?: string;
  message?: string;
  $metadata?: { httpStatusCode?: number };
}

const statusOf = (error: unknown) => (error as SdkError)?.$metadata?.httpStatusCode;
const codeOf = (error: unknown) => (error as SdkError)?.Code ?? (error as SdkError)?.name ?? '';
const networkOf = (error: unknown) => {
  const e = error as SdkError & { cause?: SdkError };
  return [e?.code, e?.cause?.code].find((c) => c !== undefined && NETWORK_CODES.has(c));
};

/** Whether sending the request again may succeed. */
function retryable(error: unknown): boolean {
  const status = statusOf(error);
  if (RETRYABLE_CODES.has(codeOf(error))) return true;
  if (status === 409 && codeOf(error) === 'ConditionalRequestConflict') return true;
  if (status !== undefined) return status === 429 || status >= 500;
  return networkOf(error) !== undefined || codeOf(error) === 'TimeoutError';
}

/** Objects under one `s3://bucket/prefix/`. */
export class ObjectStore {
  readonly counts: RequestCounts = { get: 0, put: 0, list: 0, delete: 0, retried: 0 };
  readonly #client: S3Client;
  readonly #attempts: number;
  readonly #baseDelayMs: number;
  readonly #maxDelayMs: number;
  readonly #sleep: (ms: number) => Promise<void>;
  readonly #random: () => number;
  readonly #secrets: string[];
  readonly #endpoint: string;

  /** Use {@link openObjectStore}. */
  constructor(
    readonly location: ObjectLocation,
    options: ObjectStoreOptions,
  ) {
    const settings = options.settings;
    this.#client = new S3Client(clientConfig(settings));
    this.#attempts = options.attempts ?? 8;
    this.#baseDelayMs = options.baseDelayMs ?? 100;
    this.#maxDelayMs = options.maxDelayMs ?? 5_000;
    this.#sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.#random = options.random ?? Math.random;
    this.#secrets = S3_SECRET_SETTINGS.map((v) => settings[v]).filter((v): v is string => Boolean(v));
    this.#endpoint = settings[S3_SETTINGS.endpoint] || 'AWS S3';
  }

  /** The object's key in the bucket. */
  #key(key: string): string {
    return `${this.location.prefix}${key}`;
  }

  /**
   * Checks that the bucket is there and the credentials may list it (one request); an
   * {@link ObjectStoreError} of kind `input` otherwise, naming what to fix.
   */
  async check(): Promise<void> {
    await this.#send('list', `list ${this.location.url}`, () =>
      this.#client.send(
        new ListObjectsV2Command({ Bucket: this.location.bucket, Prefix: this.location.prefix, MaxKeys: 1 }),
      ),
    );
  }

  /** The object at `key`, or undefined when there is none. */
  async get(key: string): Promise<StoredObject | undefined> {
    try {
      return await this.#send('get', `read ${this.location.url}${key}`, async () => {
        const answer = await this.#client.send(
          new GetObjectCommand({ Bucket: this.location.bucket, Key: this.#key(key) }),
        );
        return { body: Buffer.from(await answer.Body!.transformToByteArray()), etag: answer.ETag ?? '' };
      });
    } catch (error) {
      if (error instanceof Absent) return undefined;
      throw error;
    }
  }

  /**
   * Writes `body` at `key`: always, or under a condition (S3's If-None-Match: * and If-Match).
   * A refused condition is a result, not an error.
   */
  async put(key: string, body: Buffer | string, condition?: WriteCondition): Promise<WriteResult> {
    try {
      const answer = await this.#send('put', `write ${this.location.url}${key}`, () =>
        this.#client.send(
          new PutObjectCommand({
            Bucket: this.location.bucket,
            Key: this.#key(key),
            Body: body,
            ...(condition && 'ifAbsent' in condition && { IfNoneMatch: '*' }),
            ...(condition && 'ifMatch' in condition && { IfMatch: condition.ifMatch }),
          }),
        ),
      );
      return { written: true, etag: answer.ETag ?? '' };
    } catch (error) {
      if (error instanceof Refused)
        return { written: false, reason: condition && 'ifAbsent' in condition ? 'exists' : 'changed' };
      if (error instanceof Absent && condition) return { written: false, reason: 'absent' };
      throw error;
    }
  }

  /** Every object whose key starts with `prefix` (under the store's prefix), in key order. */
  async list(prefix = ''): Promise<ListedObject[]> {
    const out: ListedObject[] = [];
    let token: string | undefined;
    do {
      const page = await this.#send('list', `list ${this.location.url}${prefix}`, () =>
        this.#client.send(
          new ListObjectsV2Command({
            Bucket: this.location.bucket,
            Prefix: this.#key(prefix),
            ...(token && { ContinuationToken: token }),
          }),
        ),
      );
      for (const o of page.Contents ?? []) {
        out.push({ key: o.Key!.slice(this.location.prefix.length), etag: o.ETag ?? '', size: o.Size ?? 0 });
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return out;
  }

  /** Removes the object at `key` (nothing when there is none). */
  async delete(key: string): Promise<void> {
    await this.#send('delete', `remove ${this.location.url}${key}`, () =>
      this.#client.send(new DeleteObjectCommand({ Bucket: this.location.bucket, Key: this.#key(key) })),
    );
  }

  /** Closes the client's connections. */
  close(): void {
    this.#client.destroy();
  }

  /** One request, retried while S3 says it may pass; its error read into what to do or to fix. */
  async #send<T>(
    kind: keyof Omit<RequestCounts, 'retried'>,
    what: string,
    request: () => Promise<T>,
  ): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      this.counts[kind]++;
      try {
        return await request();
      } catch (error) {
        const status = statusOf(error);
        const code = codeOf(error);
        if (status === 412) throw new Refused();
        if (status === 404 && code !== 'NoSuchBucket') throw new Absent();
        if (retryable(error) && attempt < this.#attempts) {
          this.counts.retried++;
          const base = Math.min(this.#baseDelayMs * 2 ** (attempt - 1), this.#maxDelayMs);
          await this.#sleep(Math.round(base * (1 - 0.25 * this.#random())));
          continue;
        }
        throw this.#explain(error, what, attempt);
      }
    }
  }

  /** The error a person reads: what failed and what to fix, no secret in it. */
  #explain(error: unknown, what: string, attempts: number): ObjectStoreError {
    const status = statusOf(error);
    const code = codeOf(error);
    const said = scrubText(
      `${code || 'error'}${status ? ` ${status}` : ''}: ${(error as SdkError)?.message ?? String(error)}`,
      this.#secrets,
    );
    const { bucket, url } = this.location;
    const input = (text: string) =>
      new ObjectStoreError('input', `${what}: ${text} (${said})`, { cause: error });
    switch (code) {
      case 'NoSuchBucket':
        return input(`the bucket ${bucket} does not exist: create it, or correct the URL ${url}`);
      case 'InvalidAccessKeyId':
        return input(`S3 does not know the access key: check ${S3_SETTINGS.accessKeyId}`);
      case 'SignatureDoesNotMatch':
        return input(`S3 refused the request's signature: check ${S3_SETTINGS.secretAccessKey}`);
      case 'AccessDenied':
        return input(
          `access denied: the credentials need s3:GetObject, s3:PutObject, s3:DeleteObject and s3:ListBucket on ${url}`,
        );
      case 'PermanentRedirect':
      case 'AuthorizationHeaderMalformed':
        return input(`the bucket is in another region: set ${S3_SETTINGS.region}`);
      case 'CredentialsProviderError':
        return input(
          `no S3 credentials: set ${S3_SETTINGS.accessKeyId} and ${S3_SETTINGS.secretAccessKey}, or give the machine an AWS profile or role`,
        );
    }
    if (status === 403) {
      return input(
        `S3 refused the credentials: check ${S3_SETTINGS.accessKeyId} and ${S3_SETTINGS.secretAccessKey}`,
      );
    }
    if (networkOf(error)) {
      return new ObjectStoreError(
        'failure',
        `${what}: could not reach ${this.#endpoint} after ${attempts} attempts (${networkOf(error)}): check ${S3_SETTINGS.endpoint} and the network (${said})`,
        { cause: error },
      );
    }
    const again = retryable(error) ? ` after ${attempts} attempts` : '';
    return new ObjectStoreError('failure', `${what} failed${again} (${said})`, { cause: error });
  }
}

/** A refused condition (412), turned into a result by `put`. */
class Refused extends Error {}
/** No such key (404), turned into a result by `get` and `put`. */
class Absent extends Error {}

/** The SDK client of the settings: no retries of its own (this class retries), timeouts set. */
function clientConfig(settings: Readonly<Record<string, string | undefined>>): S3ClientConfig {
  const endpoint = settings[S3_SETTINGS.endpoint];
  const accessKeyId = settings[S3_SETTINGS.accessKeyId];
  const secretAccessKey = settings[S3_SETTINGS.secretAccessKey];
  if (Boolean(accessKeyId) !== Boolean(secretAccessKey)) {
    throw new ObjectStoreError(
      'input',
      `set both ${S3_SETTINGS.accessKeyId} and ${S3_SETTINGS.secretAccessKey}, or neither (to let the SDK find credentials)`,
    );
  }
  const sessionToken = settings[S3_SETTINGS.sessionToken];
  return {
    region: settings[S3_SETTINGS.region] || 'us-east-1',
    ...(endpoint && { endpoint }),
    forcePathStyle: /^(true|1|yes)$/i.test(settings[S3_SETTINGS.forcePathStyle] ?? ''),
    ...(accessKeyId &&
      secretAccessKey && {
        credentials: { accessKeyId, secretAccessKey, ...(sessionToken && { sessionToken }) },
      }),
    maxAttempts: 1,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    requestHandler: { connectionTimeout: 10_000, requestTimeout: 60_000 },
  };
}

/**
 * The objects under `url` (`s3://bucket/prefix/`); an {@link ObjectStoreError} of kind `input`
 * when the URL or the settings are not usable. Nothing is requested until used ({@link ObjectStore.check}).
 *
 * @example
 * const store = openObjectStore('s3://acme-reports/orgreport/', { settings: process.env });
 * const created = await store.put('ledger/claims/k.json', '{}', { ifAbsent: true });
 */
export function openObjectStore(url: string, options: ObjectStoreOptions): ObjectStore {
  return new ObjectStore(parseObjectUrl(url), options);
}
