/**
 * Chargeback: the month's spend per cost center of the people directory: credits, their cost at
 * the price per credit, seats at the price per seat, share of the total; the credits no user row
 * carries (the organization's /tokens total minus the users' sum) on a row of their own; and a
 * reconciliation row that holds the rows' sums against the organization's figures, to the cent.
 * Without a directory the section is left out.
 */
import { fileURLToPath } from 'node:url';
import { runOf } from '../../internal/run.ts';
import { field } from '../../internal/sheet-columns.ts';
import {
  type AllocationCell,
  hasSeatOrActivity,
  type MonthAllocation,
} from '../../internal/transforms/allocation.ts';
import {
  peopleOn,
  sameCredits,
  scopePeopleOn,
  toCents,
  UNASSIGNED,
} from '../../internal/transforms/attribution.ts';
import { namesOf } from '../../internal/transforms/people-names.ts';
import type { DataQualityFinding } from '../../model.ts';
import { holdBackSmallGroups, type SectionPrivacy } from '../../privacy.ts';
import { defineSection, type SectionContext } from '../../section.ts';

/** A cost center, the credits no user carries, or the reconciliation (total). */
export interface ChargebackRow {
  cost_center: string;
  kind: 'cost_center' | 'unattributed' | 'total';
  /** The cost center's teams, joined by ", ". */
  teams: string;
  /** People the directory lists in the cost center at the period's end (of the scope, in a scoped report). */
  people: number;
  active_users: number;
  seats: number;
  credits: number;
  /** Share of the organization's credits. */
  share: number | null;
  /** Credits x price per credit, in whole cents shared out exactly; null without a price. */
  credit_cost: number | null;
  /** Seats x price per seat, in whole cents shared out exactly; null without a seat price. */
  seat_cost: number | null;
  /** Credit cost + seat cost; null when neither has a price. */
  total_cost: number | null;
}

export interface ChargebackSection {
  /**
   * The charges: one row per cost center (and, in the organization's report, the credits no user
   * row carries), which add up to `total`. The total is not a row: a pivot of the rows is right.
   */
  rows: ChargebackRow[];
  /** The rows added up. */
  total: ChargebackRow;
  /** The organization's own figures the organization's rows add up to. */
  organization: { credits: number; seats: number; credit_cost: number | null; seat_cost: number | null };
  /**
   * The rows add up exactly to what they stand for: the organization's credits, seats and costs
   * (to the cent), or in a scoped report the scope's own credits and seats.
   */
  reconciles: boolean;
  pricePerCredit: number | null;
  pricePerSeat: number | null;
  /**
   * In a scoped report: the rows are the scope's share of the organization's allocation (its
   * people's credits and seats in each cost center, with the cents the organization's bill gives
   * them), not bills of their own. Absent in the organization's report.
   */
  scopeShare?: { label: string };
  /**
   * In the organization's report: the people behind the "Unassigned" row (users with activity and
   * seats the directory does not list), so that its money has an owner who can place them; the list
   * is withheld from a reader of groups.
   */
  unassigned?: {
    seats: number;
    activeUsers: number;
    /** The first {@link UNASSIGNED_LISTED} of them, by e-mail. */
    people: Array<{ name: string | null; email: string | null }>;
    /** How many more there are. */
    more: number;
  };
}

/** The rule that shares money out (definitions page). */
export const CENTS_RULE =
  'Money is counted in whole cents: the organization\u2019s cost (credits \u00d7 price per credit, and seats \u00d7 price per seat) is rounded to the cent once (half a cent away from zero), then shared out over the cost centers (and the credits no user row carries) in proportion to their credits (or seats) by the largest-remainder method: each part gets the whole cents of its exact share, and the cents left go one by one to the parts with the largest remainders. Each cost center\u2019s cents are shared out the same way over its people\u2019s work (by person and by the days their directory row holds), so a team, or a report\u2019s share of a cost center, is a sum of whole cents, and every report shows the same bill for the same cost center, adding up to the organization\u2019s cost exactly.';

/** People behind the Unassigned row a report names at most. */
const UNASSIGNED_LISTED = 25;

