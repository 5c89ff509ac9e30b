/**
 * Autonomy ratios: per user, tool calls / user messages over a span; per span, their mean, median
 * and 90th percentile (linear interpolation between closest ranks, as Excel's PERCENTILE.INC).
 */

import type { ColumnTable } from 'arquero';
import * as aq from 'arquero';
import type { AutonomyStats } from '../../model.ts';
import type { Row } from './span.ts';
import { finiteOrNull } from './span.ts';
import { sumBy } from './sum-by.ts';

/**
 * Each user's autonomy ratio over the rows (per `week` when `byWeek`): sum(tool_calls) /
 * sum(user_messages); users without a user message are left out. Works on user-day rows and on
 * {@link userWeekLevels} rows alike.
 *
 * @example
 * userAutonomyRatios(rows) // table of uid, tool_calls, user_messages, ratio
 */
export function userAutonomyRatios(rows: ColumnTable, byWeek = false): ColumnTable {
  return sumBy(rows, byWeek ? ['uid', 'week'] : ['uid'], ['tool_calls', 'user_messages'])
    .filter((d: Row) => d.user_messages > 0)
    .derive({ ratio: (d: Row) => d.tool_calls / d.user_messages });
}

/**
 * Mean, median (p50) and p90 of the users' ratios (one row per `week` when `byWeek`, else one row).
 *
 * @example
 * autonomyStats(userAutonomyRatios(rows)) // table of users, mean, p50, p90
 */
export function autonomyStats(ratios: ColumnTable, byWeek = false): ColumnTable {
  return (byWeek ? ratios.groupby('week') : ratios).rollup({
    users: aq.op.count(),
    mean: aq.op.mean('ratio'),
    p50: aq.op.quantile('ratio', 0.5),
    p90: aq.op.quantile('ratio', 0.9),
  });
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
