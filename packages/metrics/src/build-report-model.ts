/**
 * `buildReportModel`: the composition of every transform, from a snapshot to the report model.
 */
import { type DayRange, DELEGATION_LEVELS, type MonthPeriod, type Snapshot } from '@orgreport/api-core';
import type { ColumnTable } from 'arquero';
import { DEFINITIONS, READINESS_LEVEL_RULE } from './definitions.ts';
import { autonomyMix } from './internal/transforms/autonomy-mix.ts';
import { autonomyStats, autonomyStatsAt, userAutonomyRatios } from './internal/transforms/autonomy-stats.ts';
import { clientDau } from './internal/transforms/clients.ts';
import { controlChanges } from './internal/transforms/controls.ts';
import { costOf, creditsByModel, creditsByTier } from './internal/transforms/credits.ts';
import { byDate, dailySeries } from './internal/transforms/daily-series.ts';
import {
  autonomyMixFindings,
  delegationUnknown,
  mcpCaseMerged,
  missingDays,
  readinessInvalid,
  readinessUnmapped,
  unparseableToolNames,
  usersByDay,
  usersTotalMismatch,
} from './internal/transforms/data-quality.ts';
import { delegationMix, primaryDelegation } from './internal/transforms/delegation.ts';
import type { FigureValues } from './internal/transforms/figures.ts';
import { headlineFigures } from './internal/transforms/figures.ts';
import { hookEventsSummary } from './internal/transforms/hook-events.ts';
import { productivityBreakdown } from './internal/transforms/productivity.ts';
import {
  latestReports,
  orgReadiness,
  readinessScores,
  readinessSection,
} from './internal/transforms/readiness.ts';
import { redirectFinding, rowCheckFindings } from './internal/transforms/row-checks.ts';
import {
  manifestUnknownFields,
  settingsDrift,
  unknownClients,
  unknownFields,
} from './internal/transforms/schema-drift.ts';
import { seatStats } from './internal/transforms/seats.ts';
import { inSpan, type Row, ratioOrNull, type Span } from './internal/transforms/span.ts';
import { sumBy } from './internal/transforms/sum-by.ts';
import { hooksByEvent, mergeMcpServers, skillsAndCommands, topTools } from './internal/transforms/tools.ts';
import {
  encodeUserDays,
  perUserActivity,
  type UserDayData,
  withinSpan,
} from './internal/transforms/user-days.ts';
import { userTotals } from './internal/transforms/user-totals.ts';
import { userWeekLevels } from './internal/transforms/user-week-levels.ts';
import { dauStats, sumDaily, weeklyRollup, weekSpans } from './internal/transforms/weekly-rollup.ts';
import {
  type AutonomyMix,
  type DailyRow,
  type DataQualityFinding,
  REPORT_MODEL_VERSION,
  type ReportModel,
  type ReportPeriod,
  type SeatsSection,
  type SpanBehaviour,
} from './model.ts';
import { DEFAULT_CURRENCY, DEFAULT_LEVEL_MAPPING, DEFAULT_TOP_N, type ReportOptions } from './options.ts';
import { isBuiltinSection, resolveSections } from './section.ts';

function reportPeriod(p: MonthPeriod): ReportPeriod {
  return {
    month: p.month,
    start: p.start,
    end: p.end,
    days: p.days,
    partial: p.partial,
    clampedStart: p.clampedStart,
    endsEarly: p.endsEarly,
  };
}

function datesOf(rows: ReadonlyArray<{ date: string }>): Set<string> {
  return new Set(rows.map((r) => r.date));
}

function inRange<T extends { date: string }>(rows: readonly T[], span: DayRange): T[] {
  return rows.filter((r) => inSpan(r.date, span));
}

