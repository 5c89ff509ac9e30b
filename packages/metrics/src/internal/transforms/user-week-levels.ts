/**
 * The one pass over the period's `/users` rows that the per-user transforms share: one row per
 * user, ISO week and delegation level, with every additive field summed.
 */

import { toEpochDay, USER_DAY_SUMS } from '@orgreport/api-core';
import type { ColumnTable } from 'arquero';
import { sumBy } from './sum-by.ts';
import { isoWeekNumber } from './user-days.ts';

/** Weeks per key block: a month never intersects more than 6 ISO weeks. */
export const WEEK_SLOTS = 8;

/** Additive `/users` fields carried through the aggregation. */
export const USER_SUMMED = USER_DAY_SUMS;

/**
 * Aggregates encoded rows (see `encodeUserDays`) to one row per `uid`, `week` and `lvl`, with
 * `days` (rows), `active_days` (active rows) and the sums of {@link USER_SUMMED}; `week` counts
 * ISO weeks from the week of `start` (0, 1, ...).
 *
 * @example
 * userWeekLevels(withinSpan(data.table, period), period.start)
 */
export function userWeekLevels(userDays: ColumnTable, start: string): ColumnTable {
  const sums = sumBy(userDays, ['uid', 'wk', 'lvl'], ['active', ...USER_SUMMED], 'days');
  const base = isoWeekNumber(toEpochDay(start));
  // The week index computed on the column itself (the sums are neither filtered nor ordered).
  const wk = sums.column('wk') as unknown as Float64Array;
  const week = new Float64Array(wk.length);
  for (let i = 0; i < wk.length; i++) week[i] = wk[i]! - base;
  return sums.rename({ active: 'active_days' }).assign({ week });
}
