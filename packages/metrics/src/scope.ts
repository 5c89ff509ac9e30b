/**
 * Scopes: the set of people a report is for, from the people directory. A scope is a team, a cost
 * center, everyone under a manager (through every level of the manager column), or the whole
 * organization. The directory may be effective-dated (a `valid_from` day per row: a person's row
 * holds from that day until their next row), so a person who moved team in the month counts to their
 * old team before the move and to the new one from it, and the teams still partition the month.
 */
import { type DayRange, isIsoDate } from '@orgreport/api-core';
import type { DirectoryPerson, PeopleDirectory } from './inputs.ts';

/** The kinds of scope. */
export const SCOPE_KINDS = ['org', 'team', 'cost-center', 'manager'] as const;
export type ScopeKind = (typeof SCOPE_KINDS)[number];

/** A scope as written: `org`, `team:NAME`, `cost-center:NAME`, `manager:EMAIL`. */
export interface ScopeSpec {
  kind: ScopeKind;
  /** The team, cost center or manager's e-mail; empty for `org`. */
  name: string;
}

/** A scope that cannot be resolved, or a directory whose manager column cannot be followed. */
export class ScopeError extends Error {
  override readonly name = 'ScopeError';
}

/** The organization: every person, and those the directory does not list. */
export const ORGANIZATION_SCOPE: ScopeSpec = { kind: 'org', name: '' };

/**
 * Reads `org`, `team:NAME`, `cost-center:NAME` or `manager:EMAIL`.
 *
 * @example
 * parseScope('team:Platform') // { kind: 'team', name: 'Platform' }
 */
export function parseScope(text: string): ScopeSpec {
  const trimmed = text.trim();
  if (trimmed.toLowerCase() === 'org') return ORGANIZATION_SCOPE;
  const colon = trimmed.indexOf(':');
  const kind = colon > 0 ? trimmed.slice(0, colon).toLowerCase() : '';
  const name = colon > 0 ? trimmed.slice(colon + 1).trim() : '';
  if (!(SCOPE_KINDS as readonly string[]).includes(kind) || kind === 'org' || name === '') {
    throw new ScopeError(
      `scope ${JSON.stringify(text)}: expected org, team:NAME, cost-center:NAME or manager:EMAIL`,
    );
  }
  return { kind: kind as ScopeKind, name };
}

/** A scope as written (`team:Platform`). */
export function scopeText(spec: ScopeSpec): string {
  return spec.kind === 'org' ? 'org' : `${spec.kind}:${spec.name}`;
}

/** A spell of a person in a scope: from `from` to `until`, both inclusive (`YYYY-MM-DD`). */
export interface ScopeSpell {
  from: string;
  until: string;
}

/**
 * A scope resolved against a directory over a range of days, as plain JSON (it travels in a scoped
 * snapshot's manifest): who is in it on which day, and what the reader is told about it.
 */
export interface ResolvedScope {
  kind: ScopeKind;
  /** The team, cost center or manager as the directory writes it; empty for `org`. */
  name: string;
  /** How the report names it: `Team Platform`, `Everyone under dana.lee@acme.test`. */
  label: string;
  /** A file-name-safe form: `team-platform`, `manager-dana-lee-acme-test`. */
  slug: string;
  /** People in the scope on the range's last day (the directory's rows then in effect). */
  people: number;
  /** Each member's spells in the scope inside the range, by lower-cased e-mail. */
  members: Record<string, ScopeSpell[]>;
  /** Repository URLs the directory names for the people in the scope on the range's last day. */
  repositories: string[];
}

/** A directory's rows by person and day, and the manager chains, over a range of days. */
export interface DirectoryIndex {
  directory: PeopleDirectory;
  range: DayRange;
  /** The first day of each segment of the range in which no row changes (sorted; the first is `range.start`). */
  segments: string[];
  /** Per segment: lower-cased e-mail -> the row in effect. */
  rows: Array<Map<string, DirectoryPerson>>;
  /** Per segment: lower-cased e-mail -> every manager above the person (lower-cased). */
  ancestors: Array<Map<string, ReadonlySet<string>>>;
}

const lower = (email: string) => email.trim().toLowerCase();