/** Distinct active user ids and lower-cased e-mails of a {@link perUserActivity} table. */
function activeIdentities(users: ColumnTable, data: UserDayData): { ids: Set<string>; emails: Set<string> } {
  const ids = new Set<string>();
  const emails = new Set<string>();
  const active = users.filter((d: Row) => d.active_days > 0);
  for (const uid of active.array('uid') as ArrayLike<number> as number[]) {
    ids.add(data.userIds[uid]!);
    const email = data.emails[uid];
    if (email) emails.add(email.toLowerCase());
  }
  return { ids, emails };
}

/** Active users per week index of {@link userWeekLevels} rows. */
function activeUsersByWeek(weekLevels: ColumnTable): Map<number, number> {
  const out = new Map<number, number>();
  const active = weekLevels.filter((d: Row) => d.active_days > 0);
  if (active.numRows() === 0) return out;
  const t = sumBy(sumBy(active, ['week', 'uid'], []), ['week'], [], 'n');
  const weeks = t.array('week') as ArrayLike<number>;
  const counts = t.array('n') as ArrayLike<number>;
  for (let i = 0; i < weeks.length; i++) out.set(weeks[i]!, counts[i]!);
  return out;
}

interface SpanSummary {
  values: FigureValues;
  autonomyUsers: number;
  seats: SeatsSection;
  /** The scored latest readiness report of each repository at the span's end. */
  repos: ReturnType<typeof readinessScores>[];
}

/** What a span's figures are computed from, beside the snapshot (the period's are built once for the report). */
interface SpanInputs {
  span: MonthPeriod;
  /** The span's {@link perUserActivity}. */
  users: ColumnTable;
  daily: readonly DailyRow[];
  /** Days of the span that have `/activity` rows. */
  activityDates: ReadonlySet<string>;
  /** Enterprise-control revisions made in the span. */
  controlChanges: number;
}

/** The inputs of a span that the report does not otherwise build (the comparison period). */
function spanInputs(snapshot: Snapshot, span: MonthPeriod, users: ColumnTable): SpanInputs {
  return {
    span,
    users,
    daily: dailySeries(snapshot, span, new Map()),
    activityDates: datesOf(inRange(snapshot.activity, span)),
    controlChanges: controlChanges(snapshot.controls, span).changes.length,
  };
}

