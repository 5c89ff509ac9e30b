/**
 * Who a user or a seat belongs to, from a people directory: their team and cost center, matched by
 * e-mail in any case; anyone the directory does not list is "Unassigned". And money shared out to
 * the cent: amounts in whole cents by the largest-remainder method, so the parts add up exactly to
 * the whole.
 */
import { inScopeOn, type ResolvedScope } from '../../scope.ts';
import type { DirectoryPerson, PeopleDirectory } from '../../section.ts';

/** The team and cost center of people the directory does not list. */
export const UNASSIGNED = 'Unassigned';

export interface Placement {
  team: string;
  costCenter: string;
  person: DirectoryPerson | null;
}

/** A lookup of placements: made once per directory (a distribution places people for every scope). */
export type PlacementLookup = (email: string | null | undefined, day?: string) => Placement;
const placements = new WeakMap<PeopleDirectory, PlacementLookup>();

/**
 * A lookup from e-mail (any case) and day to team and cost center: the person's directory row in
 * effect on that day (an effective-dated directory moves a person on the day of the move); without
 * a day, their latest row. Made once per directory.
 */
export function placementOf(directory: PeopleDirectory): PlacementLookup {
  const known = placements.get(directory);
  if (known) return known;
  const lookup = makePlacement(directory);
  placements.set(directory, lookup);
  return lookup;
}

function makePlacement(directory: PeopleDirectory): PlacementLookup {
  const byEmail = new Map<string, DirectoryPerson[]>();
  for (const p of directory.people) {
    const rows = byEmail.get(p.email.toLowerCase()) ?? [];
    rows.push(p);
    byEmail.set(p.email.toLowerCase(), rows);
  }
  for (const rows of byEmail.values())
    rows.sort((a, b) => ((a.validFrom ?? '') < (b.validFrom ?? '') ? -1 : 1));
  const unassigned: Placement = { team: UNASSIGNED, costCenter: UNASSIGNED, person: null };
  return (email, day) => {
    const rows = email ? byEmail.get(email.toLowerCase()) : undefined;
    if (!rows) return unassigned;
    let person: DirectoryPerson | undefined;
    for (const row of rows) if (day === undefined || !row.validFrom || row.validFrom <= day) person = row;
    return person ? { team: person.team, costCenter: person.costCenter, person } : unassigned;
  };
}

/** The people of a scope on `day` (their directory rows then), found through its members. */
export function scopePeopleOn(
  directory: PeopleDirectory,
  scope: ResolvedScope,
  day: string,
): DirectoryPerson[] {
  const place = placementOf(directory);
  return Object.keys(scope.members).flatMap((email) => {
    const person = inScopeOn(scope, email, day) ? place(email, day).person : null;
    return person ? [person] : [];
  });
}

const peopleByDay = new WeakMap<PeopleDirectory, Map<string, DirectoryPerson[]>>();

/** The directory's people on `day`: each person's row then in effect, once (made once per directory and day). */
export function peopleOn(directory: PeopleDirectory, day: string): DirectoryPerson[] {
  let byDay = peopleByDay.get(directory);
  if (!byDay) {
    byDay = new Map();
    peopleByDay.set(directory, byDay);
  }
  const known = byDay.get(day);
  if (known) return known;
  const place = placementOf(directory);
  const emails = new Set(directory.people.map((p) => p.email.toLowerCase()));
  const people = [...emails].flatMap((e) => {
    const p = place(e, day).person;
    return p ? [p] : [];
  });
  byDay.set(day, people);
  return people;
}

/**
 * `totalCents` shared out in proportion to `weights`, in whole cents that add up exactly to it:
 * each part gets the floor of its exact share, and the cents left go one by one to the largest
 * remainders (ties to the earlier part). All weights 0: everything to none, the rest to the first.
 *
 * @example
 * shareCents(100, [1, 1, 1]) // [34, 33, 33]
 */
export function shareCents(totalCents: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  if (weights.length === 0) return [];
  if (sum <= 0) return weights.map((_, i) => (i === 0 ? totalCents : 0));
  const exact = weights.map((w) => (totalCents * w) / sum);
  const parts = exact.map(Math.floor);
  let left = totalCents - parts.reduce((a, b) => a + b, 0);
  const order = exact.map((e, i) => ({ i, r: e - Math.floor(e) })).sort((a, b) => b.r - a.r || a.i - b.i);
  for (const { i } of order) {
    if (left <= 0) break;
    parts[i]!++;
    left--;
  }
  return parts;
}

/**
 * Two sums of the same credits in different orders: equal up to the last bits a fractional credit
 * leaves (0.1 + 0.7 is 0.7999999999999999), which are no difference in what they charge.
 */
export function sameCredits(a: number, b: number): boolean {
  return Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
}

/** An amount in whole cents (half a cent and up rounds away from zero). */
export function toCents(amount: number): number {
  return Math.sign(amount) * Math.round(Math.abs(amount) * 100);
}
