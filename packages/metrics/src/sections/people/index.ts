/**
 * People: in a scoped report, the scope's people by name: who used the agent most, who used it on
 * one or two days only (someone to help), and the seats nobody used (those idle two whole months
 * to reclaim). Counted by the same rules as the figures (seats and dormant seats are the seats
 * section's); where the reader may not see the people's rows, the lists are withheld and say so.
 * Nothing in the organization's own report.
 */
import { fileURLToPath } from 'node:url';
import { type PersonMonth, type Run, runOf } from '../../internal/run.ts';
import type { DormantSeat, UserMonthRow } from '../../model.ts';
import type { SectionPrivacy } from '../../privacy.ts';
import { inScopeOn } from '../../scope.ts';
import { defineSection, type SectionContext } from '../../section.ts';

/** A person as a report names them: by name, with the e-mail that tells two of a name apart. */
export interface PersonRef {
  name: string | null;
  email: string | null;
}

/** A person's month in a scoped report's lists. */
export interface PersonRow extends PersonRef {
  credits: number;
  /** credits x price; null without a price. */
  cost: number | null;
  active_days: number;
  sessions: number;
  git_prs_created: number;
  primary_model: string | null;
}

/** A person of a scope who used the agent on few days: their month anywhere in the organization. */
export interface LowActivityPerson extends PersonRef, PersonMonth {}

export interface PeopleSection {
  /** People in the scope on the period's last day (the directory's). */
  people: number;
  /** People of the scope with activity in the period, in the scope. */
  active: number;
  /** Of `active`, those no longer in the scope on the period's last day (they moved out after). */
  activeMovedOut: number;
  /**
   * Holders of the scope's seats at the period's end who used the agent in the period only
   * before they moved in: active, but not in the scope's rows (see `SeatsSection.used_outside`).
   */
  activeOnlyBefore: number;
  /** The people with the most credits, at most {@link TOP_PEOPLE}. */
  top: PersonRow[];
  /**
   * People of the scope active on at least one and at most `maxDays` days of the period, counted
   * anywhere in the organization (a person who moved in mid-month is counted with their days before).
   */
  lowActivity: {
    maxDays: number;
    /** How many; null where the reader sees groups only and they are fewer than the minimum group size. */
    count: number | null;
    people: LowActivityPerson[];
  };
  /** The seats without activity in the period (the seats section's), and those to reclaim. */
  dormant: { count: number; reclaim: number; seats: DormantSeat[] };
  /** The reader may not see the people's rows: the lists are withheld (not empty). */
  withheld: boolean;
}

/** People listed by credits. */
export const TOP_PEOPLE = 10;
/** Most active days of a person the report offers help to. */
export const LOW_ACTIVITY_DAYS = 2;

export function personRow(u: UserMonthRow): PersonRow {
  return {
    name: u.name,
    email: u.email,
    credits: u.credits,
    cost: u.cost,
    active_days: u.active_days,
    sessions: u.sessions,
    git_prs_created: u.git_prs_created,
    primary_model: u.primary_model,
  };
}

/**
 * The people of a scope with activity on one or two days of the month, counted anywhere in the
 * organization (see `Run.monthAnywhere`), those active only before they moved in too: fewest days
 * first, then by name.
 */
export function lowActivityPeople(
  run: Pick<Run, 'users' | 'monthAnywhere' | 'current'>,
): LowActivityPerson[] {
  const here = run.users
    .filter((u) => u.active_days >= 1)
    .map((u) => ({ name: u.name, email: u.email, ...run.monthAnywhere({ id: u.user_id, email: u.email }) }));
  const before = (run.current.seats.used_outside ?? []).map(({ name, email, active_days, last_active }) => ({
    name,
    email,
    active_days,
    last_active,
  }));
  return [...here, ...before]
    .filter((u) => u.active_days >= 1 && u.active_days <= LOW_ACTIVITY_DAYS)
    .sort(
      (a, b) =>
        a.active_days - b.active_days || (a.name ?? a.email ?? '').localeCompare(b.name ?? b.email ?? ''),
    );
}

/** The scope's people; null in the organization's report. */
export function computePeople(context: SectionContext): PeopleSection | null {
  const scope = context.scope;
  if (!scope) return null;
  const run = runOf(context);
  const seats = run.current.seats;
  const active = run.users.filter((u) => u.active_days > 0);
  const low = lowActivityPeople(run);
  return {
    people: scope.people,
    active: active.length,
    activeMovedOut: active.filter((u) => !inScopeOn(scope, u.email, context.period.end)).length,
    activeOnlyBefore: seats.used_outside?.length ?? 0,
    top: active.slice(0, TOP_PEOPLE).map(personRow),
    lowActivity: { maxDays: LOW_ACTIVITY_DAYS, count: low.length, people: low },
    dormant: {
      count: seats.dormant,
      reclaim: seats.reclaim_candidates,
      // Reclaim candidates first: the list a reader acts on.
      seats: [...seats.dormant_users].sort((a, b) => Number(b.reclaim) - Number(a.reclaim)),
    },
    withheld: false,
  };
}

/** The lists withheld from a reader of groups; a count of people under the minimum group size too. */
export function protectPeople(data: PeopleSection | null, rules: SectionPrivacy): PeopleSection | null {
  if (!data || rules.personRows) return data;
  const low = data.lowActivity.count;
  const hideLow = low !== null && low > 0 && low < rules.minGroupSize;
  if (hideLow) rules.heldBack('People active on one or two days', 1, low);
  return {
    ...data,
    top: [],
    lowActivity: { ...data.lowActivity, count: hideLow ? null : low, people: [] },
    dormant: { ...data.dormant, seats: [] },
    withheld: true,
  };
}

export const people = defineSection<PeopleSection | null>({
  id: 'people',
  title: 'People',
  short: true,
  compute: computePeople,
  privacy: protectPeople,
  definitions: [
    {
      id: 'people',
      term: 'People',
      text: `A scoped report names its people by their first and last name as the organization\u2019s users give them (with the e-mail where two share a name, or where no name is given). Used the agent this month = people with activity (tool calls, messages or sessions above 0) on a day they were in the scope; those who hold one of its seats and used the agent only before they moved in are counted apart, as their use counts to where they were then. Top people = the ${TOP_PEOPLE} with the most credits in the period. Low activity = people of the scope active on one or two days of the period, counted anywhere in the organization (days before a move in too), with their last active day. Dormant seats and seats to reclaim are counted as on the seats page.`,
    },
  ],
  partial: { file: fileURLToPath(new URL('./people.hbs', import.meta.url)) },
});
