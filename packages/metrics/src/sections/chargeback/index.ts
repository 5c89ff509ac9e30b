/**
 * Chargeback: the month's spend per cost center of the people directory: credits, their cost at
 * the price per credit, seats at the price per seat, share of the total; the credits no user row
 * carries (the organization's /tokens total minus the users' sum) on a row of their own; and a
 * reconciliation row that holds the rows' sums against the organization's figures, to the cent.
 * Without a directory the section is left out.
 */
import { fileURLToPath } from 'node:url';
import { field } from '../../internal/sheet-columns.ts';
import {
  peopleOn,
  placementOf,
  shareCents,
  toCents,
  UNASSIGNED,
} from '../../internal/transforms/attribution.ts';
import { sumsByGroup } from '../../internal/transforms/placed-rows.ts';
import { seatsAt } from '../../internal/transforms/seats.ts';
import type { DataQualityFinding, Figure } from '../../model.ts';
import { holdBackSmallGroups, type SectionPrivacy } from '../../privacy.ts';
import { defineSection, type SectionContext } from '../../section.ts';

/** A cost center, the credits no user carries, or the reconciliation (total). */
export interface ChargebackRow {
  cost_center: string;
  kind: 'cost_center' | 'unattributed' | 'total';
  /** The cost center's teams, joined by ", ". */
  teams: string;
  /** People the directory lists in the cost center at the period's end. */
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
  rows: ChargebackRow[];
  /** The organization's own figures the rows must add up to. */
  organization: { credits: number; seats: number; credit_cost: number | null; seat_cost: number | null };
  /** The rows add up exactly to the organization's credits, seats and costs (to the cent). */
  reconciles: boolean;
  pricePerCredit: number | null;
  pricePerSeat: number | null;
}

/** The rule that shares money out (definitions page). */
export const CENTS_RULE =
  'Money is counted in whole cents: the organization\u2019s cost (credits \u00d7 price per credit, and seats \u00d7 price per seat) is rounded to the cent once (half a cent away from zero), then shared out over the rows in proportion to their credits (or seats) by the largest-remainder method: each row gets the whole cents of its exact share, and the cents left go one by one to the rows with the largest remainders. So the rows always add up to the organization\u2019s cost exactly.';

const figureValue = (figures: readonly Figure[], id: string) => figures.find((f) => f.id === id)?.value ?? 0;