/** Cents as money; null without a price. */
const money = (cents: number | null) => (cents === null ? null : cents / 100);

/** The cost centers' rows of `cells` (all of the organization's, or a scope's), in the bill's order. */
function costCenterRows(
  allocation: MonthAllocation,
  cells: readonly AllocationCell[],
  people: ReadonlyArray<{ costCenter: string; team: string }>,
  scoped: boolean,
): ChargebackRow[] {
  const sums = new Map<
    string,
    {
      teams: Set<string>;
      people: number;
      active: Set<string>;
      seats: number;
      credits: number;
      cc: number;
      sc: number;
    }
  >();
  const sumOf = (name: string) => {
    let x = sums.get(name);
    if (!x) {
      x = { teams: new Set(), people: 0, active: new Set(), seats: 0, credits: 0, cc: 0, sc: 0 };
      sums.set(name, x);
    }
    return x;
  };
  for (const p of people) {
    const x = sumOf(p.costCenter);
    x.teams.add(p.team);
    x.people++;
  }
  // The directory lists nobody under Unassigned: its people are those it charges, as listed below it.
  const unlisted = new Set<string>();
  for (const c of cells) {
    const x = sumOf(c.costCenter);
    x.credits += c.credits;
    x.seats += c.seats;
    x.cc += c.creditCents;
    x.sc += c.seatCents;
    if (c.active) x.active.add(c.person);
    if (c.row === null && hasSeatOrActivity(c)) unlisted.add(c.person);
  }
  if (unlisted.size > 0) sumOf(UNASSIGNED).people = unlisted.size;
  if (sums.get(UNASSIGNED)?.teams.size === 0) sums.get(UNASSIGNED)!.teams.add(UNASSIGNED);
  const order = allocation.costCenters.map((b) => b.name);
  return order
    .filter((name) => sums.has(name))
    .filter(
      (name) =>
        !scoped || sums.get(name)!.credits > 0 || sums.get(name)!.seats > 0 || sums.get(name)!.people > 0,
    )
    .map((name): ChargebackRow => {
      const x = sums.get(name)!;
      const credit = allocation.creditCents === null ? null : x.cc;
      const seat = allocation.seatCents === null ? null : x.sc;
      return {
        cost_center: name,
        kind: 'cost_center',
        teams: [...x.teams].sort().join(', '),
        people: x.people,
        active_users: x.active.size,
        seats: x.seats,
        credits: x.credits,
        share: allocation.credits > 0 ? x.credits / allocation.credits : null,
        credit_cost: money(credit),
        seat_cost: money(seat),
        total_cost: credit === null && seat === null ? null : money((credit ?? 0) + (seat ?? 0)),
      };
    });
}

/** The rows added up, in cents (a rounding-free sum). */
function totalOf(rows: readonly ChargebackRow[], label: string, credits: number): ChargebackRow {
  const cents = (f: (r: ChargebackRow) => number | null) =>
    rows.some((r) => f(r) !== null) ? rows.reduce((a, r) => a + toCents(f(r) ?? 0), 0) / 100 : null;
  const rowCredits = rows.reduce((a, r) => a + r.credits, 0);
  return {
    cost_center: label,
    kind: 'total',
    teams: '',
    people: rows.reduce((a, r) => a + r.people, 0),
    active_users: rows.reduce((a, r) => a + r.active_users, 0),
    seats: rows.reduce((a, r) => a + r.seats, 0),
    credits: rowCredits,
    share: credits > 0 ? rowCredits / credits : null,
    credit_cost: cents((r) => r.credit_cost),
    seat_cost: cents((r) => r.seat_cost),
    total_cost: cents((r) => r.total_cost),
  };
}

/**
 * The chargeback of the run, from the organization's one allocation (see allocation.ts): the
 * organization's bill by cost center, or a scope's share of it; null without a directory.
 */
