/**
 * Autonomy ratios: per user, tool calls / user messages over a span; per span, their mean, median
 * and 90th percentile (linear interpolation between closest ranks, as Excel's PERCENTILE.INC).
 */

import type { ColumnTable } from 'arquero';
import * as aq from 'arquero';
import type { AutonomyStats } from '../../model.ts';
import { finiteOrNull } from './span.ts';
import { columnValues, sumBy, withRatios } from './sum-by.ts';

/**
 * Each user's autonomy ratio over the rows (per `week` when `byWeek`): sum(tool_calls) /
 * sum(user_messages); users without a user message are left out. Works on user-day rows and on
 * {@link userWeekLevels} rows alike.
 *
 * @example
 * userAutonomyRatios(rows) // table of uid, tool_calls, user_messages, ratio
 */
export function userAutonomyRatios(rows: ColumnTable, byWeek = false): ColumnTable {
  return withRatios(sumBy(rows, byWeek ? ['uid', 'week'] : ['uid'], ['tool_calls', 'user_messages']));
}

/**
 * Mean, median (p50) and p90 of the users' ratios (one row per `week` when `byWeek`, in order of
 * first appearance, else one row). The same numbers as arquero's `count`, `mean` (a running mean,
 * in row order) and `quantile` (of the sorted values, interpolated), without its state objects
 * and value lists per group.
 *
 * @example
 * autonomyStats(userAutonomyRatios(rows)) // table of users, mean, p50, p90
 */
export function autonomyStats(ratios: ColumnTable, byWeek = false): ColumnTable {
  const values = columnValues(ratios, 'ratio') as ArrayLike<number | null | undefined>;
  const weeks = byWeek ? (columnValues(ratios, 'week') as ArrayLike<number>) : null;
  const groupOf = new Map<number, number>();
  const groups: Array<{ week: number; users: number; valid: number[]; mean: number }> = weeks
    ? []
    : [{ week: 0, users: 0, valid: [], mean: 0 }];
  for (let i = 0; i < values.length; i++) {
    let g = 0;
    if (weeks) {
      const week = weeks[i]!;
      const known = groupOf.get(week);
      g = known ?? groups.push({ week, users: 0, valid: [], mean: 0 }) - 1;
      if (known === undefined) groupOf.set(week, g);
    }
    const group = groups[g]!;
    group.users += 1;
    const v = values[i];
    if (v == null || Number.isNaN(v)) continue;
    group.valid.push(v);
    group.mean += (v - group.mean) / group.valid.length;
  }
  const stats = groups.map((group) => {
    const sorted = Float64Array.from(group.valid).sort();
    const empty = sorted.length === 0;
    return {
      users: group.users,
      mean: empty ? undefined : group.mean,
      p50: quantile(sorted, 0.5),
      p90: quantile(sorted, 0.9),
    };
  });
  return aq.table({
    ...(weeks && { week: groups.map((g) => g.week) }),
    users: stats.map((s) => s.users),
    mean: stats.map((s) => s.mean),
    p50: stats.map((s) => s.p50),
    p90: stats.map((s) => s.p90),
  });
}

/** The `p` quantile of sorted values, interpolated between the closest ranks (arquero's `quantile`). */
function quantile(sorted: Float64Array, p: number): number | undefined {
  const n = sorted.length;
  if (n === 0) return undefined;
  if (p <= 0 || n < 2) return sorted[0];
  if (p >= 1) return sorted[n - 1];
  const i = (n - 1) * p;
  const i0 = Math.floor(i);
  const v0 = sorted[i0]!;
  return v0 + (sorted[i0 + 1]! - v0) * (i - i0);
}

/** Row `i` of an {@link autonomyStats} table as model JSON (nulls, never NaN). */
export function autonomyStatsAt(stats: ColumnTable | null, i: number): AutonomyStats {
  if (!stats || i < 0 || i >= stats.numRows()) return { users: 0, mean: null, p50: null, p90: null };
  const users = Number(stats.get('users', i) ?? 0);
  if (users === 0) return { users: 0, mean: null, p50: null, p90: null };
  return {
    users,
    mean: finiteOrNull(stats.get('mean', i)),
    p50: finiteOrNull(stats.get('p50', i)),
    p90: finiteOrNull(stats.get('p90', i)),
  };
}

/**
 * PERCENTILE.INC of a list of numbers (linear interpolation between closest ranks); null when empty.
 *
 * @example
 * percentileInc([1, 2, 3, 4], 0.9) // 3.7
 */
export function percentileInc(values: readonly number[], p: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const h = (sorted.length - 1) * p;
  const lo = Math.floor(h);
  const a = sorted[lo] as number;
  const b = sorted[Math.min(lo + 1, sorted.length - 1)] as number;
  return a + (b - a) * (h - lo);
}
