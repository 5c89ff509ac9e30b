/**
 * A people directory of the synthetic organization, as HR and finance keep one: each user's team,
 * cost center and manager, the repositories each team owns, and who owns each cost center. It has
 * a real hierarchy: a head (user 0), two directors (users 1 and 2) who make up a Leadership team
 * smaller than the usual minimum group size, a lead per team (its first member) under a director,
 * squads of 24 under the team's lead, each led by its first member, and everyone else under their
 * squad's lead (a 10,000-person organization has about 400 managers). A few people moved team during the last complete month:
 * the directory is effective-dated (`valid_from`), with their old row and their new one. Derived from
 * the seed like everything else; a few users (about 1 in 25) are left out, as in any real directory
 * that lags behind.
 */
import { addDays, lastCompleteMonth, monthPeriod } from '@orgreport/api-core';
import type { Organization } from './organization.ts';
import { hash32 } from './prng.ts';

/** Teams and the cost center each belongs to. */
export const DIRECTORY_TEAMS: ReadonlyArray<{ team: string; costCenter: string }> = [
  { team: 'Platform', costCenter: 'CC-100 Engineering' },
  { team: 'Payments', costCenter: 'CC-100 Engineering' },
  { team: 'Mobile', costCenter: 'CC-200 Product' },
  { team: 'Web', costCenter: 'CC-200 Product' },
  { team: 'Data', costCenter: 'CC-300 Data & AI' },
  { team: 'Security', costCenter: 'CC-400 Operations' },
];

/** The head's and directors' team: three people, under the default minimum group size of 5. */
export const LEADERSHIP = { team: 'Leadership', costCenter: 'CC-400 Operations' } as const;

/** One line of the directory. */
export interface DirectoryEntry {
  email: string;
  team: string;
  costCenter: string;
  /** The person's manager (empty for the head). */
  manager: string;
  location: string;
  repositories: string;
  /** Who owns the person's cost center (a director, or the head for Operations). */
  costCenterOwner: string;
  /** The first day this row holds (empty: always); a person who moved has a row before and one after. */
  validFrom: string;
}

const LOCATIONS = ['Berlin', 'Lisbon', 'Toronto', 'Austin'];
const TAG_DIRECTORY = 0xd1;
/** Users 0..2: the head and the two directors. */
const LEADERS = 3;
/** People who moved team during the last complete month, at most. */
const MOVERS = 3;
/** People of a squad: a team's members are in squads of this many, each under its first member. */
const SQUAD = 24;

/** The director over each team: the first for engineering and operations, the second for product and data. */
const directorOf = (team: number) => (team === 2 || team === 3 || team === 4 ? 2 : 1);

/**
 * The directory of `org`: the leaders first, then every user but about 1 in 25, in index order; a
 * mover's old row comes before their new one.
 */
