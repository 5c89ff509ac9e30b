/**
 * Teams: per team of the people directory, its seats and active users, credits and cost, autonomy
 * and delegation mix, the readiness of its repositories where the directory names them, and the
 * change on the previous month. Without a directory there are no teams and the section is left out.
 */
import { fileURLToPath } from 'node:url';
import { type DayRange, DELEGATION_LEVELS } from '@orgreport/api-core';
import { runOf } from '../../internal/run.ts';
import { field } from '../../internal/sheet-columns.ts';
import { hasSeatOrActivity } from '../../internal/transforms/allocation.ts';
import { peopleOn, placementOf, scopePeopleOn, UNASSIGNED } from '../../internal/transforms/attribution.ts';
import { relativeChange } from '../../internal/transforms/figures.ts';
import { type NameOf, namesOf } from '../../internal/transforms/people-names.ts';
import { behaviourByGroup, sumsByGroup } from '../../internal/transforms/placed-rows.ts';
import { latestReports, readinessScores } from '../../internal/transforms/readiness.ts';
import type { DataQualityFinding } from '../../model.ts';
import { holdBackMix, holdBackSmallGroups, type SectionPrivacy } from '../../privacy.ts';
import { defineSection, type SectionContext } from '../../section.ts';

/** One team (or Unassigned). */
export interface TeamRow {
  team: string;
  /** The team's cost centers in the directory, joined by ", " (one, as a rule). */
  cost_center: string;
  /** People the directory lists in the team. */
  members: number;
  seats: number;
  active_users: number;
  seat_utilization: number | null;
  credits: number;
  /** The team's credit cost (credits only, no seats): `credit_cost`, kept under its first name. */
  cost: number | null;
  /** The team's share of the organization's credit cost, in whole cents (see the chargeback's rule); null without a price. */
  credit_cost: number | null;
  /** Its share of the seat cost, in whole cents; null without a seat price. */
  seat_cost: number | null;
  /** Credit cost + seat cost; null when neither has a price. */
  total_cost: number | null;
  /** Share of the users' credits. */
  share: number | null;
  autonomy_mean: number | null;
  /** Share of the team's active users (those in it at the period's end) by primary delegation level. */
  delegation: Record<string, number>;
  /** The active users the delegation mix is over. */
  delegation_users: number;
  /** Mean latest readiness score of the team's repositories at the period's end; null when none known. */
  readiness_score: number | null;
  repositories: number;
  previous_credits: number | null;
  credits_change: number | null;
  previous_active_users: number | null;
  active_users_change: number | null;
}

/** A person counted as an active user of several teams: they moved during the month and used the agent in each. */
export interface TeamMover {
  name: string | null;
  email: string | null;
  /** The teams they count in, by name. */
  teams: string[];
}

export interface TeamsSection {
  rows: TeamRow[];
  /**
   * The active users of the rows: `people` each counted once, `counted` as the Active column adds
   * them up (a person who moved counts in each team they used the agent in).
   */
  active: { people: number; counted: number };
  /** Who counts in several teams, by name; empty where the reader may not see people (groups only). */
  movers: TeamMover[];
  /** Teams of the directory in the rows (not Unassigned; teams held back in one row counted each). */
  teams: number;
  /** The people the directory does not list: active users, seats, and how many people they are (one may be both). */
  unassigned: { active_users: number; seats: number; people: number; examples: string[] };
}

interface TeamAccumulator {
  costCenters: Set<string>;
  members: number;
  seats: number;
  /** Seats whose holder used the agent in the period, anywhere in the organization. */
  seatsUsed: number;
  active: Set<string>;
  credits: number;
  creditCents: number;
  seatCents: number;
  ratios: number[];
  delegation: Map<string, number>;
  repos: Set<string>;
  previousCredits: number;
  previousActive: number;
  /** Active users whose month delegation counts here (on their days in the team). */
  mixUsers: number;
}

/**
 * The teams of the run: credits, seats and money from the organization's one allocation (the
 * scope's cells in a scoped report), so the teams add up to the chargeback to the cent; null without
 * a directory.
 */