/** The row of each person in effect on `day`: their latest row whose `validFrom` is on or before it. */
function rowsOn(byPerson: ReadonlyMap<string, DirectoryPerson[]>, day: string): Map<string, DirectoryPerson> {
  const out = new Map<string, DirectoryPerson>();
  for (const [email, rows] of byPerson) {
    let current: DirectoryPerson | undefined;
    for (const row of rows) if (!row.validFrom || row.validFrom <= day) current = row;
    if (current) out.set(email, current);
  }
  return out;
}

/** Where a directory is wrong for following managers: rows named by their e-mail and the day. */
function managerChains(
  rows: ReadonlyMap<string, DirectoryPerson>,
  day: string,
  source: string,
): Map<string, ReadonlySet<string>> {
  const missing = new Map<string, string[]>();
  for (const [email, row] of rows) {
    if (row.manager && !rows.has(lower(row.manager))) {
      const list = missing.get(lower(row.manager)) ?? [];
      list.push(email);
      missing.set(lower(row.manager), list);
    }
  }
  if (missing.size > 0) {
    const lines = [...missing].slice(0, 20).map(([m, who]) => {
      const shown = who.slice(0, 5).join(', ') + (who.length > 5 ? ` and ${who.length - 5} more` : '');
      return `  ${m} (manager of ${shown}) is not a person of the directory`;
    });
    throw new ScopeError(
      `${source}: the manager column names people the directory does not list (on ${day}); add them as rows or correct the manager column:\n${lines.join('\n')}`,
    );
  }
  const chains = new Map<string, ReadonlySet<string>>();
  const chainOf = (start: string): ReadonlySet<string> => {
    const known = chains.get(start);
    if (known) return known;
    const path: string[] = [];
    const seen = new Set<string>();
    let at: string | undefined = start;
    while (at !== undefined && !chains.has(at)) {
      if (seen.has(at)) {
        const cycle = path.slice(path.indexOf(at));
        throw new ScopeError(
          `${source}: the manager column goes round in a circle (on ${day}): ${[...cycle, at].join(' -> ')}; correct the manager of one of these rows`,
        );
      }
      seen.add(at);
      path.push(at);
      const manager: string | null | undefined = rows.get(at)?.manager;
      at = manager ? lower(manager) : undefined;
    }
    // Fill in from the top down: each person's chain is their manager and the manager's chain.
    let above: ReadonlySet<string> = at !== undefined ? (chains.get(at) ?? new Set()) : new Set();
    let aboveEmail = at;
    for (let i = path.length - 1; i >= 0; i--) {
      const email = path[i]!;
      const chain = new Set(above);
      if (aboveEmail !== undefined) chain.add(aboveEmail);
      chains.set(email, chain);
      above = chain;
      aboveEmail = email;
    }
    return chains.get(start)!;
  };
  for (const email of rows.keys()) chainOf(email);
  return chains;
}

/**
 * Indexes a directory over a range of days: the rows in effect in each segment of the range in which
 * none changes, and (with `managers`) every person's chain of managers, checked: a manager who is
 * not a person of the directory, or a chain that goes round in a circle, is a {@link ScopeError}
 * naming the rows.
 */
export function indexDirectory(
  directory: PeopleDirectory,
  range: DayRange,
  options: { managers?: boolean } = {},
): DirectoryIndex {
  const byPerson = new Map<string, DirectoryPerson[]>();
  for (const person of directory.people) {
    const email = lower(person.email);
    const rows = byPerson.get(email) ?? [];
    rows.push(person);
    byPerson.set(email, rows);
  }
  const changes = new Set<string>();
  for (const rows of byPerson.values()) {
    rows.sort((a, b) => ((a.validFrom ?? '') < (b.validFrom ?? '') ? -1 : 1));
    for (const r of rows) {
      if (r.validFrom && r.validFrom > range.start && r.validFrom <= range.end) changes.add(r.validFrom);
    }
  }
  const segments = [range.start, ...[...changes].sort()];
  const rows = segments.map((day) => rowsOn(byPerson, day));
  const ancestors = options.managers
    ? rows.map((r, i) => managerChains(r, segments[i]!, directory.source))
    : [];
  return { directory, range, segments, rows, ancestors };
}

