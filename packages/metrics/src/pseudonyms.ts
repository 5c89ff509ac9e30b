/**
 * Keyed pseudonyms: every e-mail, user id and name of a snapshot and a directory replaced by a
 * stable pseudonym made with HMAC-SHA256 under a key the caller holds (never written): the same
 * person gets the same pseudonym every month under the same key, so months still join, and nobody
 * without the key can tell who it is. Applied to the snapshot and the directory before anything is
 * computed, so no document, log line or message can carry the real identity.
 */
import { createHmac } from 'node:crypto';
import type { Snapshot, UserDayColumns } from '@orgreport/api-core';
import type { DirectoryPerson, PeopleDirectory } from './section.ts';

/** The domain of pseudonymous e-mails (reserved: it can never deliver). */
export const PSEUDONYM_DOMAIN = 'pseudonym.invalid';

/** Turns identities into pseudonyms under one key. */
export interface Pseudonymizer {
  email(email: string): string;
  id(id: string): string;
  /** A person's display name: their pseudonym's code (names single people out). */
  name(ofEmailOrId: string): string;
  /** A free text with every identity it knows replaced (row-check examples, notes). */
  text(text: string): string;
}

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

/** The first 12 base-32 characters of HMAC-SHA256(key, value). */
function code(key: string, value: string): string {
  const digest = createHmac('sha256', key).update(value).digest();
  let out = '';
  for (let i = 0; i < 12; i++) out += BASE32[digest[i]! & 31];
  return out;
}

/**
 * A pseudonymizer under `key` (at least 16 characters: a short key could be guessed by trying).
 *
 * @example
 * pseudonymizer(process.env.KEY!).email('Ann@Acme.test') // 'p-…@pseudonym.invalid', the same for 'ann@acme.test'
 */
export function pseudonymizer(key: string): Pseudonymizer {
  if (key.length < 16) throw new RangeError('a pseudonym key must be at least 16 characters long');
  const known = new Map<string, string>();
  const email = (e: string) => {
    const k = `e:${e.trim().toLowerCase()}`;
    let p = known.get(k);
    if (p === undefined) {
      p = `p-${code(key, k)}@${PSEUDONYM_DOMAIN}`;
      known.set(k, p);
      known.set(e.trim().toLowerCase(), p);
    }
    return p;
  };
  const id = (i: string) => {
    const k = `i:${i}`;
    let p = known.get(k);
    if (p === undefined) {
      p = `u-${code(key, k)}`;
      known.set(k, p);
      known.set(i.toLowerCase(), p);
    }
    return p;
  };
  return {
    email,
    id,
    name: (of) => `Person ${(of.includes('@') ? email(of) : id(of)).slice(2, 14)}`,
    text: (text) => text.replace(/[\p{L}\p{N}_.+\-@]+/gu, (token) => known.get(token.toLowerCase()) ?? token),
  };
}

/** The `/users` columns with ids and e-mails replaced. */
function pseudonymousUserDays(columns: UserDayColumns, p: Pseudonymizer): UserDayColumns {
  return {
    ...columns,
    user_id: columns.user_id.map((i) => p.id(i)),
    user_email: columns.user_email.map((e) => (e ? p.email(e) : e)),
  };
}

/**
 * The snapshot with every identity a pseudonym: users' ids, e-mails and names, the `/users` rows,
 * the control history's authors, and the identities the manifest's notes and row checks quote.
 */
export function pseudonymizeSnapshot(snapshot: Snapshot, p: Pseudonymizer): Snapshot {
  const orgUsers = snapshot.orgUsers.map((u) => ({
    ...u,
    id: p.id(u.id),
    ...(u.email !== undefined && { email: p.email(u.email) }),
    ...(u.firstName !== undefined && { firstName: u.firstName === null ? null : 'Person' }),
    ...(u.lastName !== undefined && {
      lastName: u.lastName === null ? null : p.name(u.email ?? u.id).slice(7),
    }),
  }));
  const userDays = pseudonymousUserDays(snapshot.userDays, p);
  const controls = snapshot.controls.map((c) => ({
    ...c,
    ...(c.user && {
      user: {
        ...c.user,
        ...(c.user.id && { id: p.id(c.user.id) }),
        ...(c.user.email && { email: p.email(c.user.email) }),
        ...(c.user.name && { name: p.name(c.user.email ?? c.user.id ?? c.user.name) }),
      },
    }),
  }));
  // Free texts last: by now every identity of the snapshot is known to the pseudonymizer.
  const manifest = {
    ...snapshot.manifest,
    notes: snapshot.manifest.notes.map(p.text),
    ...(snapshot.manifest.rowChecks && {
      rowChecks: snapshot.manifest.rowChecks.map((r) => ({ ...r, examples: r.examples.map(p.text) })),
    }),
  };
  const out: Snapshot = { ...snapshot, manifest, orgUsers, userDays, controls };
  if (snapshot.hookEvents)
    out.hookEvents = snapshot.hookEvents.map((e) => JSON.parse(p.text(JSON.stringify(e))));
  return out;
}

/** The directory with every e-mail (people and managers) a pseudonym; teams and cost centers stay. */
export function pseudonymizeDirectory(directory: PeopleDirectory, p: Pseudonymizer): PeopleDirectory {
  return {
    source: directory.source,
    people: directory.people.map(
      (person): DirectoryPerson => ({
        ...person,
        email: p.email(person.email),
        manager: person.manager ? p.email(person.manager) : null,
        attributes: Object.fromEntries(Object.entries(person.attributes).map(([k, v]) => [k, p.text(v)])),
      }),
    ),
  };
}