export function computeTeams(context: SectionContext): TeamsSection | null {
  const directory = context.options.inputs?.directory;
  const run = runOf(context);
  const allocation = run.allocation();
  if (!directory || !allocation) return null;
  const place = placementOf(directory);
  const scope = context.scope;
  const end = context.period.end;
  const teams = new Map<string, TeamAccumulator>();
  const team = (name: string) => {
    let t = teams.get(name);
    if (!t) {
      t = {
        costCenters: new Set(),
        members: 0,
        seats: 0,
        seatsUsed: 0,
        active: new Set(),
        credits: 0,
        creditCents: 0,
        seatCents: 0,
        ratios: [],
        delegation: new Map(),
        repos: new Set(),
        previousCredits: 0,
        previousActive: 0,
        mixUsers: 0,
      };
      teams.set(name, t);
    }
    return t;
  };
  for (const p of scope ? scopePeopleOn(directory, scope, end) : peopleOn(directory, end)) {
    const t = team(p.team);
    t.members++;
    t.costCenters.add(p.costCenter);
    for (const r of p.repositories) t.repos.add(r);
  }
  const unassigned = { active_users: 0, seats: 0, people: 0, examples: [] as string[] };
  const unassignedPeople = new Set<string>();
  // A seat is used when its holder used the agent, in the team or anywhere else (before a move).
  const { ids: activeIds, emails: activeEmails } = run.current.activeAnywhere;
  const usedAnywhere = (person: string) =>
    person.startsWith('id:') ? activeIds.has(person.slice(3)) : activeEmails.has(person);
  for (const cell of run.cells()) {
    const t = team(cell.team);
    t.credits += cell.credits;
    t.seats += cell.seats;
    if (cell.seats > 0 && usedAnywhere(cell.person)) t.seatsUsed += cell.seats;
    t.creditCents += cell.creditCents;
    t.seatCents += cell.seatCents;
    if (cell.active) t.active.add(cell.person);
    if (cell.row === null) {
      unassigned.seats += cell.seats;
      if (hasSeatOrActivity(cell)) unassignedPeople.add(cell.person);
    }
  }
  // A team's autonomy and delegation come from its people's rows on the days they were in it, as
  // its own report computes them: a person who moved counts to each team with their days there.
  const allCredits = [...teams.values()].reduce((a, t) => a + t.credits, 0);
  for (const [name, b] of behaviourByGroup(context.shared.userDays, context.period, place, (p) => p.team)) {
    const t = team(name);
    t.ratios = b.ratios;
    t.delegation = b.levels;
    t.mixUsers = b.users;
  }
  // The active users the directory does not list at the period's end (for the data-quality finding).
  for (const u of context.shared.users) {
    if (u.active_days === 0 || place(u.email, end).person) continue;
    unassigned.active_users++;
    unassignedPeople.add(u.email?.toLowerCase() ?? `id:${u.user_id}`);
    if (unassigned.examples.length < 5) unassigned.examples.push(u.email ?? u.user_id);
  }
  const byTeam = (span: DayRange) => sumsByGroup(context.shared.userDays, span, place, (p) => p.team);
  const previous = context.comparison ? byTeam(context.comparison) : null;
  for (const [name, sums] of previous ?? []) {
    const t = team(name);
    t.previousCredits += sums.credits;
    t.previousActive += sums.active.size;
  }
  const latest = latestReports(context.snapshot.readiness, context.period.end);
  const creditPriced = allocation.creditCents !== null;
  const seatPriced = allocation.seatCents !== null;
  const rows = [...teams].map(([name, t]): TeamRow => {
    const scores = [...t.repos]
      .map((url) => latest.get(url))
      .filter((r) => r !== undefined)
      .map((r) => readinessScores(r, context.shared.levelMapping).score)
      .filter((s): s is number => s !== null);
    const hasPrevious = previous !== null && context.comparison !== null;
    const creditCost = creditPriced ? t.creditCents / 100 : null;
    return {
      team: name,
      cost_center: name === UNASSIGNED ? UNASSIGNED : [...t.costCenters].sort().join(', '),
      members: t.members,
      seats: t.seats,
      active_users: t.active.size,
      seat_utilization: t.seats > 0 ? t.seatsUsed / t.seats : null,
      credits: t.credits,
      cost: creditCost,
      credit_cost: creditCost,
      seat_cost: seatPriced ? t.seatCents / 100 : null,
      total_cost: creditPriced || seatPriced ? (t.creditCents + t.seatCents) / 100 : null,
      share: allCredits > 0 ? t.credits / allCredits : null,
      autonomy_mean: t.ratios.length > 0 ? t.ratios.reduce((a, b) => a + b, 0) / t.ratios.length : null,
      // Every level, 0 where none (a team without active users has no mix).
      delegation:
        t.mixUsers === 0
          ? {}
          : Object.fromEntries(
              [...new Set([...DELEGATION_LEVELS, ...t.delegation.keys()])].map((level) => [
                level,
                (t.delegation.get(level) ?? 0) / t.mixUsers,
              ]),
            ),
      delegation_users: t.mixUsers,
      readiness_score: scores.length > 0 ? scores.reduce((a, b) => a + b, 0) / scores.length : null,
      repositories: scores.length,
      previous_credits: hasPrevious ? t.previousCredits : null,
      credits_change: hasPrevious ? relativeChange(t.credits, t.previousCredits) : null,
      previous_active_users: hasPrevious ? t.previousActive : null,
      active_users_change: hasPrevious ? t.active.size - t.previousActive : null,
    };
  });
  // Most credits first; Unassigned last, whatever it spent.
  rows.sort((a, b) =>
    a.team === UNASSIGNED
      ? 1
      : b.team === UNASSIGNED
        ? -1
        : b.credits - a.credits || (a.team < b.team ? -1 : 1),
  );
  unassigned.people = unassignedPeople.size;
  // Unassigned's members are the people the directory does not list (as the chargeback counts them).
  for (const r of rows) if (r.team === UNASSIGNED) r.members = unassigned.people;
  return {
    rows,
    ...teamMovers(teams, namesOf(context.snapshot.orgUsers)),
    teams: rows.filter((r) => r.team !== UNASSIGNED).length,
    unassigned,
  };
}

