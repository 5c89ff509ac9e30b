/**
 * A people directory of the synthetic organization, as finance keeps one: each user's team, cost
 * center and manager, and the repositories each team owns. Derived from the seed like everything
 * else; a few users (about 1 in 25) are left out, as in any real directory that lags behind.
 */
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

/** One line of the directory. */
export interface DirectoryEntry {
  email: string;
  team: string;
  costCenter: string;
  manager: string;
  location: string;
  repositories: string;
}

const LOCATIONS = ['Berlin', 'Lisbon', 'Toronto', 'Austin'];
const TAG_DIRECTORY = 0xd1;

/**
 * The directory of `org`: every user but about 1 in 25, in index order; each team's manager is its
 * first member, and the team's repositories are those whose index falls to it.
 */
export function directoryOf(org: Organization): DirectoryEntry[] {
  const teamOf = (index: number) => hash32(org.seed, TAG_DIRECTORY, index) % DIRECTORY_TEAMS.length;
  const managers = new Map<number, string>();
  const repos = (t: number) =>
    org.repositories
      .filter((_, i) => i % DIRECTORY_TEAMS.length === t)
      .map((r) => r.url)
      .join(';');
  const out: DirectoryEntry[] = [];
  for (let index = 0; index < org.userCount; index++) {
    if (hash32(org.seed, TAG_DIRECTORY + 1, index) % 25 === 0) continue; // not in the directory yet
    const t = teamOf(index);
    const { email } = org.identity(index);
    if (!managers.has(t)) managers.set(t, email);
    out.push({
      email,
      team: DIRECTORY_TEAMS[t]!.team,
      costCenter: DIRECTORY_TEAMS[t]!.costCenter,
      manager: managers.get(t)!,
      location: LOCATIONS[hash32(org.seed, TAG_DIRECTORY + 2, index) % LOCATIONS.length]!,
      repositories: repos(t),
    });
  }
  return out;
}

/** A CSV field, quoted when it must be (RFC 4180). */
const field = (value: string) => (/[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);

/** The directory as the CSV file `--directory` reads (`email,team,cost_center,manager,...`). */
export function directoryCsv(org: Organization): string {
  const lines = ['email,team,cost_center,manager,location,repositories'];
  for (const e of directoryOf(org)) {
    lines.push([e.email, e.team, e.costCenter, e.manager, e.location, e.repositories].map(field).join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}
