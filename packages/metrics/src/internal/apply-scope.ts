/**
 * A scope applied to a snapshot, once, before anything is computed: the scoped snapshot holds only
 * the scope's `/users` rows (each row kept when its person was in the scope on its day), the seats
 * of people who were in the scope at some point, and the readiness reports of the scope's
 * repositories. The analytics endpoints' daily totals and breakdowns belong to the whole
 * organization: they are left out, and the run computes the scope's daily series from its rows.
 */
import type { Snapshot, UserDayColumns } from '@orgreport/api-core';
import { USER_DAY_COLUMNS } from '@orgreport/api-core';
import { inScopeOn, type ResolvedScope } from '../scope.ts';

/** A scoped snapshot and what the run needs to know of the organization beside it. */
export interface ScopedInput {
  snapshot: Snapshot;
  /** The organization's snapshot the scope's was cut from (its allocation is every report's). */
  organization: Snapshot;
  scope: ResolvedScope;
  /** Days on which the organization's analytics endpoints returned data (a scope's day without rows is a 0, not a gap). */
  organizationDays: ReadonlySet<string>;
}

/** Each user's e-mail as the snapshot knows it: their latest non-null `/users` e-mail, else the seat's. */
function emailsById(snapshot: Snapshot): { given: Map<string, string>; keys: Map<string, string> } {
  const given = new Map<string, string>();
  for (const u of snapshot.orgUsers) if (u.email) given.set(u.id, u.email);
  const { user_id: ids, user_email: emails, date } = snapshot.userDays;
  const latest = new Map<string, string>();
  for (let i = 0; i < ids.length; i++) {
    const email = emails[i];
    if (!email) continue;
    const id = ids[i]!;
    const seen = latest.get(id);
    if (seen === undefined || date[i]! >= seen) {
      latest.set(id, date[i]!);
      given.set(id, email);
    }
  }
  const keys = new Map([...given].map(([id, email]) => [id, email.toLowerCase()]));
  return { given, keys };
}

/** Each user's e-mail, as given and as the key, made once per snapshot (a distribution scopes one snapshot many times). */
const knownEmails = new WeakMap<Snapshot, ReturnType<typeof emailsById>>();

function emailsOf(snapshot: Snapshot): ReturnType<typeof emailsById> {
  let known = knownEmails.get(snapshot);
  if (!known) {
    known = emailsById(snapshot);
    knownEmails.set(snapshot, known);
  }
  return known;
}

/** Row numbers of each user's `/users` rows, made once per snapshot. */
const rowsByUser = new WeakMap<UserDayColumns, Map<string, number[]>>();

function rowsById(snapshot: Snapshot): Map<string, number[]> {
  const known = rowsByUser.get(snapshot.userDays);
  if (known) return known;
  const byId = new Map<string, number[]>();
  const ids = snapshot.userDays.user_id;
  for (let i = 0; i < ids.length; i++) {
    const list = byId.get(ids[i]!);
    if (list) list.push(i);
    else byId.set(ids[i]!, [i]);
  }
  rowsByUser.set(snapshot.userDays, byId);
  return byId;
}

/**
 * Each user's lower-cased e-mail as the snapshot knows it (their latest non-null `/users` e-mail,
 * else the seat's), by user id: the one rule that places a person's rows and seat in a scope and in
 * the month's allocation.
 */
export function personEmails(snapshot: Snapshot): ReadonlyMap<string, string> {
  return emailsOf(snapshot).keys;
}

/** {@link personEmails} as the rows or the seat give them (not lower-cased): what a user row shows. */
export function userEmails(snapshot: Snapshot): ReadonlyMap<string, string> {
  return emailsOf(snapshot).given;
}

/** The snapshot's `/users` rows at `rows`, in that order, as columns. */
function pickRows(columns: UserDayColumns, rows: readonly number[]): UserDayColumns {
  const out = {} as Record<string, unknown[]>;
  for (const c of USER_DAY_COLUMNS) {
    const source = columns[c] as unknown[];
    const picked = new Array(rows.length);
    for (let k = 0; k < rows.length; k++) picked[k] = source[rows[k]!];
    out[c] = picked;
  }
  return out as unknown as UserDayColumns;
}

/** Days with a row in any analytics endpoint. */
function analyticsDays(snapshot: Snapshot): Set<string> {
  const days = new Set<string>();
  for (const rows of [snapshot.tokens, snapshot.tools, snapshot.activity, snapshot.productivity]) {
    for (const r of rows) days.add(r.date);
  }
  return days;
}

/**
 * The snapshot of a scope (see the module's description).
 *
 * @example
 * applyScope(snapshot, resolveScope(index, parseScope('team:Platform'))).snapshot.userDays.user_id.length
 */
export function applyScope(snapshot: Snapshot, scope: ResolvedScope): ScopedInput {
  const byId = rowsById(snapshot);
  const emails = personEmails(snapshot);
  const dates = snapshot.userDays.date;
  const rows: number[] = [];
  for (const [id, list] of byId) {
    const email = emails.get(id);
    if (!email || scope.members[email] === undefined) continue;
    for (const i of list) if (inScopeOn(scope, email, dates[i]!)) rows.push(i);
  }
  rows.sort((a, b) => a - b); // the snapshot's row order, so the scoped run reads rows as the full run does
  const repositories = new Set(scope.repositories);
  const scoped: Snapshot = {
    manifest: { ...snapshot.manifest },
    tokens: [],
    tools: [],
    activity: [],
    productivity: [],
    userDays: pickRows(snapshot.userDays, rows),
    // A seat is its user's: in the scope when the e-mail their rows give them is.
    orgUsers: snapshot.orgUsers.filter((u) => {
      const email = emails.get(u.id);
      return email !== undefined && scope.members[email] !== undefined;
    }),
    readiness: snapshot.readiness.filter((r) => repositories.has(r.repoUrl)),
    controls: [],
  };
  return { snapshot: scoped, organization: snapshot, scope, organizationDays: analyticsDays(snapshot) };
}
