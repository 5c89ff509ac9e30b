/**
 * The organization's month allocated once: credits and seats to cost centers and teams, to the
 * cent, and every report (the organization's, a team's, a cost center's, a manager's people's; PDF
 * or workbook) takes its chargeback and team rows from this one allocation, so a cost center's bill
 * is the same number wherever it is read.
 *
 * The rule:
 * - A person's credits of a day go to the team and cost center their directory row of that day
 *   names (a mover counts to each for the days spent there); people the directory does not list go
 *   to "Unassigned". A seat (an organization user on the period's last day) goes to the cost center
 *   and team of its person on that day: one seat, one cost center.
 * - The work is kept in cells: one per person and directory segment (days over which no directory
 *   row changes), so that any scope (a team, a cost center, a manager's people, whose membership
 *   can only change where a segment starts) is a set of whole cells.
 * - Money: the organization's credit cost (credits x price, the `/tokens` total) and seat cost
 *   (seats x price per seat) are rounded to the cent once and shared out to the cost centers (and
 *   the credits no user row carries) by the largest-remainder method; each cost center's cents are
 *   then shared out to its cells the same way. Every sum of cells (a team, a scope's share of a cost
 *   center) is a sum of whole cents, so all of them add up to the invoice exactly.
 */
import type { DayRange, OrgUser, Snapshot } from '@orgreport/api-core';
import { inScopeOn, type ResolvedScope } from '../../scope.ts';
import type { DirectoryPerson, PeopleDirectory } from '../../section.ts';
import { personEmails } from '../apply-scope.ts';
import { peopleOn, placementOf, sameCredits, shareCents, toCents, UNASSIGNED } from './attribution.ts';
import { seatsAt } from './seats.ts';
import { inSpan } from './span.ts';

/** One person's work in one directory segment, and its share of the money in whole cents. */
export interface AllocationCell {
  /** The person: their lower-cased e-mail, or `id:<user id>` without one. */
  person: string;
  email: string | null;
  /** Index into {@link MonthAllocation.segments}. */
  segment: number;
  team: string;
  costCenter: string;
  /** The person's directory row over the segment; null for someone the directory does not list. */
  row: DirectoryPerson | null;
  credits: number;
  /** The person had activity (tool calls, messages or sessions) on a day of the cell. */
  active: boolean;
  /** Seats of the cell: 1 for the person's seat in the last segment, else 0. */
  seats: number;
  creditCents: number;
  seatCents: number;
}

/**
 * Whether a cell's person holds a seat or was active: a person the directory does not list counts
 * as one of Unassigned's people then (the chargeback lists them, data quality counts them).
 */
export function hasSeatOrActivity(cell: AllocationCell): boolean {
  return cell.seats > 0 || cell.active;
}

/** A cost center's bill, as the organization's allocation gives it. */
export interface CostCenterBill {
  name: string;
  credits: number;
  seats: number;
  creditCents: number;
  seatCents: number;
}

export interface MonthAllocation {
  /** The first day of each segment of the period, in order (the first is the period's start). */
  segments: string[];
  cells: AllocationCell[];
  /** The cells of each person, by the person's key. */
  byPerson: ReadonlyMap<string, readonly AllocationCell[]>;
  /** The cost centers in the bill's order (most credits first, Unassigned last). */
  costCenters: CostCenterBill[];
  /** The credits of the organization's total that no user row carries, and their cents. */
  unattributed: { credits: number; creditCents: number };
  /** The organization's credits (the `/tokens` total) and seats. */
  credits: number;
  seats: number;
  /** The organization's costs in cents; null without a price. */
  creditCents: number | null;
  seatCents: number | null;
  pricePerCredit: number | null;
  pricePerSeat: number | null;
}

/** The first day of each segment of `period` over which no row of the directory changes. */
function segmentsOf(directory: PeopleDirectory, period: DayRange): string[] {
  const starts = new Set<string>();
  for (const p of directory.people) {
    if (p.validFrom && p.validFrom > period.start && p.validFrom <= period.end) starts.add(p.validFrom);
  }
  return [period.start, ...[...starts].sort()];
}

/** The segment of `day`: the last whose first day is on or before it. */
function segmentOf(segments: readonly string[], day: string): number {
  let i = 0;
  while (i + 1 < segments.length && segments[i + 1]! <= day) i++;
  return i;
}

