/**
 * What the watch reads besides the store's datasets: the credit limits `limits apply` recorded and
 * the sync runs `sync` logged, through the store's own readers, of a store folder or a store in a
 * bucket alike (one reader of each record: a line that is not a record is the store's
 * `DamagedStoreError`, which the watch reports as a damaged store; a line a crash cut short is no
 * record yet), and where the watch's own files are kept under `_watch/`.
 */
import {
  hiveValue,
  type LimitRecord,
  readLimitRecords as readStoredLimits,
  readSyncRuns as readStoredSyncRuns,
  type SyncRun,
} from '@orgreport/store';
import { keptName } from './kept-files.ts';

/** The key under the store of an organization's file in the watch's own folder (the records are the store's to find). */
export function orgKey(folder: '_watch', orgId: string, name: string): string {
  return `${folder}/org_id=${hiveValue(orgId)}/${name}`;
}

/** The file of an organization under the watch's own folder of the store (in a bucket: its URL). */
export function orgFile(store: string, folder: '_watch', orgId: string, name: string): string {
  return keptName(store, orgKey(folder, orgId, name));
}

/** The credit limits `limits apply` recorded for an organization, oldest first. */
export async function readLimitRecords(store: string, orgId: string): Promise<LimitRecord[]> {
  return readStoredLimits(store, orgId);
}

/** The sync runs logged for an organization, oldest first. */
export async function readSyncRuns(store: string, orgId: string): Promise<SyncRun[]> {
  return readStoredSyncRuns(store, orgId);
}
