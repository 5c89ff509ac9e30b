/**
 * The computations every section of a report shares, made once per run: the user-day encoding, the
 * period's daily series, weeks and per-week behaviour, the figures of the period and of the
 * comparison period, and the per-user totals. Sections see the public part as
 * `SectionContext.shared`; the built-in sections reach the rest with {@link runOf}.
 */
import type { DayRange, MonthPeriod, OrgUser, Snapshot } from '@orgreport/api-core';
import type { ColumnTable } from 'arquero';
import { applyFigureRules } from '../figure-rules.ts';
import type {
  AutonomyMix,
  ChangeFact,
  ControlsSection,
  DailyRow,
  Figure,
  ReportModel,
  SeatsSection,
  SeatUsedOutside,
  SpanBehaviour,
  UserMonthRow,
  WeeklyRow,
} from '../model.ts';
import { DEFAULT_CURRENCY, DEFAULT_LEVEL_MAPPING, DEFAULT_TOP_N, type ReportOptions } from '../options.ts';
import { inScopeOn, type ResolvedScope } from '../scope.ts';
import type { SharedComputations } from '../section.ts';
import { personEmails, type ScopedInput, userEmails } from './apply-scope.ts';
import {
  type AllocationCell,
  type MonthAllocation,
  monthAllocation,
  personShares,
  scopeCells,
} from './transforms/allocation.ts';
import { shareCents } from './transforms/attribution.ts';
import { autonomyMix } from './transforms/autonomy-mix.ts';
import { autonomyStats, autonomyStatsAt, userAutonomyRatios } from './transforms/autonomy-stats.ts';
import { snapshotControlChanges } from './transforms/controls.ts';
import { byDate, dailySeries } from './transforms/daily-series.ts';
import { usersByDay } from './transforms/data-quality.ts';
import { delegationMix, primaryDelegation } from './transforms/delegation.ts';
import { type FigureValues, headlineFigures } from './transforms/figures.ts';
import { displayName, namesOf } from './transforms/people-names.ts';
import { readinessAt, type readinessScores, snapshotReadiness } from './transforms/readiness.ts';
import { isActiveHolder, seatStats, seatsAt } from './transforms/seats.ts';
import { inSpan, ratioOrNull, type Span } from './transforms/span.ts';
import { columnValues, rowsWhere, sumBy, withRatios } from './transforms/sum-by.ts';
import { encodeUserDays, perUserActivity, type UserDayData, withinSpan } from './transforms/user-days.ts';
import { userSums, userTotals } from './transforms/user-totals.ts';
import { userWeekLevels } from './transforms/user-week-levels.ts';
import { usersDailySeries } from './transforms/users-daily-series.ts';
import { dauStats, sumDaily, weeklyRollup, weekSpans } from './transforms/weekly-rollup.ts';
import { whatChanged } from './transforms/what-changed.ts';

/**
 * A user's last day with activity in the snapshot, found by id or e-mail (any case); null when
 * none. The lookups are built once per encoding.
 */
const lastActiveLookups = new WeakMap<
  UserDayData,
  (user: { id: string; email?: string | null }) => string | null
>();
function lastActiveOf(data: UserDayData): (user: { id: string; email?: string | null }) => string | null {
  const known = lastActiveLookups.get(data);
  if (known) return known;
  const byId = new Map<string, number>();
  const byEmail = new Map<string, number>();
  data.userIds.forEach((id, uid) => {
    const day = data.lastActiveDay[uid] ?? Number.NEGATIVE_INFINITY;
    if (day === Number.NEGATIVE_INFINITY) return;
    byId.set(id, day);
    const email = data.emails[uid]?.toLowerCase();
    if (email) byEmail.set(email, Math.max(day, byEmail.get(email) ?? day));
  });
  const lookup = (user: { id: string; email?: string | null }) => {
    const day = Math.max(
      byId.get(user.id) ?? Number.NEGATIVE_INFINITY,
      (user.email && byEmail.get(user.email.toLowerCase())) || Number.NEGATIVE_INFINITY,
    );
    return day === Number.NEGATIVE_INFINITY ? null : new Date(day * 86_400_000).toISOString().slice(0, 10);
  };
  lastActiveLookups.set(data, lookup);
  return lookup;
}