export function computeChargeback(context: SectionContext): ChargebackSection | null {
  const run = runOf(context);
  const allocation = run.allocation();
  const directory = context.options.inputs?.directory;
  if (!allocation || !directory) return null;
  const scope = context.scope;
  const end = context.period.end;
  const cells = run.cells();
  const people = scope ? scopePeopleOn(directory, scope, end) : peopleOn(directory, end);
  const rows = costCenterRows(allocation, cells, people, scope !== null);
  const organization = {
    credits: allocation.credits,
    seats: allocation.seats,
    credit_cost: money(allocation.creditCents),
    seat_cost: money(allocation.seatCents),
  };
  const unassignedOf = () => {
    const nameOf = namesOf(context.snapshot.orgUsers);
    const persons = new Map<string, { name: string | null; email: string | null }>();
    let seats = 0;
    const active = new Set<string>();
    for (const c of allocation.cells) {
      if (c.row !== null) continue;
      seats += c.seats;
      if (c.active) active.add(c.person);
      if (hasSeatOrActivity(c)) persons.set(c.person, { name: nameOf({ email: c.email }), email: c.email });
    }
    const people = [...persons.values()].sort((a, b) => ((a.email ?? '') < (b.email ?? '') ? -1 : 1));
    return {
      seats,
      activeUsers: active.size,
      people: people.slice(0, UNASSIGNED_LISTED),
      more: Math.max(0, people.length - UNASSIGNED_LISTED),
    };
  };
  if (!scope) {
    // Credits of the organization's total that no user row carries (see data quality).
    const unattributed = allocation.unattributed;
    rows.push({
      cost_center: 'Not attributed to a user',
      kind: 'unattributed',
      teams: '',
      people: 0,
      active_users: 0,
      seats: 0,
      credits: unattributed.credits,
      share: allocation.credits > 0 ? unattributed.credits / allocation.credits : null,
      credit_cost: allocation.creditCents === null ? null : money(unattributed.creditCents),
      seat_cost: allocation.seatCents === null ? null : 0,
      total_cost:
        allocation.creditCents === null && allocation.seatCents === null
          ? null
          : money(allocation.creditCents === null ? 0 : unattributed.creditCents),
    });
  }
  const total = totalOf(rows, scope ? 'Total' : 'Total (the organization)', allocation.credits);
  const reconciles = scope
    ? sameCredits(total.credits, run.current.values.credits ?? 0) && total.seats === run.current.seats.seats
    : sameCredits(total.credits, allocation.credits) &&
      total.seats === allocation.seats &&
      (allocation.creditCents === null || toCents(total.credit_cost ?? 0) === allocation.creditCents) &&
      (allocation.seatCents === null || toCents(total.seat_cost ?? 0) === allocation.seatCents);
  return {
    rows,
    total,
    organization,
    reconciles,
    pricePerCredit: allocation.pricePerCredit,
    pricePerSeat: allocation.pricePerSeat,
    ...(context.scope && { scopeShare: { label: context.scope.label } }),
    ...(!context.scope && { unassigned: unassignedOf() }),
  };
}

function chargebackChecks(_context: SectionContext, data: ChargebackSection | null): DataQualityFinding[] {
  if (!data || data.reconciles) return [];
  return [
    {
      kind: 'chargeback_reconciliation',
      message: `The cost centers do not add up to the organization's figures (credits ${data.organization.credits}, seats ${data.organization.seats}).`,
    },
  ];
}

/** Where the cost centers held back for privacy are shown together. */
export const HELD_BACK_COST_CENTERS = 'Other cost centers (held back: small groups)';

/**
 * The chargeback with cost centers under the minimum group size held back into one row of sums
 * (the total stays exact). The reader's own cost center (a cost-center owner's) is never held back:
 * the minimum protects people, not the budget of the person who owns it.
 */
