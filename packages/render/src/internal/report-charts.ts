/**
 * The charts of the report, built from the model: name -> inline SVG. Templates insert them with
 * `{{chart "name"}}`.
 */
import type { ReportModel } from '@orgreport/metrics';
import { barChart, lineChart, rankingChart, shareChart } from '../charts.ts';
import { formatRepository } from '../format.ts';

const AUTONOMY_LEVELS = [
  ['auto_high', 'auto high'],
  ['auto_medium', 'auto medium'],
  ['auto_low', 'auto low'],
  ['manual', 'manual'],
] as const;

const DELEGATION_LEVELS = [
  ['delegation_auto_high', 'auto-high'],
  ['delegation_auto_medium', 'auto-medium'],
  ['delegation_auto_low', 'auto-low'],
  ['delegation_spec', 'spec'],
  ['delegation_manual', 'manual'],
  ['delegation_other', 'other'],
] as const;

/** Most items a ranking chart shows. */
const TOP = 12;

/** The charts of a report by name, each drawn the first time a template asks for it. */
export interface ReportCharts {
  get(name: string): string | undefined;
}

/**
 * The report's charts by name: which ones it has is decided from the model at once, each is drawn
 * only when a template inserts it (a short report draws none of the full report's charts).
 */
export function reportCharts(model: ReportModel): ReportCharts {
  const charts = new Map<string, () => string>();
  const days = model.daily.map((d) => d.date.slice(5));
  const weeks = model.weekly.map((w) => (w.partial ? `${w.week}*` : w.week));

  charts.set('creditsByDay', () =>
    barChart(days, [{ name: 'credits', values: model.daily.map((d) => d.credits) }], {
      title: 'Credits by day',
    }),
  );
  charts.set('creditsByWeek', () =>
    barChart(weeks, [{ name: 'credits', values: model.weekly.map((w) => w.credits) }], {
      height: 200,
      title: 'Credits by ISO week',
    }),
  );
  if (model.credits.byModel.length > 0) {
    charts.set('creditsByModel', () =>
      rankingChart(
        model.credits.byModel.slice(0, TOP).map((m) => ({ label: m.model_id, value: m.credits })),
        { title: 'Credits by model' },
      ),
    );
  }
  charts.set('activeUsers', () =>
    lineChart(
      days,
      [
        { name: 'DAU', values: model.daily.map((d) => (d.hasData ? d.dau : null)) },
        { name: 'WAU (trailing 7 days)', values: model.daily.map((d) => (d.hasData ? d.wau : null)) },
        {
          name: 'MAU (trailing 30 days)',
          values: model.daily.map((d) => (d.hasData ? d.mau_trailing_30d : null)),
        },
      ],
      { title: 'Daily, weekly and monthly active users by day' },
    ),
  );
  charts.set('autonomyMix', () =>
    shareChart(
      weeks,
      AUTONOMY_LEVELS.map(([key, name]) => ({ name, values: model.weekly.map((w) => w[key]) })),
      { title: 'Autonomy mix by ISO week (share of tool calls)' },
    ),
  );
  charts.set('delegationMix', () =>
    shareChart(
      weeks,
      DELEGATION_LEVELS.map(([key, name]) => ({ name, values: model.weekly.map((w) => w[key]) })),
      { title: 'Delegation mix by ISO week (share of active users)' },
    ),
  );
  if (model.tools.top.length > 0) {
    charts.set('topTools', () =>
      rankingChart(
        model.tools.top.slice(0, TOP).map((t) => ({ label: t.name, value: t.count })),
        { title: 'Most used tools (calls)' },
      ),
    );
  }
  charts.set('productivity', () =>
    lineChart(
      days,
      [
        { name: 'files edited', values: model.daily.map((d) => d.files_edited) },
        { name: 'files created', values: model.daily.map((d) => d.files_created) },
        { name: 'commits', values: model.daily.map((d) => d.git_commits) },
        { name: 'PRs created', values: model.daily.map((d) => d.git_prs_created) },
      ],
      { title: 'Files, commits and pull requests by day' },
    ),
  );
  if (model.readiness.repos.length > 0) {
    charts.set('readinessRepos', () =>
      rankingChart(
        [...model.readiness.repos]
          .sort((a, b) => (b.score ?? -1) - (a.score ?? -1))
          .slice(0, TOP)
          .map((r) => ({
            // In a rollup two organizations may evaluate the same URL: the label names whose it is.
            label: r.organization
              ? `${r.organization.name}: ${formatRepository(r.repo_url)}`
              : formatRepository(r.repo_url),
            value: Math.round((r.score ?? 0) * 1000) / 10,
          })),
        { title: 'Readiness score by repository (%)' },
      ),
    );
  }
  const trend = model.sections?.trend as
    | {
        months: Array<{
          month: string;
          partial: boolean;
          credits: number;
          active_users: number;
          seats: number;
        }>;
      }
    | undefined;
  if (trend) {
    const months = trend.months.map((m) => (m.partial ? `${m.month}*` : m.month));
    charts.set('trendCredits', () =>
      barChart(months, [{ name: 'credits', values: trend.months.map((m) => m.credits) }], {
        height: 200,
        title: 'Credits by month',
      }),
    );
    charts.set('trendUsers', () =>
      lineChart(
        months,
        [
          { name: 'active users', values: trend.months.map((m) => m.active_users) },
          { name: 'seats', values: trend.months.map((m) => m.seats) },
        ],
        { height: 200, title: 'Active users and seats by month' },
      ),
    );
  }
  const drawn = new Map<string, string>();
  return {
    get(name) {
      const known = drawn.get(name);
      if (known !== undefined) return known;
      const svg = charts.get(name)?.();
      if (svg !== undefined) drawn.set(name, svg);
      return svg;
    },
  };
}
