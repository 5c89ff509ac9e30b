/**
 * @orgreport/store: every month of an organization kept as Hive-partitioned Parquet datasets
 * (`<store>/<dataset>/org_id=<id>/month=<YYYY-MM>/part-0.parquet`, columns in docs/store.md), with
 * DuckDB as the embedded engine. {@link syncStore} fetches the days a store lacks; {@link readPeriod}
 * reads a report period back as a snapshot; {@link readHistory} sums its months for the trend; {@link StoreQuery} runs SQL over the datasets;
 * {@link rebuildStore} makes the datasets again from the raw responses the syncs kept.
 *
 * @module @orgreport/store
 */
export { StoreError, StoreLockedError, StoreQueryError } from './errors.ts';
export { type ReadHistoryOptions, readHistory, type StoredMonth } from './history.ts';
export { hiveValue, PART_FILE, STORE_FILE, StoreLayout } from './layout.ts';
export { lockOrganization, type StoreLock } from './lock.ts';
export { type QueryResult, StoreQuery } from './query.ts';
export { type ReadPeriodOptions, readPeriod } from './read-period.ts';
export { type RebuildOptions, type RebuildResult, rebuildStore } from './rebuild.ts';
export {
  type ColumnSpec,
  type ColumnType,
  DATASETS,
  type DatasetSpec,
  STORE_SCHEMA_VERSION,
} from './schema.ts';
export type { MonthInfo, OrgState } from './state.ts';
export { readState } from './state.ts';
export { listOrganizations, openStore, storeDescription } from './store-file.ts';
export {
  type SyncOptions,
  type SyncProgress,
  type SyncResult,
  spansToFetch,
  syncStore,
  wantedDays,
} from './sync.ts';
export {
  type ReadWatchHistoryOptions,
  readWatchHistory,
  type StoredWatchHistory,
} from './watch-history.ts';