/** What one span's figures come to (the period's, or the comparison period's). */
export interface SpanSummary {
  values: FigureValues;
  autonomyUsers: number;
  seats: SeatsSection;
  /** The scored latest readiness report of each repository at the span's end. */
  repos: ReturnType<typeof readinessScores>[];
  /** The span's active users: their ids and lower-cased e-mails. */
  active: { ids: Set<string>; emails: Set<string> };
  /**
   * The span's active users anywhere in the organization: the same as `active` in the
   * organization's report; in a scope's, also those active only outside it (see `holdersActivity`).
   */
  activeAnywhere: ActiveIdentities;
}

/** Everything a run computes once and its sections share. */
export interface Run {
  snapshot: Snapshot;
  options: ReportOptions;
  period: MonthPeriod;
  comparison: MonthPeriod | null;
  /** True when the comparison period exists and the snapshot holds analytics data for it. */
  comparisonHasData: boolean;
  mapping: Readonly<Record<string, number>>;
  topN: number;
  price: number | null;
  pricing: ReportModel['pricing'];
  userDays: UserDayData;
  /** The encoded `/users` rows inside the period. */
  periodRows: ColumnTable;
  /** `/users` sums of each day of the period (for the daily-total check). */
  perDayUsers: Map<string, Record<string, number>>;
  rows: SharedComputations['rows'];
  /** Days of the period that have `/activity` rows. */
  activityDates: ReadonlySet<string>;
  daily: DailyRow[];
  weekly: WeeklyRow[];
  controls: ControlsSection;
  /** Per-user, per-week rows by primary level (see userWeekLevels). */
  weekLevels: ColumnTable;
  weekBehaviour: SpanBehaviour[];
  /** Each user's primary delegation level over the month. */
  monthPrimary: ColumnTable;
  /** The autonomy-level mix of the daily series over a span. */
  mixOf(span: DayRange): AutonomyMix;
  current: SpanSummary;
  /** The comparison period's summary; null without one or without data in it. */
  previous: SpanSummary | null;
  figures: Figure[];
  /** The facts of the "what changed" paragraph. */
  whatChanged: ChangeFact[];
  users: UserMonthRow[];
  /** A value computed once per run under `key` (for a section's computation and its checks). */
  once<T>(key: string, compute: () => T): T;
  /**
   * The organization's month allocated to cost centers and teams (see allocation.ts), the same for
   * every report of the organization, scoped or not; null without a people directory.
   */
  allocation(): MonthAllocation | null;
  /** The allocation's cells of the run: all of them, or the scope's (see `scopeCells`); none without a directory. */
  cells(): readonly AllocationCell[];
  /** In a scoped report, the scope; null for the organization's. */
  scope: ResolvedScope | null;
  /**
   * A person's month anywhere in the organization: in a scoped report, their days outside the
   * scope too (a person who moved into it mid-month), which is what "used the agent on one or two
   * days" says of them.
   */
  monthAnywhere(user: { id: string; email: string | null }): PersonMonth;
}

/** A person's activity in the period: active days and the last day with activity (null: none). */
export interface PersonMonth {
  active_days: number;
  last_active: string | null;
}

function datesOf(rows: ReadonlyArray<{ date: string }>): Set<string> {
  return new Set(rows.map((r) => r.date));
}

function inRange<T extends { date: string }>(rows: readonly T[], span: DayRange): T[] {
  return rows.filter((r) => inSpan(r.date, span));
}

/** Distinct active user ids and lower-cased e-mails of a {@link perUserActivity} table. */
function activeIdentities(users: ColumnTable, data: UserDayData): ActiveIdentities {
  const ids = new Set<string>();
  const emails = new Set<string>();
  const uids = columnValues(users, 'uid') as ArrayLike<number>;
  const days = columnValues(users, 'active_days') as ArrayLike<number>;
  for (let i = 0; i < uids.length; i++) {
    if (!(days[i]! > 0)) continue;
    const uid = uids[i]!;
    ids.add(data.userIds[uid]!);
    const email = data.emails[uid];
    if (email) emails.add(email.toLowerCase());
  }
  return { ids, emails };
}