/**
 * The people counted as active in more than one team, by name, and what the Active column adds up
 * to against the people it counts: a reader sees why the teams' sum is more than the scope's.
 */
function teamMovers(
  teams: ReadonlyMap<string, TeamAccumulator>,
  nameOf: NameOf,
): Pick<TeamsSection, 'active' | 'movers'> {
  const teamsOf = new Map<string, string[]>();
  let counted = 0;
  for (const [name, t] of teams) {
    counted += t.active.size;
    for (const person of t.active) {
      const list = teamsOf.get(person);
      if (list) list.push(name);
      else teamsOf.set(person, [name]);
    }
  }
  const movers = [...teamsOf]
    .filter(([, list]) => list.length > 1)
    .map(([person, list]): TeamMover => {
      const who = person.startsWith('id:') ? { id: person.slice(3) } : { email: person };
      return { name: nameOf(who), email: who.email ?? null, teams: list.sort() };
    })
    .sort((a, b) => (a.name ?? a.email ?? '').localeCompare(b.name ?? b.email ?? ''));
  return { active: { people: teamsOf.size, counted }, movers };
}

function teamChecks(context: SectionContext, data: TeamsSection | null): DataQualityFinding[] {
  if (!data || (data.unassigned.active_users === 0 && data.unassigned.seats === 0)) return [];
  const { active_users, seats, people, examples } = data.unassigned;
  const directory = context.inputs.directory?.source || 'the people directory';
  return [
    {
      kind: 'directory_unassigned',
      message: `${people === 1 ? '1 person' : `${people} people`} (active users ${active_users}, seats ${seats}) ${people === 1 ? 'is' : 'are'} not in ${directory} and count as "Unassigned".`,
      // The active ones, by address, are the finding's details (every format lists them once).
      count: people,
      details: examples,
    },
  ];
}

/** Why a team's autonomy or delegation cell can be empty in every row (the workbook's note says it). */
const HELD_BACK_REASON =
  'nobody to compute it from, or, in a groups-only report, held back for privacy: fewer people than the minimum group size make it, or it would give such a team\u2019s away by subtraction';

/** Where the teams' rows held back for privacy are shown together. */
export const HELD_BACK_TEAMS = 'Other teams (held back: small groups)';

/**
 * The teams as a reader who may not see each person's rows may see them: teams under the minimum
 * group size held back into one row of sums, and delegation levels under it left out of each mix.
 * The teams of the reader's own budget (a team's report: its team; a cost center's report: every
 * team in it) are never held back: the minimum protects people in someone else's report, not the
 * totals of the budget the reader owns.
 */
