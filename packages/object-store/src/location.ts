/** `s3://bucket/prefix/` read: the bucket and the key prefix objects go under. */
import { ObjectStoreError } from './errors.ts';

/** Where objects go: a bucket and a key prefix (empty, or ending with `/`). */
export interface ObjectLocation {
  bucket: string;
  prefix: string;
  /** `s3://bucket/prefix/`, as it may be printed. */
  url: string;
}

/** S3's rules for bucket names (3-63 lower-case letters, digits, dots and hyphens). */
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

/** True for a text written as an object-storage location (`s3://...`). */
export function isObjectUrl(text: string): boolean {
  return /^s3:\/\//i.test(text);
}

/**
 * Reads `s3://bucket/prefix/` (the prefix optional; a missing final `/` added). An
 * {@link ObjectStoreError} of kind `input` names what is wrong.
 *
 * @example
 * parseObjectUrl('s3://acme-reports/orgreport') // { bucket: 'acme-reports', prefix: 'orgreport/', url: 's3://acme-reports/orgreport/' }
 */
export function parseObjectUrl(text: string): ObjectLocation {
  const match = /^s3:\/\/([^/]*)\/?(.*)$/.exec(text);
  const bucket = match?.[1] ?? '';
  if (!match || !BUCKET.test(bucket) || bucket.includes('..')) {
    throw new ObjectStoreError(
      'input',
      `${JSON.stringify(text)} is not an object-storage location: write s3://BUCKET/PREFIX/ (a valid bucket name)`,
    );
  }
  const path = match[2] ?? '';
  if (
    path
      .split('/')
      .some((part, i, all) => part === '.' || part === '..' || (part === '' && i < all.length - 1))
  ) {
    throw new ObjectStoreError('input', `${text}: the prefix has an empty, . or .. segment`);
  }
  const prefix = path === '' || path.endsWith('/') ? path : `${path}/`;
  return { bucket, prefix, url: `s3://${bucket}/${prefix}` };
}
