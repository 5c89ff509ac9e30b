/**
 * One watch of one organization: every rule over the history, then the state decides which alerts
 * are new (their key never sent before) and what to remember for the next run. Pure: the history,
 * the directory, the rules, the state, today and now come in; alerts and the next state go out.
 */
import { addDays, eachDay, type IsoDate } from '@orgreport/api-core/dates';
import { DEFAULT_RULES } from './defaults.ts';
import { type Forecast, forecastMonth } from './forecast.ts';
import { budgetFindings, budgetTargets } from './rules/budget.ts';
import { securityFindings } from './rules/security.ts';
import { spikeFindings } from './rules/spike.ts';
import { staleFindings } from './rules/stale.ts';
import { groupSeries, lastHeld, organizationSeries, type ScopeSeries, userSeries } from './series.ts';
import {
  type Alert,
  type Finding,
  RULES,
  type SettingsDiff,
  type Severity,
  type WatchHistory,
  type WatchPerson,
  type WatchRules,
  type WatchState,
} from './types.ts';

/** What one watch takes. */
export interface WatchInput {
  history: WatchHistory;
  /** The people directory (teams, cost centers, budgets); none: no team or cost-center scopes. */
  people?: readonly WatchPerson[];
  /** The rules' settings; default {@link DEFAULT_RULES}. */
  rules?: WatchRules;
  /** What the last watch remembered; null for the first watch of the organization. */
  state: WatchState | null;
  /** The run's day (UTC). */
  today: IsoDate;
  /** The run's instant (ISO 8601): what "by 09:00" and "a revision's time has passed" are judged against. */
  now: string;
  /** The settings diff of the report (`diffSettings` of `@orgreport/metrics`). */
  diff: SettingsDiff;
}

/** What one watch found. */
export interface WatchOutcome {
  /** Every alert that holds now, new ones marked; most severe first. */
  alerts: Alert[];
  /** The state to keep for the next run (a dry run does not keep it). */
  state: WatchState;
  /** The organization's forecast of the month of the last day held (null: the store holds no day). */
  forecast: Forecast | null;
  /** What the run wants said besides its alerts (the first watch's baseline). */
  notes: string[];
}

/** Days of spike history judged at most when the watch has not run for a while. */
export const MAX_CATCH_UP_DAYS = 7;
/** Days a sent alert's key is remembered (longer than any period that could find it again). */
export const FIRED_KEPT_DAYS = 120;

const SEVERITY_ORDER: Record<Severity, number> = { critical: 0, warning: 1, info: 2 };

/** The days the spike rule judges: those held since the last watch (at most a week), and the last one. */
function spikeDays(last: IsoDate, previous: IsoDate | null): IsoDate[] {
  const from = previous === null ? last : addDays(previous, 1);
  const days = eachDay(from, last).slice(-MAX_CATCH_UP_DAYS);
  return days.includes(last) ? days : [...days, last];
}

/**
 * Runs every rule over one organization's history.
 *
 * @example
 * const { alerts, state } = evaluateWatch({ history, people, state: previous, today: '2026-10-08', now: '2026-10-08T07:00:00Z', diff: diffSettings });
 */
export function evaluateWatch(input: WatchInput): WatchOutcome {
  const { history, today, now } = input;
  const rules = input.rules ?? DEFAULT_RULES;
  const people = input.people ?? [];
  const orgId = history.orgId;
  const last = lastHeld(history);
  const findings: Finding[] = [];
  const notes: string[] = [];

  const security = securityFindings(
    orgId,
    history.controls,
    input.state?.lastRevision ?? null,
    now,
    input.diff,
  );
  if (rules.security.enabled) {
    findings.push(...security.findings);
    if (input.state === null && security.lastRevision !== null) {
      notes.push(
        `first watch of organization ${orgId}: control revisions up to ${security.lastRevision} are taken as seen; later ones alert`,
      );
    }
  }
  if (rules.stale.enabled) {
    findings.push(...staleFindings(orgId, last, history.syncRuns, today, now, rules.stale));
  }
  let forecast: Forecast | null = null;
  if (last !== null) {
    forecast = forecastMonth(organizationSeries(history).values, last, rules.forecastDays);
    const targets = budgetTargets(history, people, rules.budgets, today);
    findings.push(...budgetFindings(orgId, targets, last, rules.budgets, rules.forecastDays));
    if (rules.spike.enabled) {
      const scopes: ScopeSeries[] = [];
      if (rules.spike.scopes.includes('organization')) scopes.push(organizationSeries(history));
      if (rules.spike.scopes.includes('team') && people.length > 0) {
        scopes.push(...groupSeries(history, people, 'team').values());
      }
      if (rules.spike.scopes.includes('user')) scopes.push(...userSeries(history).values());
      findings.push(
        ...spikeFindings(orgId, scopes, spikeDays(last, input.state?.lastDay ?? null), rules.spike),
      );
    }
  }

  const fired = { ...(input.state?.fired ?? {}) };
  const alerts: Alert[] = findings.map((f) => ({ ...f, new: !(f.key in fired) }));
  for (const a of alerts) if (a.new) fired[a.key] = { day: today, rule: a.rule };
  const keepFrom = addDays(today, -FIRED_KEPT_DAYS);
  for (const [key, entry] of Object.entries(fired)) if (entry.day < keepFrom) delete fired[key];
  alerts.sort(
    (a, b) =>
      SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] ||
      RULES.indexOf(a.rule) - RULES.indexOf(b.rule) ||
      (a.key < b.key ? -1 : a.key > b.key ? 1 : 0),
  );
  const previousDay = input.state?.lastDay ?? null;
  return {
    alerts,
    state: {
      version: 1,
      orgId,
      lastDay: last === null ? previousDay : previousDay !== null && previousDay > last ? previousDay : last,
      lastRevision: security.lastRevision,
      fired,
    },
    forecast,
    notes,
  };
}
