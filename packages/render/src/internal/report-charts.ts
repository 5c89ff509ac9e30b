/**
 * The charts of the report, built from the model: name -> inline SVG. Templates insert them with
 * `{{chart "name"}}`.
 */
import type { ReportModel } from '@orgreport/metrics';
import { barChart, lineChart, rankingChart, shareChart } from '../charts.ts';

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

/** A repository URL without scheme and host (`acme/api`), the part that tells repositories apart. */
function repoLabel(url: string): string {
  return url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]+\//i, '') || url;
}

/** Most items a ranking chart shows. */
const TOP = 12;

/** Builds every chart of the report from the model. */
export function reportCharts(model: ReportModel): Map<string, string> {
  const charts = new Map<string, string>();
  const days = model.daily.map((d) => d.date.slice(5));
  const weeks = model.weekly.map((w) => (w.partial ? `${w.week}*` : w.week));

  charts.set(
    'creditsByDay',
    barChart(days, [{ name: 'credits', values: model.daily.map((d) => d.credits) }]),
  );
  charts.set(
    'creditsByWeek',
    barChart(weeks, [{ name: 'credits', values: model.weekly.map((w) => w.credits) }], { height: 200 }),
  );
  if (model.credits.byModel.length > 0) {
    charts.set(
      'creditsByModel',
      rankingChart(model.credits.byModel.slice(0, TOP).map((m) => ({ label: m.model_id, value: m.credits }))),
    );
  }
  charts.set(
    'activeUsers',
    lineChart(days, [
      { name: 'DAU', values: model.daily.map((d) => (d.hasData ? d.dau : null)) },
      { name: 'WAU (trailing 7 days)', values: model.daily.map((d) => (d.hasData ? d.wau : null)) },
      {
        name: 'MAU (trailing 30 days)',
        values: model.daily.map((d) => (d.hasData ? d.mau_trailing_30d : null)),
      },
    ]),
  );
  charts.set(
    'autonomyMix',
    shareChart(
      weeks,
      AUTONOMY_LEVELS.map(([key, name]) => ({ name, values: model.weekly.map((w) => w[key]) })),
    ),
  );
  charts.set(
    'delegationMix',
    shareChart(
      weeks,
      DELEGATION_LEVELS.map(([key, name]) => ({ name, values: model.weekly.map((w) => w[key]) })),
    ),
  );
  if (model.tools.top.length > 0) {
    charts.set(
      'topTools',
      rankingChart(model.tools.top.slice(0, TOP).map((t) => ({ label: t.name, value: t.count }))),
    );
  }
  charts.set(
    'productivity',
    lineChart(days, [
      { name: 'files edited', values: model.daily.map((d) => d.files_edited) },
      { name: 'files created', values: model.daily.map((d) => d.files_created) },
      { name: 'commits', values: model.daily.map((d) => d.git_commits) },
      { name: 'PRs created', values: model.daily.map((d) => d.git_prs_created) },
    ]),
  );
  if (model.readiness.repos.length > 0) {
    charts.set(
      'readinessRepos',
      rankingChart(
        [...model.readiness.repos]
          .sort((a, b) => (b.score ?? -1) - (a.score ?? -1))
          .slice(0, TOP)
          .map((r) => ({ label: repoLabel(r.repo_url), value: Math.round((r.score ?? 0) * 1000) / 10 })),
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
    charts.set(
      'trendCredits',
      barChart(months, [{ name: 'credits', values: trend.months.map((m) => m.credits) }], { height: 200 }),
    );
    charts.set(
      'trendUsers',
      lineChart(
        months,
        [
          { name: 'active users', values: trend.months.map((m) => m.active_users) },
          { name: 'seats', values: trend.months.map((m) => m.seats) },
        ],
        { height: 200 },
      ),
    );
  }
  return charts;
}