/** The chargeback of the run: null without a directory. */
export function computeChargeback(context: SectionContext): ChargebackSection | null {
  const directory = context.inputs.directory;
  if (!directory) return null;
  const place = placementOf(directory);
  const centers = new Map<
    string,
    { teams: Set<string>; people: number; active: number; seats: number; credits: number }
  >();
  const center = (name: string) => {
    let c = centers.get(name);
    if (!c) {
      c = { teams: new Set(), people: 0, active: 0, seats: 0, credits: 0 };
      centers.set(name, c);
    }
    return c;
  };
  const end = context.period.end;
  for (const p of peopleOn(directory, end)) {
    const c = center(p.costCenter);
    c.teams.add(p.team);
    c.people++;
  }
  const seats = seatsAt(context.snapshot.orgUsers, end);
  for (const seat of seats) center(place(seat.email, end).costCenter).seats++;
  // Each row's credits go to the cost center its person was in that day.
  let usersCredits = 0;
  for (const [name, sums] of sumsByGroup(
    context.shared.userDays,
    context.period,
    place,
    (p) => p.costCenter,
  )) {
    const c = center(name);
    c.credits += sums.credits;
    c.active += sums.active.size;
    usersCredits += sums.credits;
  }
  if (centers.get(UNASSIGNED)?.teams.size === 0) centers.get(UNASSIGNED)!.teams.add(UNASSIGNED);
  const orgCredits = figureValue(context.shared.figures, 'credits');
  const pricePerCredit = context.shared.pricing?.pricePerCredit ?? null;
  const pricePerSeat =
    typeof context.options.pricePerSeat === 'number' && context.options.pricePerSeat > 0
      ? context.options.pricePerSeat
      : null;

  const named = [...centers]
    .map(([name, c]) => ({ name, ...c }))
    .sort((a, b) =>
      a.name === UNASSIGNED
        ? 1
        : b.name === UNASSIGNED
          ? -1
          : b.credits - a.credits || (a.name < b.name ? -1 : 1),
    );
  const parts = [
    ...named.map((c) => ({ ...c, kind: 'cost_center' as const })),
    // Credits of the organization's total that no user row carries (see data quality).
    {
      name: 'Not attributed to a user',
      kind: 'unattributed' as const,
      teams: new Set<string>(),
      people: 0,
      active: 0,
      seats: 0,
      credits: orgCredits - usersCredits,
    },
  ];
  const creditCents =
    pricePerCredit === null
      ? null
      : shareCents(
          toCents(orgCredits * pricePerCredit),
          parts.map((p) => p.credits),
        );
  const seatCents =
    pricePerSeat === null
      ? null
      : shareCents(
          toCents(seats.length * pricePerSeat),
          parts.map((p) => p.seats),
        );
  const rows: ChargebackRow[] = parts.map((p, i) => {
    const credit = creditCents ? creditCents[i]! : null;
    const seat = seatCents ? seatCents[i]! : null;
    return {
      cost_center: p.name,
      kind: p.kind,
      teams: [...p.teams].sort().join(', '),
      people: p.people,
      active_users: p.active,
      seats: p.seats,
      credits: p.credits,
      share: orgCredits > 0 ? p.credits / orgCredits : null,
      credit_cost: credit === null ? null : credit / 100,
      seat_cost: seat === null ? null : seat / 100,
      total_cost: credit === null && seat === null ? null : ((credit ?? 0) + (seat ?? 0)) / 100,
    };
  });
  const sumCents = (cents: number[] | null) => (cents ? cents.reduce((a, b) => a + b, 0) : null);
  const organization = {
    credits: orgCredits,
    seats: seats.length,
    credit_cost: pricePerCredit === null ? null : toCents(orgCredits * pricePerCredit) / 100,
    seat_cost: pricePerSeat === null ? null : toCents(seats.length * pricePerSeat) / 100,
  };
  const rowCredits = rows.reduce((a, r) => a + r.credits, 0);
  const rowSeats = rows.reduce((a, r) => a + r.seats, 0);
  const reconciles =
    rowCredits === orgCredits &&
    rowSeats === seats.length &&
    (creditCents === null || sumCents(creditCents) === toCents(orgCredits * pricePerCredit!)) &&
    (seatCents === null || sumCents(seatCents) === toCents(seats.length * pricePerSeat!));
  const creditTotal = sumCents(creditCents);
  const seatTotal = sumCents(seatCents);
  rows.push({
    cost_center: context.scope ? 'Total' : 'Total (the organization)',
    kind: 'total',
    teams: '',
    people: rows.reduce((a, r) => a + r.people, 0),
    active_users: rows.reduce((a, r) => a + r.active_users, 0),
    seats: rowSeats,
    credits: rowCredits,
    share: orgCredits > 0 ? rowCredits / orgCredits : null,
    credit_cost: creditTotal === null ? null : creditTotal / 100,
    seat_cost: seatTotal === null ? null : seatTotal / 100,
    total_cost:
      creditTotal === null && seatTotal === null ? null : ((creditTotal ?? 0) + (seatTotal ?? 0)) / 100,
  });
  return { rows, organization, reconciles, pricePerCredit, pricePerSeat };
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

/** The chargeback with cost centers under the minimum group size held back into one row of sums (the total stays exact). */
export function protectChargeback(
  data: ChargebackSection | null,
  rules: SectionPrivacy,
): ChargebackSection | null {
  if (!data || rules.personRows) return data;
  const { kept, held, people } = holdBackSmallGroups(
    data.rows,
    // A cost center's credits come from its active users: those are the people they could single out.
    (r) => (r.kind === 'cost_center' ? r.active_users : null),
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

export const chargeback = defineSection<ChargebackSection | null>({
  id: 'chargeback',
  title: 'Chargeback by cost center',
  compute: computeChargeback,
  checks: chargebackChecks,
  privacy: protectChargeback,
  definitions: [
    {
      id: 'chargeback',
      term: 'Chargeback',
      text: `Each cost center of the people directory is charged its people\u2019s credits (their /users rows) at the price per credit and its seats at the price per seat (ORGREPORT_PRICE_PER_SEAT); users and seats the directory does not list are charged to "Unassigned". The organization\u2019s credits are the /tokens total: what the users\u2019 rows do not carry is a row of its own ("Not attributed to a user"). The total row adds the rows up and must equal the organization\u2019s figures exactly. ${CENTS_RULE}`,
    },
  ],
  partial: { file: fileURLToPath(new URL('./chargeback.hbs', import.meta.url)) },
  sheets: [
    {
      name: 'Chargeback',
      columns: (model) => {
        const data = model.sections?.chargeback as ChargebackSection | undefined;
        return [
          field<ChargebackRow, 'cost_center'>('cost_center', 'text'),
          field('kind', 'text'),
          field('teams', 'text'),
          field('people', 'integer'),
          field('active_users', 'integer'),
          field('seats', 'integer'),
          field('credits', 'integer'),
          field('share', 'share'),
          ...(data?.pricePerCredit != null
            ? [field<ChargebackRow, 'credit_cost'>('credit_cost', 'currency')]
            : []),
          ...(data?.pricePerSeat != null ? [field<ChargebackRow, 'seat_cost'>('seat_cost', 'currency')] : []),
          ...(data?.pricePerCredit != null || data?.pricePerSeat != null
            ? [field<ChargebackRow, 'total_cost'>('total_cost', 'currency')]
            : []),
        ];
      },
      rows: (model) => (model.sections?.chargeback as ChargebackSection | undefined)?.rows ?? [],
    },
  ],
});
