/**
 * The `s3` destination: the documents as objects in S3 or an S3-compatible store (MinIO, R2,
 * Ceph, ...), at `<prefix><month>/<filename>`, so that a month's documents sit together and a
 * rerun writes the same keys again instead of new ones. It stores (`stores: true`): in a group it
 * goes first, and the others receive `s3://bucket/prefix/<month>/` as a link.
 *
 * Each file goes up through `@aws-sdk/lib-storage`'s `Upload`: one PUT when small, a multipart
 * upload in 8 MiB parts when larger (a failed multipart upload is aborted, so that its parts are
 * not kept). The client computes checksums only when an operation requires one, as S3-compatible
 * servers that predate S3's default CRC32 checksums expect; its own retries are off, so that every
 * failure is classified here: 429, 503 SlowDown, other 5xx, timeouts and dropped connections may
 * pass; a missing bucket, refused credentials and other 4xx will not. Credentials come from the
 * settings (never printed), or, when none are set, from the SDK's own chain (an instance role, a
 * profile).
 */
import { createReadStream } from 'node:fs';
// The AWS SDK is loaded on the first send: a run without an S3 target never loads it.
import type { S3Client, S3ClientConfig } from '@aws-sdk/client-s3';
import { scrubText } from '@orgreport/api-core/redact';
import { errorCode } from '@orgreport/api-core/retry';
import {
  type DeliveryError,
  type DeliveryMessage,
  DestinationError,
  defineDestination,
  PermanentDeliveryError,
  RetryableDeliveryError,
  type SendContext,
  type SentReceipt,
} from '../destination.ts';

export const S3_ENDPOINT_ENV = 'ORGREPORT_S3_ENDPOINT';
export const S3_REGION_ENV = 'ORGREPORT_S3_REGION';
export const S3_FORCE_PATH_STYLE_ENV = 'ORGREPORT_S3_FORCE_PATH_STYLE';
export const AWS_ACCESS_KEY_ID_ENV = 'AWS_ACCESS_KEY_ID';
export const AWS_SECRET_ACCESS_KEY_ENV = 'AWS_SECRET_ACCESS_KEY';
export const AWS_SESSION_TOKEN_ENV = 'AWS_SESSION_TOKEN';

/** An S3 target: a bucket and a key prefix (empty, or ending in `/`). */
export interface S3Address {
  bucket: string;
  prefix: string;
}

/** Size of a multipart upload's parts; a file up to this size goes up in one PUT. */
export const S3_PART_BYTES = 8 * 1024 * 1024;
/** Parts of one file in flight at once. */
const PARTS_IN_FLIGHT = 2;
const CONNECTION_TIMEOUT_MS = 10_000;
/** A request (one part at most) that sends or receives nothing for this long has timed out. */
const REQUEST_TIMEOUT_MS = 60_000;

const SYNTAX = 's3://bucket/ or s3://bucket/prefix/';
/** S3's bucket names: 3 to 63 lower-case letters, digits, dots and hyphens, a letter or digit at each end. */
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
/** A month (or another `meta.month` value) as a key's folder: one safe path segment. */
const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
/** A document's name as the last segment of a key: no separator, no control character. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it refuses
const FILENAME = /^[^/\\\u0000-\u001f\u007f]+$/;

/** S3 error codes that may pass by trying again. */
const RETRYABLE_CODES = new Set([
  'SlowDown',
  'ServiceUnavailable',
  'InternalError',
  'RequestTimeout',
  'RequestTimeTooSkewed',
  'TooManyRequests',
  'Throttling',
  'ThrottlingException',
  'OperationAborted',
]);
/** Errors of the connection itself, before or during a request. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
]);

/** What to tell a person for the S3 errors a configuration causes. */
const EXPLANATIONS: Record<string, (address: S3Address) => string> = {
  NoSuchBucket: (a) => `the bucket ${a.bucket} does not exist`,
  AccessDenied: (a) =>
    `access denied to s3://${a.bucket}/${a.prefix}: the credentials need s3:PutObject there`,
  InvalidAccessKeyId: () => `S3 does not know the access key: check ${AWS_ACCESS_KEY_ID_ENV}`,
  SignatureDoesNotMatch: () => `S3 refused the request's signature: check ${AWS_SECRET_ACCESS_KEY_ENV}`,
  InvalidBucketName: (a) => `S3 refused the bucket name ${a.bucket}`,
  PermanentRedirect: () => `the bucket is in another region: set ${S3_REGION_ENV} or ${S3_ENDPOINT_ENV}`,
  AuthorizationHeaderMalformed: () => `S3 refused the region of the request: check ${S3_REGION_ENV}`,
};

