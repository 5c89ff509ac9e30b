/**
 * `@orgreport/object-store`: objects under one `s3://bucket/prefix/` in S3 or an S3-compatible store,
 * for the delivery ledger and the Parquet store: conditional creates and compare-and-swap replaces
 * (S3's If-None-Match and If-Match), listings, retries of throttling and conflicts, and errors that
 * name what to fix.
 */
export { ObjectStoreError } from './errors.ts';
export { isObjectUrl, type ObjectLocation, parseObjectUrl } from './location.ts';
export {
  type ListedObject,
  ObjectStore,
  type ObjectStoreOptions,
  openObjectStore,
  type RequestCounts,
  type StoredObject,
  type WriteCondition,
  type WriteResult,
} from './object-store.ts';
export { S3_SECRET_SETTINGS, S3_SETTINGS, s3Settings } from './settings.ts';
