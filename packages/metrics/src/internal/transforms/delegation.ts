/**
 * Delegation: each user's primary delegation level in a span, and the span's mix of primary levels.
 */

import { DELEGATION_LEVELS } from '@orgreport/api-core';
import type { ColumnTable } from 'arquero';
import * as aq from 'arquero';
import type { DelegationMix } from '../../model.ts';
import { columnValues, rowsWhere, sumBy } from './sum-by.ts';
import { WEEK_SLOTS } from './user-week-levels.ts';

/** Key of the mix for users whose primary level is missing. */
export const NO_LEVEL = '(none)';

const LEVEL_RANK = new Map<string, number>(DELEGATION_LEVELS.map((level, i) => [level, i]));

/** Orders two levels for the last tie-break: auto-high, auto-medium, auto-low, spec, manual, then others by name. */
function levelBefore(a: string, b: string): boolean {
  const ra = LEVEL_RANK.get(a) ?? DELEGATION_LEVELS.length;
  const rb = LEVEL_RANK.get(b) ?? DELEGATION_LEVELS.length;
  return ra !== rb ? ra < rb : a < b;
}

/** Rows summed over the month, as week 0 (`primaryDelegation` then reads them as one week). */
function monthRows(sums: ColumnTable): ColumnTable {
  return sums.assign({ week: new Float64Array(sums.numRows()) });
}

/**
 * Each active user's primary delegation level (per `week` when `byWeek`) from
 * {@link userWeekLevels} rows: the level of their active user-days carrying the most tool calls;
 * ties go to the level with more active user-days, then to the order auto-high, auto-medium,
 * auto-low, spec, manual. Days without a level are not evidence of one: a user whose active days
 * all lack a level gets `level` null. `levels` decodes `lvl`.
 *
 * @example
 * primaryDelegation(userWeekLevels(rows), data.levels) // table of uid, week, level
 */
export function primaryDelegation(
  weekLevels: ColumnTable,
  levels: ReadonlyArray<string | null>,
  byWeek = false,
): ColumnTable {
  const rows = byWeek
    ? weekLevels
    : monthRows(
        sumBy(
          rowsWhere(weekLevels, 'active_days', (v) => v > 0),
          ['uid', 'lvl'],
          ['tool_calls', 'active_days'],
        ),
      );
  const uids = columnValues(rows, 'uid') as ArrayLike<number>;
  const weeks = columnValues(rows, 'week') as ArrayLike<number>;
  const lvls = columnValues(rows, 'lvl') as ArrayLike<number>;
  const calls = columnValues(rows, 'tool_calls') as ArrayLike<number>;
  const days = columnValues(rows, 'active_days') as ArrayLike<number>;
  // The row of the best level so far of each user-week key (-1: none yet), and the keys in the
  // order they first came (the order of the output); an array, as the keys are dense.
  const keyOf = (i: number) => uids[i]! * WEEK_SLOTS + weeks[i]!;
  let first = 0;
  let last = -1;
  for (let i = 0; i < uids.length; i++) {
    first = i === 0 ? keyOf(i) : Math.min(first, keyOf(i));
    last = Math.max(last, keyOf(i));
  }
  const best = new Int32Array(Math.max(0, last - first + 1)).fill(-1);
  const keys: number[] = [];
  const better = (i: number, j: number): boolean => {
    const li = levels[lvls[i]!] ?? null;
    const lj = levels[lvls[j]!] ?? null;
    if (li === null || lj === null) return lj === null && li !== null;
    if (calls[i] !== calls[j]) return calls[i]! > calls[j]!;
    if (days[i] !== days[j]) return days[i]! > days[j]!;
    return levelBefore(li, lj);
  };
  for (let i = 0; i < uids.length; i++) {
    if (!(days[i]! > 0)) continue; // not active in that week at that level
    const userWeek = keyOf(i) - first;
    const j = best[userWeek]!;
    if (j < 0) keys.push(userWeek);
    if (j < 0 || better(i, j)) best[userWeek] = i;
  }
  const n = keys.length;
  const uid = new Int32Array(n);
  const week = new Int32Array(n);
  const level: Array<string | null> = new Array(n);
  let r = 0;
  for (const key of keys) {
    const i = best[key]!;
    uid[r] = uids[i]!;
    week[r] = weeks[i]!;
    level[r] = levels[lvls[i]!] ?? null;
    r++;
  }
  return aq.table({ uid, week, level });
}

/**
 * The delegation mix of primary levels: counts and shares of the active users at each level (the
 * five known levels always present; others as they occur; `(none)` for no level).
 *
 * @example
 * delegationMix(primaryDelegation(periodRows, data.levels)) // { active_users: 4, counts: {...}, shares: {...} }
 */
export function delegationMix(primary: ColumnTable): DelegationMix {
  const counts: Record<string, number> = {};
  for (const level of DELEGATION_LEVELS) counts[level] = 0;
  const levels = columnValues(primary, 'level') as ArrayLike<string | null>;
  for (let i = 0; i < levels.length; i++) {
    const key = levels[i] ?? NO_LEVEL;
    counts[key] = (counts[key] ?? 0) + 1;
  }
  const activeUsers = levels.length;
  const shares: Record<string, number | null> = {};
  for (const [level, n] of Object.entries(counts)) shares[level] = activeUsers > 0 ? n / activeUsers : null;
  return { active_users: activeUsers, counts, shares };
}