/** The `s3` destination. */
export const s3 = defineDestination<S3Address>({
  scheme: 's3',
  title: 'S3 or S3-compatible object storage',
  syntax: SYNTAX,
  stores: true,
  settings: [
    { env: S3_ENDPOINT_ENV, help: 'Endpoint of an S3-compatible store (MinIO, R2, ...); unset: AWS S3' },
    { env: S3_REGION_ENV, help: 'Region of the bucket (default us-east-1; R2: auto)' },
    {
      env: S3_FORCE_PATH_STYLE_ENV,
      help: 'true to address buckets in the path (MinIO, most self-hosted stores)',
    },
    {
      env: AWS_ACCESS_KEY_ID_ENV,
      help: 'Access key id (unset: the SDK finds credentials itself, e.g. an instance role)',
    },
    { env: AWS_SECRET_ACCESS_KEY_ENV, help: 'Secret access key', secret: true },
    { env: AWS_SESSION_TOKEN_ENV, help: 'Session token of temporary credentials', secret: true },
  ],
  parse(target) {
    const match = /^s3:\/\/([^/]+)\/?(.*)$/.exec(target);
    const bucket = match?.[1] ?? '';
    if (!match || !BUCKET.test(bucket) || bucket.includes('..')) {
      throw new DestinationError(
        `s3 target ${JSON.stringify(target)}: write ${SYNTAX} (a valid bucket name)`,
      );
    }
    const path = match[2] ?? '';
    if (
      path
        .split('/')
        .some((part, i, all) => part === '..' || part === '.' || (part === '' && i < all.length - 1))
    ) {
      throw new DestinationError(
        `s3 target ${JSON.stringify(target)}: the prefix has an empty, . or .. segment`,
      );
    }
    return { bucket, prefix: path === '' || path.endsWith('/') ? path : `${path}/` };
  },
  label: (address) => `s3://${address.bucket}/${address.prefix}`,
  send: sendToS3,
});

function clientConfig(settings: SendContext['settings'], label: string): S3ClientConfig {
  const endpoint = settings[S3_ENDPOINT_ENV];
  const keyId = settings[AWS_ACCESS_KEY_ID_ENV];
  const secret = settings[AWS_SECRET_ACCESS_KEY_ENV];
  if (Boolean(keyId) !== Boolean(secret)) {
    throw new PermanentDeliveryError(
      label,
      `set both ${AWS_ACCESS_KEY_ID_ENV} and ${AWS_SECRET_ACCESS_KEY_ENV}, or neither (to let the SDK find credentials)`,
    );
  }
  const sessionToken = settings[AWS_SESSION_TOKEN_ENV];
  return {
    region: settings[S3_REGION_ENV] || 'us-east-1',
    ...(endpoint ? { endpoint } : {}),
    forcePathStyle: /^(true|1|yes)$/i.test(settings[S3_FORCE_PATH_STYLE_ENV] ?? ''),
    ...(keyId && secret
      ? {
          credentials: {
            accessKeyId: keyId,
            secretAccessKey: secret,
            ...(sessionToken ? { sessionToken } : {}),
          },
        }
      : {}),
    maxAttempts: 1,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    requestHandler: { connectionTimeout: CONNECTION_TIMEOUT_MS, requestTimeout: REQUEST_TIMEOUT_MS },
  };
}

/** The folder of a message's documents: `<prefix><meta.month>/`. */
function folderOf(message: DeliveryMessage, address: S3Address, label: string): string {
  const month = message.meta['month'];
  if (month === undefined || !SEGMENT.test(month) || month.includes('..')) {
    throw new PermanentDeliveryError(
      label,
      `the message has no usable meta.month (${JSON.stringify(month)}): objects are stored at <prefix><month>/<filename>`,
    );
  }
  return `${address.prefix}${month}/`;
}

async function sendToS3(
  message: DeliveryMessage,
  address: S3Address,
  context: SendContext,
): Promise<SentReceipt> {
  const label = s3.label(address);
  const folder = folderOf(message, address, label);
  for (const d of message.documents) {
    if (!FILENAME.test(d.filename) || d.filename === '.' || d.filename === '..') {
      throw new PermanentDeliveryError(
        label,
        `a document's name cannot be an object's name: ${JSON.stringify(d.filename)}`,
      );
    }
  }
  if (message.documents.length === 0) {
    context.log(`${label}: no documents to store`);
    return { id: 'no documents' };
  }
  const location = `s3://${address.bucket}/${folder}`;
  const secrets = [context.settings[AWS_SECRET_ACCESS_KEY_ENV], context.settings[AWS_SESSION_TOKEN_ENV]];
  const { S3Client } = await import('@aws-sdk/client-s3');
  const { Upload } = await import('@aws-sdk/lib-storage');
  const client = new S3Client(clientConfig(context.settings, label));
  const multipart = trackMultipartUploads(client);
  const keys: string[] = [];
  try {
    for (const document of message.documents) {
      const key = `${folder}${document.filename}`;
      const body = createReadStream(document.path);
      const upload = new Upload({
        client,
        params: {
          Bucket: address.bucket,
          Key: key,
          Body: body,
          ContentType: document.contentType,
          Metadata: { sha256: document.sha256 },
        },
        partSize: S3_PART_BYTES,
        queueSize: PARTS_IN_FLIGHT,
        // Parts are aborted here, so that a failed abort cannot hide the error that caused it.
        leavePartsOnError: true,
      });
      const abort = () => void upload.abort();
      context.signal.addEventListener('abort', abort, { once: true });
      try {
        await upload.done();
      } catch (error) {
        await abortMultipart(client, address.bucket, key, multipart.get(key), label, context);
        throw error;
      } finally {
        context.signal.removeEventListener('abort', abort);
        body.destroy();
      }
      keys.push(key);
      context.log(`${label}: stored ${key} (${document.bytes} bytes)`);
    }
  } catch (error) {
    throw s3Failure(label, address, error, secrets, context.signal);
  } finally {
    client.destroy();
  }
  return { id: keys.join(','), location };
}

