/**
 * Which enterprise-control revisions a snapshot keeps: from the newest one on or before the period's
 * end back to the newest one before the fetched range starts (the state the range starts from).
 * One rule for the fetch stage (which pages newest first and stops at the baseline) and the store
 * (which selects the same revisions from every stored one).
 */
import { addDays, type ControlChange, utcDay } from '@orgreport/api-core';

/** Where a revision falls: after the period (dropped), inside it, or the baseline (kept; older ones are not). */
export type RevisionPlace = 'after' | 'inside' | 'baseline';

/**
 * The place of `change` for a period ending `periodEnd` whose fetched range starts `rangeStart`.
 * A revision whose time cannot be read counts as inside (kept rather than dropped).
 */
export function revisionPlace(change: ControlChange, periodEnd: string, rangeStart: string): RevisionPlace {
  const day = dayOf(change.updatedAt);
  if (day === null) return 'inside';
  if (day >= addDays(periodEnd, 1)) return 'after';
  return day < rangeStart ? 'baseline' : 'inside';
}

/**
 * The revisions a snapshot of `rangeStart..periodEnd` keeps, from `changes` ordered newest first.
 *
 * @example
 * revisionsInRange(history, '2026-10-31', '2026-09-01') // the October and September changes, then the one before
 */
export function revisionsInRange(
  changes: Iterable<ControlChange>,
  periodEnd: string,
  rangeStart: string,
): ControlChange[] {
  const kept: ControlChange[] = [];
  for (const change of changes) {
    const place = revisionPlace(change, periodEnd, rangeStart);
    if (place === 'after') continue;
    kept.push(change);
    if (place === 'baseline') break;
  }
  return kept;
}

/** The UTC day of an ISO instant, or null when it cannot be read. */
export function dayOf(instant: string): string | null {
  const t = Date.parse(instant);
  return Number.isNaN(t) ? null : utcDay(t);
}