/** The last day of segment `i` inside the range. */
function segmentEnd(index: DirectoryIndex, i: number): string {
  const next = index.segments[i + 1];
  if (next === undefined) return index.range.end;
  const d = new Date(`${next}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - 1);
  return d.toISOString().slice(0, 10);
}

/** A file-name-safe form of a text. */
function slugOf(text: string): string {
  return (
    text
      .normalize('NFKD')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60)
      .replace(/-+$/, '') || 'scope'
  );
}

/** The names a kind of scope may take in the index (teams, cost centers, managers), as the directory writes them. */
export function scopeNames(index: DirectoryIndex, kind: Exclude<ScopeKind, 'org'>): string[] {
  const names = new Map<string, string>();
  for (const rows of index.rows) {
    for (const row of rows.values()) {
      const name = kind === 'team' ? row.team : kind === 'cost-center' ? row.costCenter : row.manager;
      if (name) names.set(kind === 'manager' ? lower(name) : name.toLowerCase(), name);
    }
  }
  return [...names.values()].sort((a, b) => a.localeCompare(b));
}

/**
 * Resolves a scope over the index's range: its members with their spells, its label, its size on the
 * range's last day and the repositories of its people. A team, cost center or manager the directory
 * does not know is a {@link ScopeError} listing those it knows.
 *
 * @example
 * resolveScope(indexDirectory(directory, period, { managers: true }), parseScope('manager:dana@acme.test'))
 */
export function resolveScope(index: DirectoryIndex, spec: ScopeSpec): ResolvedScope {
  if (spec.kind === 'org') {
    throw new ScopeError('the organization is not resolved against the directory: it is every person');
  }
  if (spec.kind === 'manager' && index.ancestors.length === 0) {
    throw new ScopeError('manager scopes need an index built with { managers: true }');
  }
  const names = scopeNames(index, spec.kind);
  const wanted = spec.kind === 'manager' ? lower(spec.name) : spec.name.toLowerCase();
  const name = names.find((n) => (spec.kind === 'manager' ? lower(n) : n.toLowerCase()) === wanted);
  if (name === undefined) {
    const what = { team: 'team', 'cost-center': 'cost center', manager: 'manager' }[spec.kind];
    const shown = names.slice(0, 30).join(', ') + (names.length > 30 ? `, ... (${names.length} in all)` : '');
    throw new ScopeError(
      `${index.directory.source}: no ${what} ${JSON.stringify(spec.name)} in the directory${names.length > 0 ? `; it knows ${shown}` : ''}`,
    );
  }
  const inScope = (segment: number, email: string, row: DirectoryPerson): boolean => {
    if (spec.kind === 'team') return row.team === name;
    if (spec.kind === 'cost-center') return row.costCenter === name;
    return index.ancestors[segment]!.get(email)?.has(lower(name)) ?? false;
  };
  const members: Record<string, ScopeSpell[]> = {};
  const last = index.segments.length - 1;
  let people = 0;
  const repositories = new Set<string>();
  index.rows.forEach((rows, segment) => {
    const from = index.segments[segment]!;
    const until = segmentEnd(index, segment);
    for (const [email, row] of rows) {
      if (!inScope(segment, email, row)) continue;
      const spells = members[email] ?? [];
      members[email] = spells;
      const previous = spells[spells.length - 1];
      // Consecutive segments of the same person join into one spell.
      if (previous && nextDay(previous.until) === from) previous.until = until;
      else spells.push({ from, until });
      if (segment === last) {
        people++;
        for (const r of row.repositories) repositories.add(r);
      }
    }
  });
  const label =
    spec.kind === 'team'
      ? `Team ${name}`
      : spec.kind === 'cost-center'
        ? `Cost center ${name}`
        : `Everyone under ${name}`;
  return {
    kind: spec.kind,
    name,
    label,
    slug: slugOf(`${spec.kind}-${name}`),
    people,
    members,
    repositories: [...repositories].sort(),
  };
}

function nextDay(day: string): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

/** True when `email` is in the scope on `day`. */
export function inScopeOn(scope: ResolvedScope, email: string | null | undefined, day: string): boolean {
  if (!email) return false;
  const spells = scope.members[lower(email)];
  return spells?.some((s) => s.from <= day && day <= s.until) ?? false;
}

/** Checks a directory row's `valid_from` (a `YYYY-MM-DD` day, or none). */
export function isValidFrom(value: string | null | undefined): boolean {
  return value === null || value === undefined || isIsoDate(value);
}
