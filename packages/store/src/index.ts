/**
 * @orgreport/store: every month of an organization kept as Hive-partitioned Parquet datasets
 * (`<store>/<dataset>/org_id=<id>/month=<YYYY-MM>/part-0.parquet`, columns in docs/store.md), with
 * DuckDB as the embedded engine. {@link syncStore} fetches the days a store lacks; {@link readPeriod}
 * reads a report period back as a snapshot; {@link readHistory} sums its months for the trend; {@link StoreQuery} runs SQL over the datasets;
 * {@link rebuildStore} makes the datasets again from the raw responses the syncs kept.
 * Records kept beside the datasets: every sync run ({@link recordSyncRun}, {@link readSyncRuns}) and
 * every credit limit set ({@link recordLimits}, {@link readLimits}). A damaged file is a
 * {@link DamagedStoreError} naming it and its remedy; {@link checkStore} finds them all at once.
 * Documents of other steps in a store in object storage, replaced only over the version read:
 * {@link readStoreDocument}, {@link writeStoreDocument}.
 *
 * @module @orgreport/store
 */
export { checkStore, type StoreCheck } from './check.ts';
export { readStoreDocument, type StoreDocument, writeStoreDocument } from './documents.ts';
export {
  type DamagedStoreDetails,
  DamagedStoreError,
  StoreError,
  StoreLockedError,
  StoreQueryError,
} from './errors.ts';
export { type ReadHistoryOptions, readHistory, type StoredMonth } from './history.ts';
export { hiveValue, PART_FILE, STORE_FILE, StoreLayout } from './layout.ts';
export { type LimitRecord, readLimitRecords, readLimits, recordLimits } from './limits.ts';
export { lockOrganization, type StoreLock } from './lock.ts';
export { configureObjectStorage } from './object-storage.ts';
export { type QueryResult, StoreQuery, type StoreQueryOptions } from './query.ts';
export { type ReadPeriodOptions, readPeriod } from './read-period.ts';
export { type RebuildOptions, type RebuildResult, rebuildStore } from './rebuild.ts';
export {
  RECORD_FILES,
  type RecordFieldSpec,
  type RecordFieldType,
  type RecordFileSpec,
} from './records.ts';
export { isRemoteRoot, type RemoteFile, type RemoteFiles } from './remote.ts';
export {
  type ColumnSpec,
  type ColumnType,
  DATASETS,
  type DatasetSpec,
  STORE_SCHEMA_VERSION,
} from './schema.ts';
export type { MonthInfo, OrgState } from './state.ts';
export { readState } from './state.ts';
export { listOrganizations, type OpenStoreOptions, openStore, storeDescription } from './store-file.ts';
export {
  type SyncOptions,
  type SyncProgress,
  type SyncResult,
  spansToFetch,
  syncStore,
  wantedDays,
} from './sync.ts';
export { type RecordSyncRunOptions, readSyncRuns, recordSyncRun, type SyncRun } from './sync-runs.ts';
export {
  type ReadWatchHistoryOptions,
  readWatchHistory,
  type StoredWatchHistory,
} from './watch-history.ts';