/** Shares `cents` over `cells` in proportion to `weight`, in whole cents, the cells in key order. */
function shareOver(cells: AllocationCell[], cents: number, weight: (c: AllocationCell) => number): number[] {
  return shareCents(cents, cells.map(weight));
}

export interface AllocationInput {
  /** The organization's snapshot (never a scope's). */
  snapshot: Snapshot;
  directory: PeopleDirectory;
  period: DayRange;
  pricePerCredit: number | null;
  pricePerSeat: number | null;
}

/**
 * Allocates the organization's month (see the module's description).
 *
 * @example
 * allocateMonth({ snapshot, directory, period, pricePerCredit: 0.000004, pricePerSeat: 19 }).costCenters[0]
 */
export function allocateMonth(input: AllocationInput): MonthAllocation {
  const { snapshot, directory, period, pricePerCredit, pricePerSeat } = input;
  const segments = segmentsOf(directory, period);
  const place = placementOf(directory);
  const emails = personEmails(snapshot);
  const cells = new Map<string, AllocationCell>();
  const cellOf = (email: string | null, id: string, segment: number): AllocationCell => {
    const person = email ?? `id:${id}`;
    const key = `${person}\u0000${segment}`;
    let cell = cells.get(key);
    if (!cell) {
      const where = place(email, segments[segment]!);
      cell = {
        person,
        email,
        segment,
        team: where.team,
        costCenter: where.costCenter,
        row: where.person,
        credits: 0,
        active: false,
        seats: 0,
        creditCents: 0,
        seatCents: 0,
      };
      cells.set(key, cell);
    }
    return cell;
  };

  const { user_id: ids, date, billable_tokens: credits } = snapshot.userDays;
  const { tool_calls: calls, messages, sessions } = snapshot.userDays;
  let usersCredits = 0;
  for (let i = 0; i < ids.length; i++) {
    const day = date[i]!;
    if (!inSpan(day, period)) continue;
    const id = ids[i]!;
    const cell = cellOf(emails.get(id) ?? null, id, segmentOf(segments, day));
    const c = credits[i] ?? 0;
    cell.credits += c;
    usersCredits += c;
    if ((calls[i] ?? 0) > 0 || (messages[i] ?? 0) > 0 || (sessions[i] ?? 0) > 0) cell.active = true;
  }
  const seatUsers: OrgUser[] = seatsAt(snapshot.orgUsers, period.end);
  const last = segments.length - 1;
  // A seat goes with its user: placed by the e-mail their rows give them, else the seat's own.
  for (const u of seatUsers) cellOf(emails.get(u.id) ?? null, u.id, last).seats++;

  let orgCredits = 0;
  for (const t of snapshot.tokens) if (inSpan(t.date, period)) orgCredits += t.billable_tokens;

  // The cost centers in the bill's order: most credits first, then by name; Unassigned last.
  const byCenter = new Map<string, AllocationCell[]>();
  for (const p of peopleOn(directory, period.end))
    if (!byCenter.has(p.costCenter)) byCenter.set(p.costCenter, []);
  const ordered = [...cells.values()].sort((a, b) =>
    a.person < b.person ? -1 : a.person > b.person ? 1 : a.segment - b.segment,
  );
  for (const cell of ordered) {
    const list = byCenter.get(cell.costCenter) ?? [];
    list.push(cell);
    byCenter.set(cell.costCenter, list);
  }
  const centers = [...byCenter].map(([name, list]) => ({
    name,
    cells: list,
    credits: list.reduce((a, c) => a + c.credits, 0),
    seats: list.reduce((a, c) => a + c.seats, 0),
  }));
  centers.sort((a, b) =>
    a.name === UNASSIGNED
      ? 1
      : b.name === UNASSIGNED
        ? -1
        : b.credits - a.credits || (a.name < b.name ? -1 : 1),
  );
  // The users' rows summed in another order than the days' totals: a last-bit difference is none.
  const unattributedCredits = sameCredits(orgCredits, usersCredits) ? 0 : orgCredits - usersCredits;
  const creditCents = pricePerCredit === null ? null : toCents(orgCredits * pricePerCredit);
  const seatCents = pricePerSeat === null ? null : toCents(seatUsers.length * pricePerSeat);
  const centerCredit =
    creditCents === null
      ? null
      : shareCents(creditCents, [...centers.map((c) => c.credits), unattributedCredits]);
  const centerSeat = seatCents === null ? null : shareCents(seatCents, [...centers.map((c) => c.seats), 0]);
  const bills: CostCenterBill[] = centers.map((c, i) => {
    const credit = centerCredit?.[i] ?? 0;
    const seat = centerSeat?.[i] ?? 0;
    shareOver(c.cells, credit, (x) => x.credits).forEach((cents, k) => {
      c.cells[k]!.creditCents = cents;
    });
    shareOver(c.cells, seat, (x) => x.seats).forEach((cents, k) => {
      c.cells[k]!.seatCents = cents;
    });
    return { name: c.name, credits: c.credits, seats: c.seats, creditCents: credit, seatCents: seat };
  });
  const byPerson = new Map<string, AllocationCell[]>();
  for (const cell of ordered) {
    const list = byPerson.get(cell.person);
    if (list) list.push(cell);
    else byPerson.set(cell.person, [cell]);
  }
  return {
    segments,
    cells: ordered,
    byPerson,
    costCenters: bills,
    unattributed: { credits: unattributedCredits, creditCents: centerCredit?.[centers.length] ?? 0 },
    credits: orgCredits,
    seats: seatUsers.length,
    creditCents,
    seatCents,
    pricePerCredit,
    pricePerSeat,
  };
}

