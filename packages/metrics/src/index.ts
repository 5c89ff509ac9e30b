/**
 * @orgreport/metrics: arquero transforms from a snapshot of the organization API to the report
 * model (see model.ts for the contract and definitions.ts for the formulas in plain language).
 */
export { buildReportModel } from './build-report-model.ts';
export { DEFINITIONS, READINESS_LEVEL_RULE } from './definitions.ts';
export * from './model.ts';
export {
  DEFAULT_CURRENCY,
  DEFAULT_LEVEL_MAPPING,
  DEFAULT_TOP_N,
  type LevelMapping,
  type ReportOptions,
} from './options.ts';
export { autonomyMix, dayAutonomyShares } from './transforms/autonomy-mix.ts';
export { autonomyStats, percentileInc, userAutonomyRatios } from './transforms/autonomy-stats.ts';
export { clientDau } from './transforms/clients.ts';
export { CHANGED_REDACTED, controlChanges, diffSettings } from './transforms/controls.ts';
export { creditsByModel, creditsByTier } from './transforms/credits.ts';
export { dailySeries } from './transforms/daily-series.ts';
export {
  autonomyMixFindings,
  delegationUnknown,
  MIX_TOLERANCE,
  mcpCaseMerged,
  missingDays,
  readinessInvalid,
  readinessUnmapped,
  USERS_TOTAL_TOLERANCE,
  unparseableToolNames,
  usersByDay,
  usersTotalMismatch,
} from './transforms/data-quality.ts';
export { delegationMix, primaryDelegation } from './transforms/delegation.ts';
export { headlineFigures, relativeChange } from './transforms/figures.ts';
export { hookEventsSummary } from './transforms/hook-events.ts';
export { mergeCaseVariants } from './transforms/named-counts.ts';
export { productivityBreakdown } from './transforms/productivity.ts';
export {
  criterionScore,
  latestReports,
  mappedLevel,
  READINESS_LEVEL_NAMES,
  readinessLevel,
  readinessScores,
  readinessSection,
} from './transforms/readiness.ts';
export {
  manifestUnknownFields,
  settingsDrift,
  type UnknownFieldsByDataset,
  unknownClients,
  unknownFields,
} from './transforms/schema-drift.ts';
export { seatStats } from './transforms/seats.ts';
export { sumBy } from './transforms/sum-by.ts';
export {
  hooksByEvent,
  isPlausibleToolName,
  mergeMcpServers,
  skillsAndCommands,
  topTools,
  UNPARSEABLE,
} from './transforms/tools.ts';
export {
  encodeUserDays,
  isoWeekNumber,
  perUserActivity,
  type UserDayData,
  withinSpan,
} from './transforms/user-days.ts';
export { primaryModels, userLanguages, userTotals } from './transforms/user-totals.ts';
export { USER_SUMMED, userWeekLevels, WEEK_SLOTS } from './transforms/user-week-levels.ts';
export { weeklyRollup, weekSpans } from './transforms/weekly-rollup.ts';
