/**
 * Fetching any span of days, not only a report month: what a store needs to fetch the days it lacks.
 * It is the fetch stage itself over a period that is the span ({@link rangePeriod}).
 */
import {
  type DayRange,
  daysBetween,
  type MonthPeriod,
  type OrgClient,
  type Snapshot,
} from '@orgreport/api-core';
import { type FetchSnapshotOptions, fetchSnapshot } from './fetch.ts';

export interface FetchRangeOptions extends Omit<FetchSnapshotOptions, 'period' | 'comparison'> {
  /** The days to fetch, both ends included (up to yesterday, from the first day of data). */
  range: DayRange;
}

/**
 * A span of days as the period of a snapshot: `month` is the month of its last day, and it is
 * `partial` (it is not a report month). The snapshot's `fetchedRange` is the span itself.
 */
export function rangePeriod(range: DayRange): MonthPeriod {
  return {
    month: range.end.slice(0, 7),
    start: range.start,
    end: range.end,
    days: daysBetween(range.start, range.end) + 1,
    partial: true,
    clampedStart: false,
    endsEarly: false,
  };
}

/**
 * Fetches the days of `range` (and, unless `lists: false`, the organization users and readiness
 * reports) into a snapshot whose period is the range and which has no comparison period.
 *
 * @example
 * const days = await fetchRange(client, { range: { start: '2026-11-01', end: '2026-11-21' }, now, toolVersion: '0.1.0' });
 */
export async function fetchRange(client: OrgClient, options: FetchRangeOptions): Promise<Snapshot> {
  const { range, ...rest } = options;
  const snapshot = await fetchSnapshot(client, { ...rest, period: rangePeriod(range), comparison: null });
  // The period notes speak of a report month and its comparison, which a span of days has not.
  snapshot.manifest.notes = [];
  return snapshot;
}
