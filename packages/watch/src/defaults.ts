/** The rules' defaults: what `orgreport watch` does with no `watch:` key in the config file. */
import type { WatchRules } from './types.ts';

/**
 * Security changes on; no budget unless one is configured (the limits set with `limits apply`
 * count as their users' budgets); spikes at 3x the trailing 28-day median, judged with at least 14
 * days of history and never below 100,000 credits a day, one alert until a week without a spike
 * day; stale when yesterday is not in the store by 09:00 UTC or sync failed 2 days running;
 * forecasts from the trailing 28 days.
 */
export const DEFAULT_RULES: WatchRules = {
  security: { enabled: true },
  budgets: {
    costCenters: {},
    teams: {},
    users: {},
    fromLimits: true,
    thresholds: [80, 100],
    forecast: true,
  },
  spike: {
    enabled: true,
    multiple: 3,
    trailingDays: 28,
    minHistoryDays: 14,
    minCredits: 100_000,
    quietDays: 7,
    scopes: ['organization', 'team', 'user'],
  },
  stale: { enabled: true, byHourUtc: 9, syncFailures: 2 },
  forecastDays: 28,
};
