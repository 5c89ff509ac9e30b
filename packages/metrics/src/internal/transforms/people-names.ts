/**
 * People's names as the organization's users give them (`firstName` and `lastName`), found by user
 * id or e-mail: reports name people, not addresses.
 */
import type { OrgUser } from '@orgreport/api-core';

/** First and last name joined, null when the user has neither. */
export function displayName(u: Pick<OrgUser, 'firstName' | 'lastName'>): string | null {
  const name = [u.firstName, u.lastName]
    .filter((p): p is string => typeof p === 'string' && p.trim() !== '')
    .map((p) => p.trim())
    .join(' ');
  return name || null;
}

/** A person's name by id or e-mail (any case); null when the organization's users do not name them. */
export type NameOf = (person: { id?: string | null; email?: string | null }) => string | null;

const lookups = new WeakMap<readonly OrgUser[], NameOf>();

/**
 * The name lookup of a list of organization users, built once per list.
 *
 * @example
 * namesOf(snapshot.orgUsers)({ email: 'Dana.Lee@acme.test' }) // 'Dana Lee'
 */
export function namesOf(orgUsers: readonly OrgUser[]): NameOf {
  const known = lookups.get(orgUsers);
  if (known) return known;
  const byId = new Map<string, string>();
  const byEmail = new Map<string, string>();
  for (const u of orgUsers) {
    const name = displayName(u);
    if (name === null) continue;
    byId.set(u.id, name);
    if (u.email) byEmail.set(u.email.toLowerCase(), name);
  }
  const lookup: NameOf = (p) =>
    (p.id ? byId.get(p.id) : undefined) ?? (p.email ? byEmail.get(p.email.toLowerCase()) : undefined) ?? null;
  lookups.set(orgUsers, lookup);
  return lookup;
}
