/**
 * Seats: organization users that existed on the period's last day, their utilization and the
 * dormant ones.
 */
import type { OrgUser } from '@orgreport/api-core';
import type { DormantSeat, SeatsSection } from '../../model.ts';
import { displayName } from './people-names.ts';
import { endOfDayMs } from './span.ts';

/** The seats at the end of `day`: organization users created on or before it (or without a creation date). */
export function seatsAt(orgUsers: readonly OrgUser[], day: string): OrgUser[] {
  const limit = endOfDayMs(day);
  return orgUsers.filter((u) => {
    if (!u.createdAt) return true;
    const t = Date.parse(u.createdAt);
    return Number.isNaN(t) || t < limit;
  });
}

/** True when the user existed before `day` began (created before it, or without a creation date). */
function existedBefore(u: OrgUser, day: string): boolean {
  if (!u.createdAt) return true;
  const t = Date.parse(u.createdAt);
  return Number.isNaN(t) || t < Date.parse(`${day}T00:00:00Z`);
}

/** True when the seat's holder is among `active`, by id or e-mail (any case). */
export function isActiveHolder(
  user: OrgUser,
  active: { ids: ReadonlySet<string>; emails: ReadonlySet<string> },
): boolean {
  return active.ids.has(user.id) || (!!user.email && active.emails.has(user.email.toLowerCase()));
}

/**
 * Seat statistics at the end of `day`: a seat is an organization user created on or before that
 * day (users without `createdAt` count as seats); it is active when its id or e-mail (any case)
 * belongs to an active user of the span. A dormant seat is a candidate to reclaim when it was idle
 * for two whole months: it existed before `idleSince` (the month before's first day) began and had
 * no activity on any fetched day; a seat created since is never one, whatever it did.
 *
 * @example
 * seatStats(orgUsers, '2026-03-31', new Set(['u-1']), new Set(['a@x.test']), 1, lastActiveOf, '2026-02-01')
 */
export function seatStats(
  orgUsers: readonly OrgUser[],
  day: string,
  activeIds: ReadonlySet<string>,
  activeEmails: ReadonlySet<string>,
  activeUsers: number,
  lastActive: (user: OrgUser) => string | null = () => null,
  idleSince: string | null = null,
): SeatsSection {
  const seats = seatsAt(orgUsers, day);
  const dormant: DormantSeat[] = seats
    .filter((u) => !isActiveHolder(u, { ids: activeIds, emails: activeEmails }))
    .map((u) => {
      const last = lastActive(u);
      return {
        id: u.id,
        email: u.email ?? null,
        name: displayName(u),
        created_at: u.createdAt ?? null,
        last_active: last,
        last_sign_in: u.lastSignInAt ?? null,
        reclaim: last === null && idleSince !== null && existedBefore(u, idleSince),
      };
    })
    .sort((a, b) => ((a.email ?? a.id) < (b.email ?? b.id) ? -1 : 1));
  return {
    seats: seats.length,
    active_users: activeUsers,
    utilization: seats.length > 0 ? activeUsers / seats.length : null,
    dormant: dormant.length,
    reclaim_candidates: dormant.filter((d) => d.reclaim).length,
    dormant_users: dormant,
  };
}