/** Active users per week index of {@link userWeekLevels} rows. */
function activeUsersByWeek(weekLevels: ColumnTable): Map<number, number> {
  const out = new Map<number, number>();
  const active = rowsWhere(weekLevels, 'active_days', (v) => v > 0);
  if (active.numRows() === 0) return out;
  const t = sumBy(sumBy(active, ['week', 'uid'], []), ['week'], [], 'n');
  const weeks = t.array('week') as ArrayLike<number>;
  const counts = t.array('n') as ArrayLike<number>;
  for (let i = 0; i < weeks.length; i++) out.set(weeks[i]!, counts[i]!);
  return out;
}

/** What a span's figures are computed from, beside the snapshot (the period's are built once for the report). */
interface SpanInputs {
  span: MonthPeriod;
  /** The span's users with `active_days`, `tool_calls` and `user_messages` ({@link perUserActivity}, {@link userSums}). */
  users: ColumnTable;
  daily: readonly DailyRow[];
  /** Days of the span that have `/activity` rows. */
  activityDates: ReadonlySet<string>;
  /** Enterprise-control revisions made in the span. */
  controlChanges: number;
  /** The month before's first day: a seat idle since then is a candidate to reclaim (null: none). */
  idleSince: string | null;
}

/**
 * Where a run's days come from: the analytics endpoints' daily totals for the organization, or the
 * `/users` rows of a scope (whose people's seats are those in the scope on a given day).
 */
interface DaySource {
  daily(span: DayRange, activeUsersByDate: ReadonlyMap<string, number>): DailyRow[];
  /** Days of the span with data (an `/activity` row, or for a scope any analytics row of the organization). */
  dataDays(span: DayRange): Set<string>;
  /** Distinct active users over the 30 days up to `day`; null when unknown. */
  mauOn(day: string, daily: readonly DailyRow[]): number | null;
  /** The organization users whose seats count on `day`. */
  seatUsers(day: string): readonly OrgUser[];
  /**
   * Who was active in the span and each person's last active day, by which a seat is dormant or
   * to reclaim: a seat is its holder's whole, so their activity anywhere in the organization counts
   * (a person who moved into a scope mid-month was active, under their previous team or manager).
   */
  holdersActivity(span: DayRange, who: ActiveIdentities, data: UserDayData): HoldersActivity;
  /**
   * Seat utilization as seats used ÷ seats (a seat used when its holder was active anywhere), not
   * active users ÷ seats: a scope's active users count people who moved out, whose seats are not its.
   */
  utilizationOfSeatsUsed: boolean;
}

/** The span's active users: their ids and lower-cased e-mails. */
type ActiveIdentities = { ids: Set<string>; emails: Set<string> };

interface HoldersActivity {
  who: ActiveIdentities;
  lastActive: (user: { id: string; email?: string | null }) => string | null;
}

function organizationDays(snapshot: Snapshot): DaySource {
  return {
    daily: (span, active) => dailySeries(snapshot, span, active),
    dataDays: (span) => datesOf(inRange(snapshot.activity, span)),
    mauOn: (day) => byDate(snapshot.activity).get(day)?.monthly_active_users ?? null,
    seatUsers: () => snapshot.orgUsers,
    holdersActivity: (_span, who, data) => ({ who, lastActive: lastActiveOf(data) }),
    utilizationOfSeatsUsed: false,
  };
}

/** The organization's encoded rows, made once per snapshot for the scopes cut from it. */
const organizationData = new WeakMap<Snapshot, UserDayData>();
/** The organization's active users of a span and their active days, by the span's first day, made once per snapshot. */
const organizationActive = new WeakMap<Snapshot, Map<string, { who: ActiveIdentities; days: DaysOf }>>();

/** A person's active days, by user id or else by e-mail (any case); 0 when none. */
type DaysOf = (user: { id: string; email: string | null }) => number;

/**
 * The organization's activity in a span, for what a scope says of a person or a seat as a whole
 * (see {@link DaySource.holdersActivity}): from the organization's rows, not the scope's.
 */
