/**
 * The `/users` rows of a span summed by the directory group their person was in on each row's day
 * (team or cost center): a person who moved in the month counts to each group for the days spent
 * there, so the groups partition the span's credits.
 */
import { type DayRange, toEpochDay } from '@orgreport/api-core';
import type { UserDayEncoding } from '../../section.ts';
import type { Placement } from './attribution.ts';

/** A group's credits and the users active in it over the span. */
export interface PlacedSums {
  credits: number;
  /** Users (by encoded user index) with an active day while in the group. */
  active: Set<number>;
}

/**
 * Sums of the span's rows per group.
 *
 * @example
 * sumsByGroup(shared.userDays, period, place, (p) => p.team).get('Platform')?.credits
 */
export function sumsByGroup(
  encoding: UserDayEncoding,
  span: DayRange,
  place: (email: string | null | undefined, day?: string) => Placement,
  groupOf: (placement: Placement) => string,
): Map<string, PlacedSums> {
  const { table, emails } = encoding;
  const uid = table.array('uid') as ArrayLike<number>;
  const day = table.array('day') as ArrayLike<number>;
  const credits = table.array('billable_tokens') as ArrayLike<number | null>;
  const active = table.array('active') as ArrayLike<number>;
  const [from, to] = [toEpochDay(span.start), toEpochDay(span.end)];
  const dayText = new Map<number, string>();
  const out = new Map<string, PlacedSums>();
  for (let i = 0; i < uid.length; i++) {
    const d = day[i]!;
    if (d < from || d > to) continue;
    let date = dayText.get(d);
    if (date === undefined) {
      date = new Date(d * 86_400_000).toISOString().slice(0, 10);
      dayText.set(d, date);
    }
    const group = groupOf(place(emails[uid[i]!], date));
    let sums = out.get(group);
    if (!sums) {
      sums = { credits: 0, active: new Set() };
      out.set(group, sums);
    }
    sums.credits += credits[i] ?? 0;
    if (active[i] === 1) sums.active.add(uid[i]!);
  }
  return out;
}
