/**
 * Daily series of credits per scope, from the history: the organization's (`tokens_daily`), each
 * user's, and each team's and cost center's (their members' user days, members by the directory).
 * A series has a value for every day held (0 when the scope used nothing) and none for a day the
 * store does not hold, so a forecast never mistakes a missing day for a quiet one.
 */
import { eachDay, type IsoDate } from '@orgreport/api-core/dates';
import type { DailyValues } from './forecast.ts';
import type { Scope, UserCredits, WatchHistory, WatchPerson } from './types.ts';

/** A scope and its series; for a person, their e-mail and id. */
export interface ScopeSeries {
  scope: Scope;
  values: DailyValues;
  email?: string;
  userId?: string;
  /** Members' e-mails (lower case) of a team or cost center. */
  members?: string[];
}

/** Every day held, in order. */
export function heldDays(history: WatchHistory): IsoDate[] {
  return history.held.flatMap((r) => eachDay(r.start, r.end));
}

/** The last day held, or null when the store holds none. */
export function lastHeld(history: WatchHistory): IsoDate | null {
  return history.held.at(-1)?.end ?? null;
}

function zeros(days: readonly IsoDate[]): Map<IsoDate, number> {
  return new Map(days.map((d) => [d, 0]));
}

/** The organization's series (`tokens_daily` of the days held). */
export function organizationSeries(history: WatchHistory): ScopeSeries {
  const values = zeros(heldDays(history));
  for (const d of history.orgDays)
    if (values.has(d.date)) values.set(d.date, values.get(d.date)! + d.credits);
  return { scope: { kind: 'organization', name: history.orgId }, values };
}

/** A user's name in scopes and keys: the e-mail in lower case, else the id. */
export const userName = (row: Pick<UserCredits, 'email' | 'userId'>): string =>
  row.email ? row.email.toLowerCase() : row.userId;

/** Each user's series, by lower-case e-mail (or id without one). */
export function userSeries(history: WatchHistory): Map<string, ScopeSeries> {
  const days = heldDays(history);
  const out = new Map<string, ScopeSeries>();
  for (const row of history.userDays) {
    const name = userName(row);
    let s = out.get(name);
    if (!s) {
      s = {
        scope: { kind: 'user', name },
        values: zeros(days),
        ...(row.email ? { email: row.email.toLowerCase() } : {}),
        userId: row.userId,
      };
      out.set(name, s);
    }
    const values = s.values as Map<IsoDate, number>;
    if (values.has(row.date)) values.set(row.date, values.get(row.date)! + row.credits);
  }
  return out;
}

/** Each person's directory rows by lower-case e-mail, in the order they take effect. */
export function rowsByPerson(people: readonly WatchPerson[]): Map<string, WatchPerson[]> {
  const out = new Map<string, WatchPerson[]>();
  for (const p of people) {
    const email = p.email.toLowerCase();
    const rows = out.get(email) ?? [];
    rows.push(p);
    out.set(email, rows);
  }
  for (const rows of out.values()) rows.sort((a, b) => ((a.validFrom ?? '') < (b.validFrom ?? '') ? -1 : 1));
  return out;
}

/** The row in effect on `day`: the latest one that takes effect on or before it; none before the first. */
export function rowOn(rows: readonly WatchPerson[], day: IsoDate): WatchPerson | undefined {
  let current: WatchPerson | undefined;
  for (const row of rows) if (!row.validFrom || row.validFrom <= day) current = row;
  return current;
}

/**
 * Each team's or cost center's series: the sums of its members' user days, each day counted to the
 * group the person's directory row of that day names (someone who moved counts to each group on its
 * days). Members: everyone the directory places in the group on any day.
 */
export function groupSeries(
  history: WatchHistory,
  people: readonly WatchPerson[],
  kind: 'team' | 'cost_center',
): Map<string, ScopeSeries> {
  const days = heldDays(history);
  const groupOf = (p: WatchPerson) => (kind === 'team' ? p.team : p.costCenter);
  const rows = rowsByPerson(people);
  const out = new Map<string, ScopeSeries>();
  for (const [email, personRows] of rows) {
    for (const name of new Set(personRows.map(groupOf))) {
      let s = out.get(name);
      if (!s) {
        s = { scope: { kind, name }, values: zeros(days), members: [] };
        out.set(name, s);
      }
      s.members!.push(email);
    }
  }
  for (const row of history.userDays) {
    const personRows = row.email ? rows.get(row.email.toLowerCase()) : undefined;
    const inEffect = personRows && rowOn(personRows, row.date);
    if (!inEffect) continue;
    const values = out.get(groupOf(inEffect))!.values as Map<IsoDate, number>;
    if (values.has(row.date)) values.set(row.date, values.get(row.date)! + row.credits);
  }
  for (const s of out.values()) s.members!.sort();
  return out;
}