function organizationActivity(organization: Snapshot, span: DayRange): HoldersActivity & { days: DaysOf } {
  let data = organizationData.get(organization);
  if (!data) {
    data = encodeUserDays(organization.userDays, organization.orgUsers);
    organizationData.set(organization, data);
  }
  let bySpan = organizationActive.get(organization);
  if (!bySpan) {
    bySpan = new Map();
    organizationActive.set(organization, bySpan);
  }
  let known = bySpan.get(span.start);
  if (!known) {
    const users = perUserActivity(withinSpan(data.table, span));
    const uids = columnValues(users, 'uid') as ArrayLike<number>;
    const active = columnValues(users, 'active_days') as ArrayLike<number>;
    const byId = new Map<string, number>();
    const byEmail = new Map<string, number>();
    for (let i = 0; i < uids.length; i++) {
      byId.set(data.userIds[uids[i]!]!, active[i]!);
      const email = data.emails[uids[i]!]?.toLowerCase();
      // A person known by two user ids: the ids' days may overlap, so the most of them, not their sum.
      if (email) byEmail.set(email, Math.max(active[i]!, byEmail.get(email) ?? 0));
    }
    const days: DaysOf = (user) =>
      byId.get(user.id) ?? (user.email ? byEmail.get(user.email.toLowerCase()) : undefined) ?? 0;
    known = { who: activeIdentities(users, data), days };
    bySpan.set(span.start, known);
  }
  return { ...known, lastActive: lastActiveOf(data) };
}

function scopeDays(scoped: ScopedInput): DaySource {
  const { snapshot, scope, organizationDays: days } = scoped;
  // The seats of a day are asked for more than once (the figures, the seats used outside the scope).
  const seatsOn = new Map<string, readonly OrgUser[]>();
  return {
    daily: (span) => usersDailySeries(snapshot.userDays, span, (d) => days.has(d)),
    dataDays: (span) => new Set([...days].filter((d) => inSpan(d, span))),
    mauOn: (day, daily) => daily.find((d) => d.date === day)?.mau_trailing_30d ?? null,
    seatUsers: (day) => {
      let seats = seatsOn.get(day);
      if (!seats) {
        const emails = personEmails(scoped.organization);
        seats = snapshot.orgUsers.filter((u) => inScopeOn(scope, emails.get(u.id) ?? null, day));
        seatsOn.set(day, seats);
      }
      return seats;
    },
    holdersActivity: (span) => organizationActivity(scoped.organization, span),
    utilizationOfSeatsUsed: true,
  };
}

/** The inputs of a span that the report does not otherwise build (the comparison period). */
function spanInputs(
  snapshot: Snapshot,
  source: DaySource,
  span: MonthPeriod,
  users: ColumnTable,
): SpanInputs {
  return {
    span,
    users,
    daily: source.daily(span, new Map()),
    activityDates: source.dataDays(span),
    controlChanges: snapshotControlChanges(snapshot, span).changes.length,
    // The month before the comparison period is not fetched: no seat is known idle since then.
    idleSince: null,
  };
}

/** The figure values of one span (the period or the comparison period). */
function spanFigures(
  snapshot: Snapshot,
  source: DaySource,
  { span, users, daily, activityDates, controlChanges: changes, idleSince }: SpanInputs,
  data: UserDayData,
  mapping: Readonly<Record<string, number>>,
): SpanSummary {
  const sums = sumDaily(daily);
  const who = activeIdentities(users, data);
  const activeUsers = who.ids.size;
  const dau = dauStats(daily, (d) => activityDates.has(d));
  const stats = autonomyStatsAt(autonomyStats(withRatios(users)), 0);
  const holders = source.holdersActivity(span, who, data);
  const counted = seatStats(
    source.seatUsers(span.end),
    span.end,
    holders.who.ids,
    holders.who.emails,
    activeUsers,
    holders.lastActive,
    idleSince,
  );
  const seats: SeatsSection =
    source.utilizationOfSeatsUsed && counted.seats > 0
      ? { ...counted, utilization: (counted.seats - counted.dormant) / counted.seats }
      : counted;
  const { reports, organizationOf } = snapshotReadiness(snapshot);
  const { repos, ...org } = readinessAt(reports, span.end, mapping, organizationOf);
  return {
    autonomyUsers: stats.users,
    seats,
    repos,
    active: who,
    activeAnywhere: holders.who,
    values: {
      ...sums,
      active_users: activeUsers,
      avg_dau: dau.avg,
      peak_dau: dau.max,
      stickiness: ratioOrNull(dau.avg, activeUsers),
      mau_trailing_30d: source.mauOn(span.end, daily),
      autonomy_mean: stats.mean,
      autonomy_p50: stats.p50,
      autonomy_p90: stats.p90,
      seats: seats.seats,
      seat_utilization: seats.utilization,
      dormant_seats: seats.dormant,
      readiness_org_score: org.score,
      readiness_org_level: org.level,
      readiness_repos: repos.length,
      controls_changes: changes,
    },
  };
}