export function protectTeams(data: TeamsSection | null, rules: SectionPrivacy): TeamsSection | null {
  if (!data || rules.personRows) return data;
  const own = (r: TeamRow) =>
    (rules.scope?.kind === 'team' && r.team === rules.scope.name) ||
    (rules.scope?.kind === 'cost-center' && r.cost_center.split(', ').includes(rules.scope.name));
  // A team's figures come from its active users: those are the people they could single out.
  const { kept, held, people } = holdBackSmallGroups(
    data.rows,
    (r) => (own(r) ? null : r.active_users),
    rules.minGroupSize,
  );
  rules.heldBack('Teams', held.length, people);
  // A team kept whole for its budget may still be too few people to describe how they work: its
  // autonomy mean and delegation mix (over the people in it at the period's end) are then held back,
  // zeros and all, as a mix's zeros would tell which levels those few people are at. The report
  // shows its scope's own autonomy and mix, so the next smallest teams' are held back with them until
  // they make the minimum: else the scope's figure less the other teams' would tell theirs.
  const { held: few, people: fewPeople } = holdBackSmallGroups(
    kept,
    (r) => (r.delegation_users > 0 ? r.delegation_users : null),
    rules.minGroupSize,
  );
  rules.heldBack('Teams: autonomy and delegation', few.length, fewPeople);
  // Each mix's levels under the minimum are held back (with the next smallest of the team's, see
  // holdBackMix); then, level by level, the cells held back across the teams must make the minimum
  // too (the scope's count of a level less the teams' shown would tell a lone cell), so the next
  // smallest cell of that level is held back as well.
  // (The teams whose whole mix is held back count as cells held back of every level.)
  const counts = kept.map((r) =>
    Object.fromEntries(
      Object.entries(r.delegation).map(([level, share]) => [level, Math.round(share * r.delegation_users)]),
    ),
  );
  const heldLevels = counts.map(
    (c, t) => new Set(few.includes(kept[t]!) ? Object.keys(c) : holdBackMix(c, rules.minGroupSize).held),
  );
  const allLevels = [...new Set(counts.flatMap((c) => Object.keys(c)))];
  for (const level of allLevels) {
    const cells = counts.map((c, t) => ({ t, size: c[level] ?? 0 })).filter((c) => c.size > 0);
    let people = cells.filter((c) => heldLevels[c.t]!.has(level)).reduce((a, c) => a + c.size, 0);
    // A cell the team's own mix shows has the minimum already: holding it back keeps its row's rule.
    const shown = cells
      .filter((c) => !heldLevels[c.t]!.has(level))
      .sort((a, b) => a.size - b.size || a.t - b.t);
    for (const c of shown) {
      if (people === 0 || people >= rules.minGroupSize) break;
      heldLevels[c.t]!.add(level);
      people += c.size;
    }
  }
  const levels = { held: 0, people: 0 };
  heldLevels.forEach((set, t) => {
    if (few.includes(kept[t]!)) return; // listed under "Teams: autonomy and delegation"
    for (const level of set) {
      if ((counts[t]![level] ?? 0) === 0) continue;
      levels.held += 1;
      levels.people += counts[t]![level]!;
    }
  });
  const rows = kept.map((r, t) => {
    if (few.includes(r)) return { ...r, autonomy_mean: null, delegation: {} };
    const hidden = heldLevels[t]!;
    return {
      ...r,
      delegation: Object.fromEntries(
        Object.keys(r.delegation)
          .filter((l) => !hidden.has(l))
          .map((l) => [l, r.delegation[l]!]),
      ),
    };
  });
  rules.heldBack('Teams: delegation levels', levels.held, levels.people);
  if (held.length > 0) {
    const sum = (f: (r: TeamRow) => number | null) =>
      held.some((r) => f(r) === null) ? null : held.reduce((a, r) => a + f(r)!, 0);
    // Money adds up in whole cents.
    const cents = (f: (r: TeamRow) => number | null) => {
      const total = sum((r) => (f(r) === null ? null : Math.round(f(r)! * 100)));
      return total === null ? null : total / 100;
    };
    const seats = sum((r) => r.seats) ?? 0;
    const seatsUsed = sum((r) => Math.round((r.seat_utilization ?? 0) * r.seats)) ?? 0;
    const active = sum((r) => r.active_users) ?? 0;
    const credits = sum((r) => r.credits) ?? 0;
    const previousCredits = sum((r) => r.previous_credits);
    const previousActive = sum((r) => r.previous_active_users);
    rows.push({
      team: HELD_BACK_TEAMS,
      cost_center: '',
      members: sum((r) => r.members) ?? 0,
      seats,
      active_users: active,
      seat_utilization: seats > 0 ? seatsUsed / seats : null,
      credits,
      cost: cents((r) => r.cost),
      credit_cost: cents((r) => r.credit_cost),
      seat_cost: cents((r) => r.seat_cost),
      total_cost: cents((r) => r.total_cost),
      share: sum((r) => r.share),
      autonomy_mean: null,
      delegation: {},
      delegation_users: 0,
      readiness_score: null,
      repositories: 0,
      previous_credits: previousCredits,
      credits_change: relativeChange(credits, previousCredits),
      previous_active_users: previousActive,
      active_users_change: previousActive === null ? null : active - previousActive,
    });
  }
  return { ...data, rows, movers: [], unassigned: { ...data.unassigned, examples: [] } };
}