export function directoryOf(org: Organization): DirectoryEntry[] {
  const teamOf = (index: number) => hash32(org.seed, TAG_DIRECTORY, index) % DIRECTORY_TEAMS.length;
  const listed = (index: number) => index < LEADERS || hash32(org.seed, TAG_DIRECTORY + 1, index) % 25 !== 0;
  const email = (index: number) => org.identity(index).email;
  const location = (index: number) =>
    LOCATIONS[hash32(org.seed, TAG_DIRECTORY + 2, index) % LOCATIONS.length]!;
  // Each repository goes to the team that owns its kind, as a real directory has it.
  const repos = (t: number) =>
    org.repositories
      .filter((r) => r.team === DIRECTORY_TEAMS[t]!.team)
      .map((r) => r.url)
      .join(';');
  // Each team's lead is its first listed member after the leaders; the others are in squads of
  // SQUAD people in index order, each under its first member (the squad's lead, under the team's).
  const leads = new Map<number, number>();
  const squadLead = new Map<number, number>();
  const squadOf = new Map<number, { lead: number; size: number }>();
  for (let index = LEADERS; index < org.userCount; index++) {
    if (!listed(index)) continue;
    const t = teamOf(index);
    if (!leads.has(t)) {
      leads.set(t, index);
      continue;
    }
    const squad = squadOf.get(t);
    if (!squad || squad.size >= SQUAD) {
      squadOf.set(t, { lead: index, size: 1 });
      squadLead.set(index, index);
    } else {
      squad.size++;
      squadLead.set(index, squad.lead);
    }
  }
  const leaders = Math.min(LEADERS, org.userCount);
  const owner = (costCenter: string) =>
    email(
      Math.min(
        leaders - 1,
        costCenter === 'CC-200 Product' || costCenter === 'CC-300 Data & AI'
          ? 2
          : costCenter === LEADERSHIP.costCenter
            ? 0
            : 1,
      ),
    );
  const managerIn = (t: number, index: number) => {
    const lead = leads.get(t);
    if (lead === undefined || lead === index) return email(Math.min(directorOf(t), leaders - 1));
    const squad = squadLead.get(index);
    // A squad lead answers to the team's lead; a member to their squad's lead.
    return squad === undefined || squad === index ? email(lead) : email(squad);
  };
  // The movers: a few members (not leads), moved to the next team half-way through the last complete month.
  const period = monthPeriod(
    lastCompleteMonth(() => new Date(`${org.today}T12:00:00Z`)),
    {
      now: () => new Date(`${org.today}T12:00:00Z`),
    },
  );
  const moveDay = addDays(period.start, 14);
  const movers = new Set<number>();
  for (let index = LEADERS; index < org.userCount && movers.size < MOVERS; index++) {
    const t = teamOf(index);
    if (listed(index) && leads.get(t) !== index && hash32(org.seed, TAG_DIRECTORY + 3, index) % 17 === 0) {
      if (leads.has((t + 1) % DIRECTORY_TEAMS.length)) movers.add(index);
    }
  }

  const out: DirectoryEntry[] = [];
  for (let index = 0; index < leaders; index++) {
    out.push({
      email: email(index),
      team: LEADERSHIP.team,
      costCenter: LEADERSHIP.costCenter,
      manager: index === 0 ? '' : email(0),
      location: location(index),
      repositories: '',
      costCenterOwner: owner(LEADERSHIP.costCenter),
      validFrom: '',
    });
  }
  const row = (index: number, t: number, validFrom: string): DirectoryEntry => ({
    email: email(index),
    team: DIRECTORY_TEAMS[t]!.team,
    costCenter: DIRECTORY_TEAMS[t]!.costCenter,
    manager: managerIn(t, index),
    location: location(index),
    repositories: repos(t),
    costCenterOwner: owner(DIRECTORY_TEAMS[t]!.costCenter),
    validFrom,
  });
  for (let index = LEADERS; index < org.userCount; index++) {
    if (!listed(index)) continue;
    const t = teamOf(index);
    out.push(row(index, t, ''));
    if (movers.has(index)) out.push(row(index, (t + 1) % DIRECTORY_TEAMS.length, moveDay));
  }
  return out;
}

/** A CSV field, quoted when it must be (RFC 4180). */
const field = (value: string) => (/[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);

/** The columns of {@link directoryCsv}, in order. */
export const DIRECTORY_CSV_COLUMNS = [
  'email',
  'team',
  'cost_center',
  'manager',
  'location',
  'repositories',
  'cost_center_owner',
  'valid_from',
] as const;

/** The directory as the CSV file `--directory` reads (`email,team,cost_center,manager,...`). */
export function directoryCsv(org: Organization): string {
  const lines = [DIRECTORY_CSV_COLUMNS.join(',')];
  for (const e of directoryOf(org)) {
    lines.push(
      [e.email, e.team, e.costCenter, e.manager, e.location, e.repositories, e.costCenterOwner, e.validFrom]
        .map(field)
        .join(','),
    );
  }
  return `${lines.join('\r\n')}\r\n`;
}