/** True when the snapshot (or, for a scope, the organization's) holds any analytics or `/users` row inside the span. */
function hasDataIn(snapshot: Snapshot, span: DayRange, scoped: ScopedInput | undefined): boolean {
  const any = (rows: ReadonlyArray<{ date: string }>) => rows.some((r) => inSpan(r.date, span));
  return (
    (scoped !== undefined && [...scoped.organizationDays].some((d) => inSpan(d, span))) ||
    any(snapshot.tokens) ||
    any(snapshot.tools) ||
    any(snapshot.activity) ||
    any(snapshot.productivity) ||
    snapshot.userDays.date.some((d) => inSpan(d, span))
  );
}

function sharesOf(d: DailyRow) {
  return d.auto_high === null
    ? null
    : {
        auto_high: d.auto_high,
        auto_medium: d.auto_medium ?? 0,
        auto_low: d.auto_low ?? 0,
        manual: d.manual ?? 0,
      };
}

/**
 * Computes what the sections of a report share, once. With `scoped`, the snapshot is a scope's
 * (see apply-scope.ts) and the days come from its `/users` rows.
 */
export function computeRun(snapshot: Snapshot, options: ReportOptions, scoped?: ScopedInput): Run {
  const { period, comparison } = snapshot.manifest;
  const mapping = options.levelMapping ?? DEFAULT_LEVEL_MAPPING;
  const topN = options.topN ?? DEFAULT_TOP_N;
  const price = typeof options.pricePerCredit === 'number' ? options.pricePerCredit : null;
  const creditLimits = new Map(
    Object.entries(options.creditLimits ?? {}).map(([email, limit]) => [email.toLowerCase(), limit]),
  );

  // A scope's rows may carry only an older e-mail of someone: users are known as the organization knows them.
  const data = encodeUserDays(
    snapshot.userDays,
    snapshot.orgUsers,
    scoped && userEmails(scoped.organization),
  );
  const periodRows = withinSpan(data.table, period);
  const perDayUsers = usersByDay(periodRows);
  const activeByDate = new Map([...perDayUsers].map(([date, row]) => [date, row['active_users'] ?? 0]));
  const source = scoped ? scopeDays(scoped) : organizationDays(snapshot);
  const daily = source.daily(period, activeByDate);
  const rows = {
    tokens: inRange(snapshot.tokens, period),
    tools: inRange(snapshot.tools, period),
    activity: inRange(snapshot.activity, period),
    productivity: inRange(snapshot.productivity, period),
  };
  const activityDates = source.dataDays(period);
  const controls = snapshotControlChanges(snapshot, period);
  const hasActivity = (d: string) => activityDates.has(d);

  // Autonomy and delegation, per week (by week index from the period's first week).
  const weeks: Span[] = weekSpans(period);
  const weekLevels = userWeekLevels(periodRows, period.start);
  const weekStats = autonomyStats(userAutonomyRatios(weekLevels, true), true);
  const weekStatsRow = new Map<number, number>();
  const statWeeks = weekStats.array('week') as ArrayLike<number>;
  for (let i = 0; i < statWeeks.length; i++) weekStatsRow.set(statWeeks[i]!, i);
  const weekPrimary = primaryDelegation(weekLevels, data.levels, true);
  const mixOf = (span: DayRange): AutonomyMix =>
    autonomyMix(
      daily
        .filter((d) => inSpan(d.date, span))
        .map((d) => ({ tool_calls: d.tool_calls, shares: sharesOf(d) })),
    );
  const weekBehaviour: SpanBehaviour[] = weeks.map((w, i) => ({
    span: w.label,
    start: w.start,
    end: w.end,
    autonomy: autonomyStatsAt(weekStats, weekStatsRow.get(i) ?? -1),
    autonomyMix: mixOf(w),
    delegation: delegationMix(rowsWhere(weekPrimary, 'week', (week) => week === i)),
  }));
  const monthPrimary = primaryDelegation(weekLevels, data.levels);
  const monthUsers = userSums(weekLevels);
  const current = spanFigures(
    snapshot,
    source,
    {
      span: period,
      users: monthUsers,
      daily,
      activityDates,
      controlChanges: controls.changes.length,
      idleSince: comparison?.start ?? null,
    },
    data,
    mapping,
  );
  if (scoped) {
    current.seats.used_outside = seatsUsedOutside(
      seatsAt(source.seatUsers(period.end), period.end),
      current.active,
      organizationActivity(scoped.organization, period),
    );
  }
  const activeWeeks = activeUsersByWeek(weekLevels);
  const weekly = weeklyRollup(
    daily,
    period,
    new Map(weekBehaviour.map((b) => [b.span, b])),
    new Map(weeks.map((w, i) => [w.label, activeWeeks.get(i) ?? 0])),
    hasActivity,
  );

  // Headline figures of the comparison period.
  const comparisonHasData = comparison !== null && hasDataIn(snapshot, comparison, scoped);
  const previous =
    comparison && comparisonHasData
      ? spanFigures(
          snapshot,
          source,
          spanInputs(snapshot, source, comparison, perUserActivity(withinSpan(data.table, comparison))),
          data,
          mapping,
        )
      : null;
  // A snapshot of several organizations is a rollup: each figure combines by its rule.
  const computed = headlineFigures(current.values, previous?.values ?? null);
  const figures = snapshot.organizations ? applyFigureRules(computed, 'organizations') : computed;

  const memo = new Map<string, unknown>();
  let allocated: MonthAllocation | null | undefined;
  const allocation = (): MonthAllocation | null => {
    if (allocated !== undefined) return allocated;
    // The organization's directory and snapshot, never the scope's: one allocation for all.
    const directory = options.inputs?.directory;
    allocated = directory
      ? monthAllocation({
          snapshot: scoped?.organization ?? snapshot,
          directory,
          period,
          pricePerCredit: price,
          pricePerSeat:
            typeof options.pricePerSeat === 'number' && options.pricePerSeat > 0
              ? options.pricePerSeat
              : null,
        })
      : null;
    return allocated;
  };
  let cellsOfRun: readonly AllocationCell[] | undefined;
  const cells = (): readonly AllocationCell[] => {
    if (cellsOfRun) return cellsOfRun;
    const all = allocation();
    cellsOfRun = !all ? [] : scoped ? scopeCells(all, scoped.scope) : all.cells;
    return cellsOfRun;
  };
  const users = userTotals(weekLevels, periodRows, data, {
    pricePerCredit: price,
    creditLimits,
    primary: monthPrimary,
    sums: monthUsers,
    nameOf: namesOf(snapshot.orgUsers),
  });
  // Where a scope's person was active outside it too, their month is the organization's.
  const lastActive = scoped
    ? organizationActivity(scoped.organization, period).lastActive
    : lastActiveOf(data);
  let daysOf: DaysOf | undefined;
  const monthAnywhere = (user: { id: string; email: string | null }): PersonMonth => {
    if (!daysOf) {
      if (scoped) daysOf = organizationActivity(scoped.organization, period).days;
      else {
        const byId = new Map(users.map((u) => [u.user_id, u.active_days]));
        daysOf = (u) => byId.get(u.id) ?? 0;
      }
    }
    return { active_days: daysOf(user), last_active: lastActive(user) };
  };
  return {
    snapshot,
    options,
    period,
    comparison,
    comparisonHasData,
    mapping,
    topN,
    price,
    pricing:
      price === null ? null : { pricePerCredit: price, currency: options.currency ?? DEFAULT_CURRENCY },
    userDays: data,
    periodRows,
    perDayUsers,
    rows,
    activityDates,
    daily,
    weekly,
    controls,
    weekLevels,
    weekBehaviour,
    monthPrimary,
    mixOf,
    current,
    previous,
    figures,
    whatChanged: whatChangedOf(current, previous, figures, controls, scoped !== undefined),
    users: placeUsers(users, allocation(), cells()),
    once<T>(key: string, compute: () => T): T {
      if (!memo.has(key)) memo.set(key, compute());
      return memo.get(key) as T;
    },
    allocation,
    cells,
    scope: scoped?.scope ?? null,
    monthAnywhere,
  };
}