export function protectChargeback(
  data: ChargebackSection | null,
  rules: SectionPrivacy,
): ChargebackSection | null {
  if (!data || rules.personRows) return data;
  if (data.unassigned) data = { ...data, unassigned: { ...data.unassigned, people: [], more: 0 } };
  const own = (r: ChargebackRow) => rules.scope?.kind === 'cost-center' && r.cost_center === rules.scope.name;
  const { kept, held, people } = holdBackSmallGroups(
    data.rows,
    // A cost center's credits come from its active users: those are the people they could single out.
    (r) => (r.kind === 'cost_center' && !own(r) ? r.active_users : null),
    rules.minGroupSize,
  );
  rules.heldBack('Cost centers', held.length, people);
  if (held.length === 0) return data;
  const cents = (f: (r: ChargebackRow) => number | null) =>
    held.some((r) => f(r) === null) ? null : held.reduce((a, r) => a + toCents(f(r)!), 0) / 100;
  const merged: ChargebackRow = {
    cost_center: HELD_BACK_COST_CENTERS,
    kind: 'cost_center',
    teams: '',
    people: held.reduce((a, r) => a + r.people, 0),
    active_users: held.reduce((a, r) => a + r.active_users, 0),
    seats: held.reduce((a, r) => a + r.seats, 0),
    credits: held.reduce((a, r) => a + r.credits, 0),
    share: held.some((r) => r.share === null) ? null : held.reduce((a, r) => a + r.share!, 0),
    credit_cost: cents((r) => r.credit_cost),
    seat_cost: cents((r) => r.seat_cost),
    total_cost: cents((r) => r.total_cost),
  };
  const at = kept.findIndex((r) => r.kind !== 'cost_center');
  const rows = [...kept];
  rows.splice(at < 0 ? rows.length : at, 0, merged);
  return { ...data, rows };
}

/** The run's chargeback, computed once (the section and the brief read it). */
export function chargebackOf(context: SectionContext): ChargebackSection | null {
  return runOf(context).once('chargeback', () => computeChargeback(context));
}

export const chargeback = defineSection<ChargebackSection | null>({
  id: 'chargeback',
  title: 'Chargeback by cost center',
  // In the short report where the scope spans several cost centers.
  short: (data) => (data?.rows.length ?? 0) > 1,
  compute: chargebackOf,
  checks: chargebackChecks,
  privacy: protectChargeback,
  definitions: [
    {
      id: 'chargeback',
      term: 'Chargeback',
      text: `Each cost center of the people directory is charged its people\u2019s credits (their /users rows, each day to the cost center their directory row of that day names, so a person who moved is charged to each for the days spent there) at the price per credit, and its seats at the price per seat (ORGREPORT_PRICE_PER_SEAT): a seat goes to the cost center of its person on the period\u2019s last day, one seat to one cost center. Users and seats the directory does not list are charged to "Unassigned". The organization\u2019s credits are the /tokens total: what the users\u2019 rows do not carry is a row of its own ("Not attributed to a user"). The rows are the charges; their total (outside the table) equals the organization\u2019s figures exactly. The month is allocated once for the organization, and every report takes its rows from that allocation: a report for a set of people shows its share of it (its people\u2019s credits and seats in each cost center, with the cents the organization\u2019s bill gives them), so a cost center\u2019s bill is the same number in every report. ${CENTS_RULE}`,
    },
    {
      id: 'user_cost',
      term: 'A user\u2019s cost',
      text: 'With a people directory, a user\u2019s cost is their person\u2019s whole cents of the allocation (see Chargeback). A person with several user ids (one e-mail, an account made again) has those cents shared over the ids by credits, by the largest-remainder method, so the users add up to the bill. A user\u2019s team and cost center are those at the period\u2019s end, while a person who moved during the month is charged to each team for their days in it: the users summed by team differ from the teams\u2019 rows by what movers spent before they moved (summed by cost center they agree unless someone moved cost center).',
    },
  ],
  partial: { file: fileURLToPath(new URL('./chargeback.hbs', import.meta.url)) },
  sheets: [
    {
      name: 'Chargeback',
      // The same columns in every workbook, priced or not: an empty cost column stays, empty.
      columns: () => [
        field<ChargebackRow, 'cost_center'>('cost_center', 'text'),
        field('kind', 'text'),
        field('teams', 'text'),
        field('people', 'integer'),
        field('active_users', 'integer'),
        field('seats', 'integer'),
        field('credits', 'integer'),
        field('share', 'share'),
        field('credit_cost', 'currency'),
        field('seat_cost', 'currency'),
        field('total_cost', 'currency'),
      ],
      rows: (model) => (model.sections?.chargeback as ChargebackSection | undefined)?.rows ?? [],
    },
  ],
});
