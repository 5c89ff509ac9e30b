/**
 * The budget rule: each scope with a monthly budget (the organization, a cost center, a team, a
 * user) against its credits of the month to date and their forecast to the month's end (see
 * `forecast.ts`), at each threshold (80 % and 100 % by default). Per scope and month it reports the
 * highest threshold the credits to date have crossed, and the highest the forecast has crossed above
 * that one (once the credits themselves are past a threshold, the forecast's alert at it says
 * nothing new).
 */
import type { IsoDate } from '@orgreport/api-core/dates';
import { type Forecast, forecastMonth } from '../forecast.ts';
import { credits, percent, round, scopeLabel } from '../format.ts';
import { creditsDocument, creditsQuery } from '../more.ts';
import {
  groupSeries,
  organizationSeries,
  rowOn,
  rowsByPerson,
  type ScopeSeries,
  userSeries,
} from '../series.ts';
import type { BudgetRules, Finding, LimitRecord, Severity, WatchHistory, WatchPerson } from '../types.ts';

/** Where a budget comes from. */
export type BudgetSource = 'config' | 'directory' | 'limit';

/** A scope with a budget. */
export interface BudgetTarget {
  series: ScopeSeries;
  /** Credits per month. */
  budget: number;
  source: BudgetSource;
  /** The day a limit was set (for `limit`). */
  setOn?: IsoDate;
}

/** Each user's latest limit set on or before `today`, by lower-case e-mail. */
export function latestLimits(limits: readonly LimitRecord[], today: IsoDate): Map<string, LimitRecord> {
  const out = new Map<string, LimitRecord>();
  const sorted = limits
    .map((l, order) => ({ l, order }))
    .filter(({ l }) => l.day <= today)
    .sort((a, b) => (a.l.at < b.l.at ? -1 : a.l.at > b.l.at ? 1 : a.order - b.order));
  for (const { l } of sorted) out.set(l.email.toLowerCase(), l);
  return out;
}

/** A record's entry whose key matches `name` in any letter case. */
function lookup(record: Record<string, number>, name: string): number | undefined {
  const wanted = name.toLowerCase();
  for (const [k, v] of Object.entries(record)) if (k.toLowerCase() === wanted) return v;
  return undefined;
}

/**
 * The scopes with a budget: the config file's (organization, cost centers, teams, users), then for
 * users without one there, the directory's budget column, then their latest limit (with
 * `fromLimits`). A team or cost center the directory does not name has no members and no credits.
 */
export function budgetTargets(
  history: WatchHistory,
  people: readonly WatchPerson[],
  rules: BudgetRules,
  today: IsoDate,
): BudgetTarget[] {
  const out: BudgetTarget[] = [];
  if (rules.organization !== undefined) {
    out.push({ series: organizationSeries(history), budget: rules.organization, source: 'config' });
  }
  for (const [kind, record] of [
    ['cost_center', rules.costCenters],
    ['team', rules.teams],
  ] as const) {
    if (Object.keys(record).length === 0) continue;
    const groups = groupSeries(history, people, kind);
    for (const [name, budget] of Object.entries(record)) {
      const series = [...groups.values()].find((g) => g.scope.name.toLowerCase() === name.toLowerCase()) ?? {
        scope: { kind, name },
        values: new Map(),
        members: [],
      };
      out.push({ series, budget, source: 'config' });
    }
  }
  const users = userSeries(history);
  // A person's budget is their directory row's of today (an effective-dated directory has several).
  const directory = new Map<string, number>();
  for (const [email, rows] of rowsByPerson(people)) {
    const budget = rowOn(rows, today)?.budget;
    if (budget !== undefined) directory.set(email, budget);
  }
  const limits = rules.fromLimits ? latestLimits(history.limits, today) : new Map<string, LimitRecord>();
  const names = new Set([
    ...Object.keys(rules.users).map((e) => e.toLowerCase()),
    ...directory.keys(),
    ...limits.keys(),
  ]);
  for (const name of [...names].sort()) {
    const series = users.get(name) ?? {
      scope: { kind: 'user' as const, name },
      values: new Map(),
      email: name,
    };
    const fromConfig = lookup(rules.users, name);
    const limit = limits.get(name);
    if (fromConfig !== undefined) out.push({ series, budget: fromConfig, source: 'config' });
    else if (directory.has(name)) out.push({ series, budget: directory.get(name)!, source: 'directory' });
    else if (limit) out.push({ series, budget: limit.limit, source: 'limit', setOn: limit.day });
  }
  return out;
}