/** The seats whose holders were active anywhere in the organization's span but not in the scope's (see `SeatsSection.used_outside`). */
function seatsUsedOutside(
  seats: readonly OrgUser[],
  here: ActiveIdentities,
  anywhere: HoldersActivity & { days: DaysOf },
): SeatUsedOutside[] {
  return seats
    .filter((u) => isActiveHolder(u, anywhere.who) && !isActiveHolder(u, here))
    .map((u) => {
      const user = { id: u.id, email: u.email ?? null };
      return {
        ...user,
        name: displayName(u),
        active_days: anywhere.days(user),
        last_active: anywhere.lastActive(user),
      };
    });
}

/**
 * The users with their team, cost center and credit cost from the month's allocation (a scope's
 * cells in a scoped report), so that users add up to the bills; as they are without a directory.
 */
function placeUsers(
  users: UserMonthRow[],
  allocation: MonthAllocation | null,
  cells: readonly AllocationCell[],
): UserMonthRow[] {
  if (!allocation) return users;
  const shares = personShares(cells);
  const personOf = (u: UserMonthRow) => u.email?.toLowerCase() ?? `id:${u.user_id}`;
  // A person with several user ids (one e-mail) has one share: their ids split its cents by credits.
  const idsOf = new Map<string, number[]>();
  users.forEach((u, i) => {
    const ids = idsOf.get(personOf(u));
    if (ids) ids.push(i);
    else idsOf.set(personOf(u), [i]);
  });
  const cents = new Array<number>(users.length).fill(0);
  for (const [person, ids] of idsOf) {
    const share = shares.get(person)?.creditCents ?? 0;
    const parts = shareCents(
      share,
      ids.map((i) => users[i]!.credits ?? 0),
    );
    ids.forEach((i, k) => {
      cents[i] = parts[k]!;
    });
  }
  return users.map((u, i) => {
    const share = shares.get(personOf(u));
    return {
      ...u,
      team: share?.team ?? null,
      cost_center: share?.costCenter ?? null,
      cost: allocation.creditCents === null ? null : cents[i]! / 100,
    };
  });
}

