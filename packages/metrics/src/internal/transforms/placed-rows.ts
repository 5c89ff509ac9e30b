/**
 * The `/users` rows of a span summed by the directory group their person was in on each row's day
 * (team or cost center): a person who moved in the month counts to each group for the days spent
 * there, so the groups partition the span's credits.
 */
import { type DayRange, toEpochDay } from '@orgreport/api-core';
import type { ColumnTable } from 'arquero';
import type { UserDayEncoding } from '../../section.ts';
import type { Placement } from './attribution.ts';
import { primaryDelegation } from './delegation.ts';
import { columnValues, withRatios } from './sum-by.ts';
import { withinSpan } from './user-days.ts';
import { userSums } from './user-totals.ts';
import { userWeekLevels } from './user-week-levels.ts';

/** A group's credits and the users active in it over the span. */
export interface PlacedSums {
  credits: number;
  /** Users (by encoded user index) with an active day while in the group. */
  active: Set<number>;
}

type Place = (email: string | null | undefined, day?: string) => Placement;

/**
 * The group of each row of the span, by index into `groups` (-1: a row outside the span): the
 * group its person was in on the row's day.
 */
function rowGroups(
  encoding: UserDayEncoding,
  span: DayRange,
  place: Place,
  groupOf: (placement: Placement) => string,
): { groups: string[]; of: Int32Array } {
  const { table, emails } = encoding;
  const uid = table.array('uid') as ArrayLike<number>;
  const day = table.array('day') as ArrayLike<number>;
  const [from, to] = [toEpochDay(span.start), toEpochDay(span.end)];
  const dayText = new Map<number, string>();
  const index = new Map<string, number>();
  const groups: string[] = [];
  const of = new Int32Array(uid.length).fill(-1);
  for (let i = 0; i < uid.length; i++) {
    const d = day[i]!;
    if (d < from || d > to) continue;
    let date = dayText.get(d);
    if (date === undefined) {
      date = new Date(d * 86_400_000).toISOString().slice(0, 10);
      dayText.set(d, date);
    }
    const group = groupOf(place(emails[uid[i]!], date));
    let g = index.get(group);
    if (g === undefined) {
      g = groups.length;
      groups.push(group);
      index.set(group, g);
    }
    of[i] = g;
  }
  return { groups, of };
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
  place: Place,
  groupOf: (placement: Placement) => string,
): Map<string, PlacedSums> {
  const { table } = encoding;
  const uid = table.array('uid') as ArrayLike<number>;
  const credits = table.array('billable_tokens') as ArrayLike<number | null>;
  const active = table.array('active') as ArrayLike<number>;
  const { groups, of } = rowGroups(encoding, span, place, groupOf);
  const sums: PlacedSums[] = groups.map(() => ({ credits: 0, active: new Set() }));
  for (let i = 0; i < of.length; i++) {
    const g = of[i]!;
    if (g < 0) continue;
    sums[g]!.credits += credits[i] ?? 0;
    if (active[i] === 1) sums[g]!.active.add(uid[i]!);
  }
  return new Map(groups.map((group, g) => [group, sums[g]!]));
}

/** A group's autonomy ratios (one per user with a message) and its active users by primary level. */
export interface PlacedBehaviour {
  ratios: number[];
  /** Active users by primary delegation level (`none`: a user whose days carry no level). */
  levels: Map<string, number>;
  /** Active users. */
  users: number;
}

/**
 * Each group's autonomy and delegation from the span's rows of its people on the days they were in
 * it, as a report for the group alone computes them: a person who moved in the month is, for each
 * group, the person of their rows there (their ratio and primary level over those days).
 *
 * @example
 * behaviourByGroup(shared.userDays, period, placementOf(directory), (p) => p.team).get('Platform')?.users
 */
export function behaviourByGroup(
  encoding: UserDayEncoding,
  span: DayRange,
  place: Place,
  groupOf: (placement: Placement) => string,
): Map<string, PlacedBehaviour> {
  const { table, levels } = encoding;
  const uid = table.array('uid') as ArrayLike<number>;
  const { groups, of: groupAt } = rowGroups(encoding, span, place, groupOf);
  // Each user in each group is a user of its own (a dense code, as the transforms index by it).
  const codes = new Map<number, number>();
  const groupOfCode: number[] = [];
  const pseudo = new Int32Array(uid.length);
  for (let i = 0; i < uid.length; i++) {
    const g = groupAt[i]!;
    if (g < 0) continue;
    const key = uid[i]! * 1_048_576 + g;
    let code = codes.get(key);
    if (code === undefined) {
      code = groupOfCode.length;
      groupOfCode.push(g);
      codes.set(key, code);
    }
    pseudo[i] = code;
  }
  const out = new Map<string, PlacedBehaviour>();
  if (groupOfCode.length === 0) return out;
  const behaviourOf = (code: number): PlacedBehaviour => {
    const group = groups[groupOfCode[code]!]!;
    let b = out.get(group);
    if (!b) {
      b = { ratios: [], levels: new Map(), users: 0 };
      out.set(group, b);
    }
    return b;
  };
  // The shared table is the encoding's whole (unfiltered) arquero table: its uid replaced, the rest shared.
  const rows = withinSpan((table as unknown as ColumnTable).assign({ uid: pseudo }), span);
  const weekLevels = userWeekLevels(rows, span.start);
  const primary = primaryDelegation(weekLevels, levels);
  const levelOf = new Map<number, string | null>();
  const primaryUids = columnValues(primary, 'uid') as ArrayLike<number>;
  const primaryLevels = columnValues(primary, 'level') as ArrayLike<string | null>;
  for (let i = 0; i < primaryUids.length; i++) levelOf.set(primaryUids[i]!, primaryLevels[i] ?? null);
  const sums = userSums(weekLevels);
  const sumUids = columnValues(sums, 'uid') as ArrayLike<number>;
  const activeDays = columnValues(sums, 'active_days') as ArrayLike<number>;
  for (let i = 0; i < sumUids.length; i++) {
    if (!(activeDays[i]! > 0)) continue;
    const b = behaviourOf(sumUids[i]!);
    const level = levelOf.get(sumUids[i]!) ?? 'none';
    b.levels.set(level, (b.levels.get(level) ?? 0) + 1);
    b.users++;
  }
  const ratioRows = withRatios(sums);
  const ratioUids = columnValues(ratioRows, 'uid') as ArrayLike<number>;
  const ratios = columnValues(ratioRows, 'ratio') as ArrayLike<number>;
  for (let i = 0; i < ratioUids.length; i++) behaviourOf(ratioUids[i]!).ratios.push(ratios[i]!);
  return out;
}