/**
 * The cells of a scope's people on the days they were in it, in the allocation's order: found
 * through the scope's members (a few dozen) rather than the organization's cells.
 */
export function scopeCells(allocation: MonthAllocation, scope: ResolvedScope): AllocationCell[] {
  const out: AllocationCell[] = [];
  for (const email of Object.keys(scope.members)) {
    for (const cell of allocation.byPerson.get(email) ?? []) {
      if (inScopeOn(scope, email, allocation.segments[cell.segment]!)) out.push(cell);
    }
  }
  return out.sort((a, b) => (a.person < b.person ? -1 : a.person > b.person ? 1 : a.segment - b.segment));
}

/** A person's share of the allocation over some of their cells, and where the last of them is. */
export interface PersonShare {
  creditCents: number;
  seatCents: number;
  /** The team and cost center of their latest cell among those counted. */
  team: string;
  costCenter: string;
}

/**
 * Each person's share of `cells` (the organization's, or a scope's), by the person's key
 * (lower-cased e-mail, or `id:<user id>`).
 *
 * @example
 * personShares(allocation.cells).get('ann@acme.test')?.creditCents
 */
export function personShares(cells: readonly AllocationCell[]): Map<string, PersonShare> {
  const out = new Map<string, PersonShare & { segment: number }>();
  for (const cell of cells) {
    const known = out.get(cell.person);
    if (!known) {
      out.set(cell.person, {
        creditCents: cell.creditCents,
        seatCents: cell.seatCents,
        team: cell.team,
        costCenter: cell.costCenter,
        segment: cell.segment,
      });
      continue;
    }
    known.creditCents += cell.creditCents;
    known.seatCents += cell.seatCents;
    if (cell.segment > known.segment)
      Object.assign(known, { team: cell.team, costCenter: cell.costCenter, segment: cell.segment });
  }
  return out;
}

/** Allocations made lately, by snapshot, directory and prices: a distribution reads one for every scope. */
const made = new WeakMap<Snapshot['userDays'], WeakMap<PeopleDirectory, Map<string, MonthAllocation>>>();

/** {@link allocateMonth}, made once per organization snapshot, directory, period and prices. */
export function monthAllocation(input: AllocationInput): MonthAllocation {
  let byDirectory = made.get(input.snapshot.userDays);
  if (!byDirectory) {
    byDirectory = new WeakMap();
    made.set(input.snapshot.userDays, byDirectory);
  }
  let byKey = byDirectory.get(input.directory);
  if (!byKey) {
    byKey = new Map();
    byDirectory.set(input.directory, byKey);
  }
  const key = JSON.stringify([
    input.period.start,
    input.period.end,
    input.pricePerCredit,
    input.pricePerSeat,
  ]);
  let allocation = byKey.get(key);
  if (!allocation) {
    allocation = allocateMonth(input);
    byKey.set(key, allocation);
  }
  return allocation;
}