/** The facts of the "what changed" paragraph of a run. */
function whatChangedOf(
  current: SpanSummary,
  previous: SpanSummary | null,
  figures: readonly Figure[],
  controls: ControlsSection,
  scoped: boolean,
): ChangeFact[] {
  const level = (f: 'value' | 'previous') => figures.find((x) => x.id === 'readiness_org_level')?.[f] ?? null;
  return whatChanged({
    figures,
    activeIds: current.active.ids,
    previousActiveIds: previous?.active.ids ?? null,
    // A scope's people came and went by moving too; the organization's only by starting and stopping.
    ...(scoped && {
      activeAnywhere: current.activeAnywhere.ids,
      previousActiveAnywhere: previous?.activeAnywhere.ids ?? null,
    }),
    seats: current.seats,
    reclaimCandidates: current.seats.reclaim_candidates,
    controls,
    readiness: { level: level('value'), previousLevel: level('previous'), repos: current.repos.length },
  });
}

const runs = new WeakMap<SharedComputations, Run>();

/** The public part of a run, as sections see it (`SectionContext.shared`). */
export function sharedOf(run: Run): SharedComputations {
  const shared: SharedComputations = {
    userDays: run.userDays,
    periodUserDays: run.periodRows,
    daily: run.daily,
    weekly: run.weekly,
    figures: run.figures,
    users: run.users,
    rows: run.rows,
    pricing: run.pricing,
    topN: run.topN,
    levelMapping: run.mapping,
  };
  runs.set(shared, run);
  return shared;
}

/** The whole run behind a section's context (for the built-in sections, which live in this package). */
export function runOf(context: { shared: SharedComputations }): Run {
  const run = runs.get(context.shared);
  if (!run) throw new Error('a built-in section ran outside buildReportModel');
  return run;
}
