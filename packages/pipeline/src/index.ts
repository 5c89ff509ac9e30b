/**
 * `@orgreport/pipeline`: what each `orgreport` command does, as functions a program can call. Each
 * takes the run's {@link Settings} (see {@link settingsFor}), a request (what the command's flags
 * would say), a {@link RunContext} ({@link runContext}) and a {@link Reporter} for logs and
 * progress, and returns what it did; errors are typed ({@link UsageError} for bad input,
 * {@link AuthError} for a key, {@link CliError} otherwise), never a process exit.
 *
 * The subpaths hold the same functions by stage, so that a program loads only what it calls:
 * `/report`, `/distribute`, `/watch`, `/store`, `/snapshot`, `/limits`, `/deliver`, `/hook`.
 *
 * @module @orgreport/pipeline
 */
export { type RunContext, type RunIo, runContext, type StopCleanupKind } from './context.ts';
export {
  type DistributeRequest,
  type DistributeResult,
  distributeMonth,
  type PlanSummary,
  type Shard,
} from './distribute/distribute-month.ts';
export { type Plan, planSchema } from './distribute/plan-schema.ts';
export { AuthError, CliError, EXIT, type ExitCode, exitCodeOf, messageOf, UsageError } from './errors.ts';
export { applyLimitsFile, type LimitsApplyRequest } from './limits/apply.ts';
export { type LimitTemplateRow, limitTemplateRows, writeLimitsTemplateFile } from './limits/template.ts';
export { type MonthlyRequest, produceMonthlyReports } from './report/monthly.ts';
export type { ProduceResult } from './report/produce.ts';
export { type RenderRequest, renderSnapshotReport } from './report/render-snapshot.ts';
export { type RollupRequest, rollupReport } from './report/rollup.ts';
export { formatBytes, Reporter, type StageProgress, type TextOut } from './reporter.ts';
export {
  type ConnectionSettings,
  DEFAULT_CLI_MAX_RETRIES,
  type DeliverySettings,
  LOG_LEVELS,
  type LogLevel,
  type OrganizationConfig,
  type PlanSettings,
  REPORT_FORMATS,
  type ReaderSettings,
  type ReportFormat,
  type ReportSettings,
  type RequestLimits,
  type RunSettings,
  type Settings,
  type SourceSettings,
  settingsFor,
} from './settings.ts';
export type { AcquireFlags } from './snapshot/acquire.ts';
export { fetchMonthSnapshot } from './snapshot/fetch-month.ts';
export {
  rebuildStoreDatasets,
  type StoreSyncRequest,
  syncOrganizations,
} from './store/sync-organizations.ts';
export type { SyncOutcome } from './store/sync-store.ts';
export { type WatchConfig, watchConfig } from './watch/watch-settings.ts';
export {
  backtestStore,
  type OrganizationWatch,
  type WatchDelivery,
  type WatchOutcome,
  type WatchRequest,
  watchStore,
} from './watch/watch-store.ts';
