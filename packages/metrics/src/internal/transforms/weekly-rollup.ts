/**
 * The weekly rollup: one row per ISO week intersecting the period (the workbook's `Weekly` sheet).
 */
import { type DayRange, DELEGATION_LEVELS, isoWeekday, isoWeeksOf } from '@orgreport/api-core';
import type { DailyRow, SpanBehaviour, WeeklyRow } from '../../model.ts';
import type { Span } from './span.ts';

/** Fields of a daily row summed into weeks (and into the month). */
export const ADDITIVE_FIELDS = [
  'credits',
  'input_tokens',
  'output_tokens',
  'cache_read_tokens',
  'cache_write_tokens',
  'tool_calls',
  'sessions',
  'messages',
  'user_messages',
  'files_created',
  'files_edited',
  'git_commits',
  'git_prs_created',
] as const satisfies ReadonlyArray<keyof DailyRow>;
export type AdditiveField = (typeof ADDITIVE_FIELDS)[number];

/**
 * The ISO weeks intersecting a period as spans cut to the period.
 *
 * @example
 * weekSpans({ start: '2026-03-01', end: '2026-03-31' })[0] // { label: '2026-W09', start: '2026-03-01', end: '2026-03-01' }
 */
export function weekSpans(period: DayRange): Span[] {
  return isoWeeksOf(period).map((w) => ({ label: w.week, start: w.start, end: w.end }));
}

/**
 * Sums of the additive fields over daily rows.
 *
 * @example
 * sumDaily(period.daily).credits
 */
export function sumDaily(daily: readonly DailyRow[]): DailySums {
  const sums = Object.fromEntries(ADDITIVE_FIELDS.map((f) => [f, 0])) as Record<AdditiveField, number | null>;
  for (const row of daily) {
    for (const f of ADDITIVE_FIELDS) {
      const value = row[f];
      // A field a scoped report does not have (tokens) stays null: not given is not 0.
      sums[f] = value === null || sums[f] === null ? null : sums[f]! + value;
    }
  }
  return sums as DailySums;
}

/** Sums of the additive fields: the token counts are null where the days do not give them (a scope). */
export type DailySums = { [F in AdditiveField]: DailyRow[F] };

/**
 * Mean and max of DAU over the days that have an `/activity` row; nulls when none has.
 *
 * @example
 * dauStats(daily, (d) => activity.has(d)) // { avg: 3.5, max: 5 }
 */
export function dauStats(
  daily: readonly DailyRow[],
  hasActivity: (date: string) => boolean,
): { avg: number | null; max: number | null } {
  let n = 0;
  let total = 0;
  let max = Number.NEGATIVE_INFINITY;
  for (const row of daily) {
    if (!hasActivity(row.date)) continue;
    n++;
    total += row.dau;
    if (row.dau > max) max = row.dau;
  }
  return n === 0 ? { avg: null, max: null } : { avg: total / n, max };
}

/**
 * One row per ISO week intersecting the period: additive sums over the week's days inside the
 * period, DAU mean and max, WAU of the week's last day inside the period, and the week's autonomy
 * and delegation from `behaviour` (keyed by week label).
 *
 * @example
 * weeklyRollup(daily, period, behaviourByWeek, activeUsersByWeek, (d) => activity.has(d))
 */
export function weeklyRollup(
  daily: readonly DailyRow[],
  period: DayRange,
  behaviour: ReadonlyMap<string, SpanBehaviour>,
  activeUsersByWeek: ReadonlyMap<string, number>,
  hasActivity: (date: string) => boolean,
): WeeklyRow[] {
  return isoWeeksOf(period).map((w) => {
    const days = daily.filter((d) => d.date >= w.start && d.date <= w.end);
    const last = days.find((d) => d.date === w.end);
    const dau = dauStats(days, hasActivity);
    const b = behaviour.get(w.week);
    const shares = b?.delegation.shares ?? {};
    const known: readonly string[] = DELEGATION_LEVELS;
    let other: number | null = null;
    if (b && b.delegation.active_users > 0) {
      other = 0;
      for (const [level, share] of Object.entries(shares)) if (!known.includes(level)) other += share ?? 0;
    }
    return {
      week: w.week,
      start: w.start,
      end: w.end,
      days_in_period: w.daysInRange,
      partial: w.partial,
      ...sumDaily(days),
      active_users: activeUsersByWeek.get(w.week) ?? 0,
      avg_dau: dau.avg,
      max_dau: dau.max,
      wau: last && hasActivity(last.date) ? last.wau : null,
      wau_exact: isoWeekday(w.end) === 7,
      autonomy_mean: b?.autonomy.mean ?? null,
      autonomy_p50: b?.autonomy.p50 ?? null,
      autonomy_p90: b?.autonomy.p90 ?? null,
      autonomy_users: b?.autonomy.users ?? 0,
      auto_high: b?.autonomyMix.auto_high ?? null,
      auto_medium: b?.autonomyMix.auto_medium ?? null,
      auto_low: b?.autonomyMix.auto_low ?? null,
      manual: b?.autonomyMix.manual ?? null,
      delegation_auto_high: shares['auto-high'] ?? null,
      delegation_auto_medium: shares['auto-medium'] ?? null,
      delegation_auto_low: shares['auto-low'] ?? null,
      delegation_spec: shares['spec'] ?? null,
      delegation_manual: shares['manual'] ?? null,
      delegation_other: other,
    };
  });
}