export const teams = defineSection<TeamsSection | null>({
  id: 'teams',
  title: 'Teams',
  // In the short report where the scope has several teams: one team's page says what the brief says.
  short: (data) => (data?.rows.length ?? 0) > 1,
  compute: computeTeams,
  checks: teamChecks,
  privacy: protectTeams,
  definitions: [
    {
      id: 'teams',
      term: 'Teams',
      text: 'Teams come from the people directory (--directory): users and seats are matched to it by e-mail in any case (a user and their seat go by one e-mail: the latest one on their /users rows, else the seat\u2019s own, in both months and in every report); anyone it does not list is "Unassigned" (and counted under data quality). A team\u2019s seats are the seats of its people at the period\u2019s end; its active users, credits, autonomy and delegation are those of its people\u2019s /users rows on the days they were in it (autonomy = mean of their tool calls / user messages over those days); its seat utilization = its seats used / its seats (a seat is used when its holder used the agent in the period, in the team or before moving in); its delegation mix = the share of its active users at each primary level (a level held back for privacy is left empty, never 0; in a groups-only report, a team whose autonomy and delegation fewer people than the minimum group size make shows neither); its readiness = the mean latest score of the repositories the directory names for it. Its credit cost, seat cost and total cost are its cells\u2019 share of the organization\u2019s one allocation (see Chargeback), in whole cents, so the teams of a cost center add up to its bill. A person who moved team during the month counts to each team on the days they were in it: their credits are split by day, and one active in both teams is an active user of both, so the teams\u2019 active users can add up to more than their cost center\u2019s, which counts each person once. Change = on the previous month: credits relatively, active users as a difference. Share = the team\u2019s credits / the credits of the report\u2019s teams together: the organization\u2019s in its report, the scope\u2019s in a scoped one (the chargeback\u2019s share is always of the organization\u2019s).',
    },
  ],
  partial: { file: fileURLToPath(new URL('./teams.hbs', import.meta.url)) },
  sheets: [
    {
      name: 'Teams',
      columns: () => [
        field<TeamRow, 'team'>('team', 'text'),
        field('cost_center', 'text'),
        field('members', 'integer'),
        field('seats', 'integer'),
        field('active_users', 'integer'),
        field('seat_utilization', 'share'),
        field('credits', 'integer'),
        // What each cost includes is in its name: credits, seats, both.
        field('credit_cost', 'currency'),
        field('seat_cost', 'currency'),
        field('total_cost', 'currency'),
        field('share', 'share'),
        { ...field<TeamRow, 'autonomy_mean'>('autonomy_mean', 'decimal'), emptyReason: HELD_BACK_REASON },
        ...DELEGATION_LEVELS.map((level) => ({
          header: `delegation_${level.replace('-', '_')}`,
          kind: 'share' as const,
          // Every level is in a mix, 0 where nobody is: a level missing was held back for privacy.
          value: (r: TeamRow) => r.delegation[level] ?? null,
          emptyReason: HELD_BACK_REASON,
        })),
        {
          ...field<TeamRow, 'readiness_score'>('readiness_score', 'share'),
          emptyReason: 'the directory names no repository with a readiness report for these teams',
        },
        field('repositories', 'integer'),
        field('previous_credits', 'integer'),
        field('credits_change', 'change'),
        field('previous_active_users', 'integer'),
        field('active_users_change', 'delta'),
      ],
      rows: (model) => (model.sections?.teams as TeamsSection | undefined)?.rows ?? [],
    },
  ],
});
