/** The plain-language notes a snapshot's manifest carries about how its period was cut. */
import type { MonthPeriod } from '@orgreport/api-core';

/**
 * Notes on the period and its comparison: a start clamped at the first day of data, a month not
 * over yet, no comparison period. The fetch stage and the store's read-back say the same.
 *
 * @example
 * periodNotes(monthPeriod('2026-01', { now }), null) // ['analytics data starts on 2026-01-14: ...', 'no comparison period: ...']
 */
export function periodNotes(period: MonthPeriod, comparison: MonthPeriod | null): string[] {
  const notes: string[] = [];
  if (period.clampedStart) notes.push(`analytics data starts on ${period.start}: the period was cut there`);
  if (period.endsEarly) notes.push(`partial report: the month is not over, data runs to ${period.end}`);
  if (!comparison) notes.push('no comparison period: the previous month has no analytics data');
  else if (comparison.clampedStart)
    notes.push(`the comparison period starts on ${comparison.start} (first day of data)`);
  return notes;
}