/** The id of each key's multipart upload, as CreateMultipartUpload answers it. */
function trackMultipartUploads(client: S3Client): Map<string, string> {
  const ids = new Map<string, string>();
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const result = await next(args);
      if (context.commandName === 'CreateMultipartUploadCommand') {
        const input = args.input as { Key?: string };
        const output = result.output as { UploadId?: string };
        if (input.Key && output.UploadId) ids.set(input.Key, output.UploadId);
      }
      return result;
    },
    { step: 'initialize', name: 'orgreportTrackMultipartUploads' },
  );
  return ids;
}

/** Aborts a failed multipart upload so that its parts are not kept (and billed); best effort. */
async function abortMultipart(
  client: S3Client,
  bucket: string,
  key: string,
  uploadId: string | undefined,
  label: string,
  context: SendContext,
): Promise<void> {
  if (uploadId === undefined) return;
  try {
    const { AbortMultipartUploadCommand } = await import('@aws-sdk/client-s3');
    await client.send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: key, UploadId: uploadId }));
  } catch (error) {
    const name = (error as { name?: string }).name ?? 'Error';
    context.log(
      `${label}: the failed multipart upload of ${key} could not be aborted (${name}); a lifecycle rule (AbortIncompleteMultipartUpload) removes its parts`,
    );
  }
}

/** Classifies what the SDK threw; the message names the S3 error and request id, never a credential. */
function s3Failure(
  label: string,
  address: S3Address,
  error: unknown,
  secrets: ReadonlyArray<string | undefined>,
  signal: AbortSignal,
): DeliveryError {
  if (error instanceof PermanentDeliveryError || error instanceof RetryableDeliveryError) return error;
  if (signal.aborted)
    return new RetryableDeliveryError(label, 'the delivery was cancelled during the upload');
  const e = error as {
    name?: string;
    Code?: string;
    message?: string;
    $metadata?: { httpStatusCode?: number; requestId?: string };
    $response?: { headers?: Record<string, string> };
  };
  const status = e.$metadata?.httpStatusCode;
  const name = e.Code ?? e.name ?? 'Error';
  const request = e.$metadata?.requestId ? `, request ${e.$metadata.requestId}` : '';
  const said = `${name}${status ? `, HTTP ${status}` : ''}${request}`;
  const network = errorCode(error);
  if (name === 'TimeoutError' || name === 'RequestTimeout' || network === 'ETIMEDOUT') {
    return new RetryableDeliveryError(label, `S3 did not answer in time (${said})`);
  }
  if (network !== undefined && NETWORK_CODES.has(network)) {
    return new RetryableDeliveryError(label, `could not reach S3 (${network})`);
  }
  if (
    RETRYABLE_CODES.has(name) ||
    status === 408 ||
    status === 429 ||
    (status !== undefined && status >= 500)
  ) {
    const after = Number(e.$response?.headers?.['retry-after']);
    return new RetryableDeliveryError(
      label,
      `S3 asked to try again later (${said})`,
      Number.isFinite(after) && after >= 0 ? after * 1000 : undefined,
    );
  }
  if (status !== undefined && status >= 300 && status < 500) {
    const explain = EXPLANATIONS[name];
    return new PermanentDeliveryError(
      label,
      explain ? `${explain(address)} (${said})` : `S3 refused the upload (${said})`,
    );
  }
  // The SDK's provider chain found no credentials anywhere (variables, ~/.aws, an instance role):
  // trying again will not find them.
  if (name === 'CredentialsProviderError') {
    return new PermanentDeliveryError(
      label,
      `no S3 credentials: set ${AWS_ACCESS_KEY_ID_ENV} and ${AWS_SECRET_ACCESS_KEY_ENV}, or give the machine an AWS profile or role`,
    );
  }
  if (name === 'ENOENT' || network === 'ENOENT' || network === 'EACCES') {
    return new PermanentDeliveryError(label, `a document could not be read (${network ?? name})`);
  }
  return new RetryableDeliveryError(
    label,
    `S3 upload failed: ${scrubText(String(e.message ?? error), secrets)}`,
  );
}
