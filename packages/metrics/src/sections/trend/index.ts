/**
 * Trend: up to 12 months to the report's month, one row each: credits and cost, active users and
 * stickiness, seats and utilization, readiness score and level, autonomy. Earlier months come from
 * the run's `history` input (a store's monthly sums); the report's month is its own figures. Without
 * a history there is no trend and the section is left out.
 */
import { fileURLToPath } from 'node:url';
import { monthBounds } from '@orgreport/api-core';
import { costColumn, field } from '../../internal/sheet-columns.ts';
import { readinessAt } from '../../internal/transforms/readiness.ts';
import { seatsAt } from '../../internal/transforms/seats.ts';
import type { MonthHistory, SectionContext } from '../../section.ts';
import { defineSection } from '../../section.ts';

/** Months a trend shows at most. */
export const TREND_MONTHS = 12;

/** One month of the trend. */
export interface TrendRow {
  month: string;
  /** The month is not complete in the data (the running month, or days the store lacks). */
  partial: boolean;
  days: number;
  credits: number;
  cost: number | null;
  active_users: number;
  avg_dau: number | null;
  stickiness: number | null;
  seats: number;
  seat_utilization: number | null;
  readiness_score: number | null;
  readiness_level: number | null;
  autonomy_mean: number | null;
}

export interface TrendSection {
  months: TrendRow[];
  /** The rows' first and last month. */
  from: string;
  to: string;
  /** Rows of months the data holds only in part. */
  partialMonths: number;
}

const ratio = (a: number | null, b: number) => (a === null || b === 0 ? null : a / b);

/** The report's month as the history would give it: from the period's figures. */
function currentMonth(context: SectionContext): MonthHistory {
  const value = (id: string) => context.shared.figures.find((f) => f.id === id)?.value ?? null;
  return {
    month: context.period.month,
    days: context.period.days,
    daysInMonth: context.period.days,
    credits: value('credits') ?? 0,
    activeUsers: value('active_users') ?? 0,
    avgDau: value('avg_dau'),
    autonomyMean: value('autonomy_mean'),
  };
}

function trendRow(context: SectionContext, h: MonthHistory, partial: boolean): TrendRow {
  const end = h.month === context.period.month ? context.period.end : monthBounds(h.month).end;
  const seats = seatsAt(context.snapshot.orgUsers, end).length;
  const readiness = readinessAt(context.snapshot.readiness, end, context.shared.levelMapping);
  const price = context.shared.pricing?.pricePerCredit ?? null;
  return {
    month: h.month,
    partial,
    days: h.days,
    credits: h.credits,
    cost: price === null ? null : h.credits * price,
    active_users: h.activeUsers,
    avg_dau: h.avgDau,
    stickiness: ratio(h.avgDau, h.activeUsers),
    seats,
    seat_utilization: seats > 0 ? h.activeUsers / seats : null,
    readiness_score: readiness.score,
    readiness_level: readiness.level,
    autonomy_mean: h.autonomyMean,
  };
}

/** The trend of the run: null without a history. */
export function computeTrend(context: SectionContext): TrendSection | null {
  const history = context.inputs.history;
  if (!history || history.length === 0) return null;
  const current = context.period.month;
  const earlier = history.filter((h) => h.month < current).slice(-(TREND_MONTHS - 1));
  const rows = [
    ...earlier.map((h) => trendRow(context, h, h.days < h.daysInMonth)),
    trendRow(context, currentMonth(context), context.period.partial),
  ];
  return {
    months: rows,
    from: rows[0]!.month,
    to: current,
    partialMonths: rows.filter((r) => r.partial).length,
  };
}

export const trend = defineSection<TrendSection | null>({
  id: 'trend',
  // The store's months are the organization's: shown as its context in a scoped report.
  scope: 'organization',
  // Months of the organization: no person, no group of people.
  privacy: (data) => data,
  title: 'Trend',
  compute: computeTrend,
  definitions: [
    {
      id: 'trend',
      term: 'Trend',
      text: 'Up to 12 months to the report\u2019s month, read from the store (orgreport monthly --store). Each month\u2019s credits, active users, average DAU, stickiness and autonomy follow the definitions of the figures of the same names over that calendar month; the report\u2019s own month is its figures. Seats and readiness are taken at each month\u2019s last day from the organization users and readiness reports of the latest sync, so users deleted since then are not counted. A month the store holds only in part is marked partial.',
    },
  ],
  partial: { file: fileURLToPath(new URL('./trend.hbs', import.meta.url)) },
  sheets: [
    {
      name: 'Trend',
      columns: (model) => [
        // `month` is the report's month on every workbook row (it stacks); this is the row's.
        field<TrendRow, 'month'>('month', 'text', 'trend_month'),
        field('partial', 'boolean'),
        field('days', 'integer'),
        field('credits', 'integer'),
        ...costColumn<TrendRow>(model, (r) => r.credits),
        field('active_users', 'integer'),
        field('avg_dau', 'decimal'),
        field('stickiness', 'share'),
        field('seats', 'integer'),
        field('seat_utilization', 'share'),
        field('readiness_score', 'share'),
        field('readiness_level', 'level'),
        field('autonomy_mean', 'decimal'),
      ],
      rows: (model) => (model.sections?.trend as TrendSection | undefined)?.months ?? [],
    },
  ],
});