/** The figure values of one span (the period or the comparison period). */
function spanFigures(
  snapshot: Snapshot,
  { span, users, daily, activityDates, controlChanges: changes }: SpanInputs,
  data: UserDayData,
  mapping: Readonly<Record<string, number>>,
): SpanSummary {
  const sums = sumDaily(daily);
  const who = activeIdentities(users, data);
  const activeUsers = who.ids.size;
  const dau = dauStats(daily, (d) => activityDates.has(d));
  const lastActivity = byDate(snapshot.activity).get(span.end);
  const ratios = users
    .filter((d: Row) => d.user_messages > 0)
    .derive({ ratio: (d: Row) => d.tool_calls / d.user_messages });
  const stats = autonomyStatsAt(autonomyStats(ratios), 0);
  const seats = seatStats(snapshot.orgUsers, span.end, who.ids, who.emails, activeUsers);
  const repos = [...latestReports(snapshot.readiness, span.end).values()].map((r) =>
    readinessScores(r, mapping),
  );
  const org = orgReadiness(repos);
  return {
    autonomyUsers: stats.users,
    seats,
    repos,
    values: {
      ...sums,
      active_users: activeUsers,
      avg_dau: dau.avg,
      peak_dau: dau.max,
      stickiness: ratioOrNull(dau.avg, activeUsers),
      mau_trailing_30d: lastActivity ? lastActivity.monthly_active_users : null,
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

/** True when the snapshot holds any analytics or `/users` row inside the span. */
function hasDataIn(snapshot: Snapshot, span: DayRange): boolean {
  const any = (rows: ReadonlyArray<{ date: string }>) => rows.some((r) => inSpan(r.date, span));
  return (
    any(snapshot.tokens) ||
    any(snapshot.tools) ||
    any(snapshot.activity) ||
    any(snapshot.productivity) ||
    snapshot.userDays.date.some((d) => inSpan(d, span))
  );
}

/**
 * Builds the report model of a snapshot: every figure, series, table and finding of the report,
 * as plain JSON.
 *
 * @example
 * buildReportModel(snapshot, { generatedAt: '2026-04-01T06:00:00.000Z', pricePerCredit: 0.00001, currency: 'EUR' })
 */
export function buildReportModel(snapshot: Snapshot, options: ReportOptions): ReportModel {
  const { period, comparison } = snapshot.manifest;
  const mapping = options.levelMapping ?? DEFAULT_LEVEL_MAPPING;
  const topN = options.topN ?? DEFAULT_TOP_N;
  const price = typeof options.pricePerCredit === 'number' ? options.pricePerCredit : null;
  const creditLimits = new Map(
    Object.entries(options.creditLimits ?? {}).map(([email, limit]) => [email.toLowerCase(), limit]),
  );

  const data = encodeUserDays(snapshot.userDays);
  const periodRows = withinSpan(data.table, period);
  const perDayUsers = usersByDay(periodRows);
  const activeByDate = new Map([...perDayUsers].map(([date, row]) => [date, row['active_users'] ?? 0]));
  const daily = dailySeries(snapshot, period, activeByDate);
  const periodTools = inRange(snapshot.tools, period);
  const periodActivity = inRange(snapshot.activity, period);
  const periodProductivity = inRange(snapshot.productivity, period);
  const activityDates = datesOf(periodActivity);
  const controls = controlChanges(snapshot.controls, period);
  const hasActivity = (d: string) => activityDates.has(d);

  // Autonomy and delegation, per week (by week index from the period's first week) and for the month.
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
    delegation: delegationMix(weekPrimary.params({ w: i }).filter((d: Row, $: Row) => d.week === $.w)),
  }));
  const monthPrimary = primaryDelegation(weekLevels, data.levels);
  const current = spanFigures(
    snapshot,
    {
      span: period,
      users: perUserActivity(weekLevels, 'active_days'),
      daily,
      activityDates,
      controlChanges: controls.changes.length,
    },
    data,
    mapping,
  );
  const monthBehaviour: SpanBehaviour = {
    span: period.month,
    start: period.start,
    end: period.end,
    autonomy: {
      users: current.autonomyUsers,
      mean: current.values.autonomy_mean,
      p50: current.values.autonomy_p50,
      p90: current.values.autonomy_p90,
    },
    autonomyMix: mixOf(period),
    delegation: delegationMix(monthPrimary),
  };
  const activeWeeks = activeUsersByWeek(weekLevels);
  const weekly = weeklyRollup(
    daily,
    period,
    new Map(weekBehaviour.map((b) => [b.span, b])),
    new Map(weeks.map((w, i) => [w.label, activeWeeks.get(i) ?? 0])),
    hasActivity,
  );

  // Headline figures of the comparison period.
  const comparisonHasData = comparison !== null && hasDataIn(snapshot, comparison);
  const previous =
    comparison && comparisonHasData
      ? spanFigures(
          snapshot,
          spanInputs(snapshot, comparison, perUserActivity(withinSpan(data.table, comparison))),
          data,
          mapping,
        ).values
      : null;

  // Breakdowns.
  const periodTokens = inRange(snapshot.tokens, period);
  const byModel = creditsByModel(periodTokens, price);
  const tools = topTools(periodTools, topN);
  const mcp = mergeMcpServers(periodTools);
  const named = skillsAndCommands(periodTools, topN);
  const hooks = hooksByEvent(periodTools);
  const rule = READINESS_LEVEL_RULE;
  const readiness = readinessSection({
    reports: snapshot.readiness,
    mapping,
    period,
    comparisonEnd: comparison?.end ?? null,
    topN,
    rule,
  });
  const seats = current.seats;

  // Data quality.
  const inspected = new Map([...current.repos, ...readiness.reports].map((r) => [r.report_id, r]));
  const dataQuality = [
    missingDays(snapshot, period),
    mcpCaseMerged(mcp.servers),
    unparseableToolNames(tools.unparseable, tools.unparseableNames),
    ...autonomyMixFindings(periodTools),
    readinessInvalid([...inspected.values()]),
    readinessUnmapped(readiness.unmapped_criteria),
    usersTotalMismatch(daily as unknown as Array<Record<string, unknown> & { date: string }>, perDayUsers, {
      tokens: datesOf(periodTokens),
      tools: datesOf(periodTools),
      activity: activityDates,
      productivity: datesOf(periodProductivity),
    }),
    delegationUnknown(monthBehaviour.delegation.counts, DELEGATION_LEVELS),
    unknownClients(periodActivity),
    unknownFields(snapshot, manifestUnknownFields(snapshot.manifest)),
    settingsDrift(snapshot.controls),
    ...rowCheckFindings(snapshot.manifest),
    redirectFinding(snapshot.manifest),
  ].filter((f): f is DataQualityFinding => f !== null);

  const credits = current.values.credits ?? 0;
  const model: ReportModel = {
    modelVersion: REPORT_MODEL_VERSION,
    organization: { ...snapshot.manifest.organization },
    period: reportPeriod(period),
    comparison: comparison ? reportPeriod(comparison) : null,
    comparisonHasData,
    partial: period.partial,
    generatedAt: options.generatedAt,
    source: {
      fetchedAt: snapshot.manifest.fetchedAt,
      toolVersion: snapshot.manifest.toolVersion,
      baseUrl: snapshot.manifest.source.baseUrl,
    },
    pricing:
      price === null ? null : { pricePerCredit: price, currency: options.currency ?? DEFAULT_CURRENCY },
    figures: headlineFigures(current.values, previous),
    daily,
    weekly,
    behaviour: { month: monthBehaviour, weeks: weekBehaviour },
    credits: { total: credits, cost: costOf(credits, price), byModel, byTier: creditsByTier(byModel, price) },
    tools: {
      total: tools.total,
      top: tools.top,
      unparseable: tools.unparseable,
      mcpTotal: mcp.total,
      mcpServers: mcp.servers,
      ...named,
      hooksTotal: hooks.total,
      hooks: hooks.hooks,
    },
    productivity: productivityBreakdown(periodProductivity),
    users: userTotals(weekLevels, periodRows, data, {
      pricePerCredit: price,
      creditLimits,
      primary: monthPrimary,
    }),
    clients: clientDau(periodActivity),
    readiness,
    controls,
    seats,
    hookEvents: snapshot.hookEvents ? hookEventsSummary(snapshot.hookEvents, period) : null,
    dataQuality,
    definitions: DEFINITIONS.map((d) => ({ ...d })),
  };
  return withSections(model, snapshot, options);
}

/**
 * The model with the configured sections' own figures (`sections[id]`), findings and definitions
 * added, in section order; the model itself when no section computes anything.
 */
function withSections(model: ReportModel, snapshot: Snapshot, options: ReportOptions): ReportModel {
  const own = resolveSections(options.sections).filter(
    (s) => !isBuiltinSection(s) && (s.compute || s.checks || s.definitions),
  );
  if (own.length === 0) return model;
  const context = { snapshot, options, model, inputs: options.inputs ?? {} };
  const sections: Record<string, unknown> = {};
  for (const section of own) {
    const data = section.compute ? section.compute(context) : null;
    if (section.compute) sections[section.id] = data;
    model.dataQuality.push(...(section.checks?.(context, data) ?? []));
    model.definitions.push(...(section.definitions ?? []).map((d) => ({ ...d })));
  }
  return Object.keys(sections).length > 0 ? { ...model, sections } : model;
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
