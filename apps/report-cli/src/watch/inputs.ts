/**
 * What the watch reads besides the store's datasets: the credit limits `limits apply` recorded and
 * the sync runs `sync` logged, through the store's own readers (one reader of each record: a line
 * that is not a record is the store's `DamagedStoreError`, which the watch reports as a damaged
 * store; a line a crash cut short is no record yet), and the files of its own under `_watch/`.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  hiveValue,
  type LimitRecord,
  readLimitRecords as readStoredLimits,
  readSyncRuns as readStoredSyncRuns,
  type SyncRun,
} from '@orgreport/store';
import { CliError } from '../errors.ts';

/** A file's text; undefined when it does not exist, an error naming it when it cannot be read. */
export async function readIfPresent(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    throw new CliError(`${path}: cannot be read (${code})`);
  }
}

/** The file of an organization under the watch's own folder of the store (the records are the store's to find). */
export function orgFile(store: string, folder: '_watch', orgId: string, name: string): string {
  return join(store, folder, `org_id=${hiveValue(orgId)}`, name);
}

// `_warn` is what the caller in commands/watch.ts still passes: nothing is skipped any more, so
// nothing is warned of.

/** The credit limits `limits apply` recorded for an organization, oldest first. */
export async function readLimitRecords(
  store: string,
  orgId: string,
  _warn?: (line: string) => void,
): Promise<LimitRecord[]> {
  return readStoredLimits(store, orgId);
}

/** The sync runs logged for an organization, oldest first. */
export async function readSyncRuns(
  store: string,
  orgId: string,
  _warn?: (line: string) => void,
): Promise<SyncRun[]> {
  return readStoredSyncRuns(store, orgId);
}