function severityOf(measure: 'actual' | 'forecast', threshold: number): Severity {
  if (threshold >= 100) return measure === 'actual' ? 'critical' : 'warning';
  return measure === 'actual' ? 'warning' : 'info';
}

function sourceText(target: BudgetTarget): string {
  if (target.source === 'limit') return `the credit limit set on ${target.setOn}`;
  return target.source === 'directory' ? 'the directory' : 'the config file';
}

function finding(
  orgId: string,
  target: BudgetTarget,
  f: Forecast,
  measure: 'actual' | 'forecast',
  threshold: number,
): Finding {
  const { scope } = target.series;
  const who = scopeLabel(scope);
  const value = measure === 'actual' ? f.toDate : f.forecast;
  const share = target.budget > 0 ? value / target.budget : Number.POSITIVE_INFINITY;
  const budgetText = `${credits(target.budget)} (${sourceText(target)})`;
  const sentence =
    measure === 'actual'
      ? `${who} has used ${credits(f.toDate)} credits in ${f.month} up to ${f.lastDay}: ${percent(share)} of its monthly budget of ${budgetText}.`
      : `${who} is on course for ${credits(f.forecast)} credits in ${f.month}: ${percent(share)} of its monthly budget of ${budgetText}; ${credits(f.toDate)} used up to ${f.lastDay}.`;
  const person = scope.kind === 'user';
  const sql = creditsQuery(orgId, target.series, `${f.month}-01`, f.lastDay);
  return {
    rule: 'budget',
    key: `budget|${scope.kind}:${scope.name}|${f.month}|${measure}-${threshold}`,
    orgId,
    scope,
    period: f.month,
    threshold: `${measure}-${threshold}`,
    severity: severityOf(measure, threshold),
    day: f.lastDay,
    sentence,
    figures: {
      credits_to_date: round(f.toDate),
      forecast: round(f.forecast),
      budget: target.budget,
      budget_source: target.source,
      threshold_percent: threshold,
      percent_of_budget: round(share * 100, 1),
      days_held: f.daysHeld,
      weekdays_left: f.weekdaysLeft,
      weekend_days_left: f.weekendDaysLeft,
      weekday_rate: f.weekdayRate === null ? null : round(f.weekdayRate),
      weekend_rate: f.weekendRate === null ? null : round(f.weekendRate),
    },
    more: { ...(sql && { sql }), document: creditsDocument(target.series) },
    person,
    ...(person && target.series.email ? { email: target.series.email } : {}),
    ...(person && target.series.userId ? { userId: target.series.userId } : {}),
  };
}

/**
 * The budget alerts of the month of `lastDay` (the last day held).
 *
 * @example
 * budgetFindings('org_1', [{ series, budget: 100_000, source: 'config' }], '2026-10-14', rules, 28)
 * // [{ key: 'budget|team:Platform|2026-10|actual-80', ... }] when 80,000 or more are used
 */
export function budgetFindings(
  orgId: string,
  targets: readonly BudgetTarget[],
  lastDay: IsoDate,
  rules: BudgetRules,
  trailingDays: number,
): Finding[] {
  const thresholds = [...new Set(rules.thresholds)].sort((a, b) => b - a);
  const out: Finding[] = [];
  for (const target of targets) {
    const f = forecastMonth(target.series.values, lastDay, trailingDays);
    // No credits cross nothing, whatever the budget (a budget of 0 alerts on the first credit).
    const crossed = (value: number) =>
      value > 0 ? thresholds.find((t) => value >= (target.budget * t) / 100) : undefined;
    const actual = crossed(f.toDate);
    if (actual !== undefined) out.push(finding(orgId, target, f, 'actual', actual));
    if (rules.forecast) {
      const ahead = crossed(f.forecast);
      if (ahead !== undefined && (actual === undefined || ahead > actual)) {
        out.push(finding(orgId, target, f, 'forecast', ahead));
      }
    }
  }
  return out;
}
