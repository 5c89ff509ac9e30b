/**
 * Opens a shared ledger by its URL: picks the backend (S3 or Postgres) and loads only that one's
 * client library.
 */
import { LedgerConfigError } from './errors.ts';
import { type RecordStore, SharedLedger, type SharedLedgerOptions } from './shared-ledger.ts';

/** True for a ledger location that names a shared ledger (`s3://...`, `postgres://...`). */
export function isSharedLedgerUrl(where: string): boolean {
  return /^(s3|postgres|postgresql):\/\//i.test(where);
}

export interface OpenSharedLedgerOptions extends SharedLedgerOptions {
  /** The S3 settings by variable name (see `@orgreport/object-store`'s `S3_SETTINGS`). */
  settings?: Readonly<Record<string, string | undefined>>;
}

/**
 * Opens the ledger at `url`: `s3://bucket/prefix/` (S3 or an S3-compatible store with conditional
 * writes) or `postgres://user:password@host:port/database`. Before anything is sent it checks that
 * the bucket or database is there, takes the credentials, and holds a ledger of this version: a
 * `LedgerConfigError` names what to fix otherwise (a `LedgerError` when the service failed).
 *
 * @example
 * const ledger = await openSharedLedger('s3://acme-reports/ledger/', { now: () => new Date(), settings: env });
 */
export async function openSharedLedger(url: string, options: OpenSharedLedgerOptions): Promise<SharedLedger> {
  let store: RecordStore;
  if (/^s3:\/\//i.test(url)) {
    const { s3Records } = await import('./ledgers/s3.ts');
    store = await s3Records(url, { settings: options.settings ?? {} });
  } else if (/^postgres(ql)?:\/\//i.test(url)) {
    const { postgresRecords } = await import('./ledgers/postgres.ts');
    store = await postgresRecords(url);
  } else {
    throw new LedgerConfigError(
      `a shared ledger is s3://BUCKET/PREFIX/ or postgres://USER:PASSWORD@HOST/DATABASE`,
    );
  }
  return new SharedLedger(store, options);
}
