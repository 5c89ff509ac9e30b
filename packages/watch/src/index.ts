/**
 * @orgreport/watch: alert rules over the store's history. Pure: an organization's history (credits
 * per day, control revisions, sync runs, credit limits), the directory, the rules' settings, the
 * state of the last run, today and now go in; alerts and the next state come out ({@link evaluateWatch}).
 * No I/O and no clock: the CLI reads the store and keeps the state. {@link forecastMonth} is the
 * month-end forecast and {@link backtestForecast} its error over a history; {@link alertMessage}
 * makes an alert a message for any destination.
 *
 * @module @orgreport/watch
 */
export { DEFAULT_RULES } from './defaults.ts';
export {
  evaluateWatch,
  FIRED_KEPT_DAYS,
  MAX_CATCH_UP_DAYS,
  type WatchInput,
  type WatchOutcome,
} from './evaluate.ts';
export {
  type Backtest,
  backtestForecast,
  type CutoffError,
  type DailyValues,
  FORECAST_METHOD,
  type Forecast,
  forecastMonth,
  type MonthError,
} from './forecast.ts';
export { type AlertMessage, alertMessage, moreCommand } from './message.ts';
export {
  type BudgetSource,
  type BudgetTarget,
  budgetFindings,
  budgetTargets,
  latestLimits,
} from './rules/budget.ts';
export { type SecurityOutcome, securityFindings } from './rules/security.ts';
export { judgeDay, median, type SpikeJudgement, spikeFindings, spikeStart } from './rules/spike.ts';
export {
  expectedDay,
  failedDays,
  staleFindings,
  type UnreadableStore,
  unreadableStoreFinding,
} from './rules/stale.ts';
export { groupSeries, organizationSeries, type ScopeSeries, userSeries } from './series.ts';
export {
  type Alert,
  type BudgetRules,
  type Finding,
  type LimitRecord,
  RULES,
  type RuleName,
  type Scope,
  type ScopeKind,
  type SettingChange,
  type SettingsDiff,
  type Severity,
  type SpikeRules,
  type StaleRules,
  type SyncRun,
  type UserCredits,
  type WatchHistory,
  type WatchPerson,
  type WatchRules,
  type WatchState,
} from './types.ts';
