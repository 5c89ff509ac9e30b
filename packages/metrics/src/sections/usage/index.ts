/**
 * Usage: credits by day, by ISO week, by model and by tier (with cost when a price is set); the
 * workbook's Daily and Weekly sheets; the checks of the daily series (days an endpoint did not
 * return, daily totals that disagree with the per-user rows).
 */
import { fileURLToPath } from 'node:url';
import { runOf } from '../../internal/run.ts';
import { field } from '../../internal/sheet-columns.ts';
import { costOf, creditsByModel, creditsByTier } from '../../internal/transforms/credits.ts';
import { missingDays, usersTotalMismatch } from '../../internal/transforms/data-quality.ts';
import { creditsByPrimaryModel } from '../../internal/transforms/scope-breakdowns.ts';
import type { DailyRow, DataQualityFinding, WeeklyRow } from '../../model.ts';
import type { SheetColumn } from '../../section.ts';
import { builtinSection } from '../builtin.ts';

function datesOf(rows: ReadonlyArray<{ date: string }>): Set<string> {
  return new Set(rows.map((r) => r.date));
}

/** Columns of the `Daily` sheet. */
function dailyColumns(): SheetColumn<DailyRow>[] {
  return [
    field('date', 'date'),
    field('hasData', 'boolean', 'has_data'),
    field('credits', 'integer'),
    field('input_tokens', 'integer'),
    field('output_tokens', 'integer'),
    field('cache_read_tokens', 'integer'),
    field('cache_write_tokens', 'integer'),
    field('tool_calls', 'integer'),
    field('mcp_calls', 'integer'),
    field('skill_calls', 'integer'),
    field('slash_commands', 'integer'),
    field('hooks', 'integer'),
    field('sessions', 'integer'),
    field('messages', 'integer'),
    field('user_messages', 'integer'),
    field('files_created', 'integer'),
    field('files_edited', 'integer'),
    field('git_commits', 'integer'),
    field('git_prs_created', 'integer'),
    field('dau', 'integer'),
    field('wau', 'integer'),
    field('mau_trailing_30d', 'integer'),
    field('active_users', 'integer'),
    field('auto_high', 'share'),
    field('auto_medium', 'share'),
    field('auto_low', 'share'),
    field('manual', 'share'),
  ];
}

/** Columns of the `Weekly` sheet (docs/metrics.md, "Figure ids", plus the other sums). */
function weeklyColumns(): SheetColumn<WeeklyRow>[] {
  return [
    field('week', 'text'),
    field('start', 'date'),
    field('end', 'date'),
    field('days_in_period', 'integer'),
    field('partial', 'boolean'),
    field('credits', 'integer'),
    field('tool_calls', 'integer'),
    field('sessions', 'integer'),
    field('messages', 'integer'),
    field('user_messages', 'integer'),
    field('input_tokens', 'integer'),
    field('output_tokens', 'integer'),
    field('cache_read_tokens', 'integer'),
    field('cache_write_tokens', 'integer'),
    field('files_created', 'integer'),
    field('files_edited', 'integer'),
    field('git_commits', 'integer'),
    field('git_prs_created', 'integer'),
    field('active_users', 'integer'),
    field('avg_dau', 'decimal'),
    field('max_dau', 'integer'),
    field('wau', 'integer'),
    field('wau_exact', 'boolean'),
    field('autonomy_mean', 'decimal'),
    field('autonomy_p50', 'decimal'),
    field('autonomy_p90', 'decimal'),
    field('autonomy_users', 'integer'),
    field('auto_high', 'share'),
    field('auto_medium', 'share'),
    field('auto_low', 'share'),
    field('manual', 'share'),
    field('delegation_auto_high', 'share'),
    field('delegation_auto_medium', 'share'),
    field('delegation_auto_low', 'share'),
    field('delegation_spec', 'share'),
    field('delegation_manual', 'share'),
    field('delegation_other', 'share'),
  ];
}

export const usage = builtinSection('credits', {
  id: 'usage',
  title: 'Usage',
  compute: (context) => {
    const run = runOf(context);
    const credits = run.current.values.credits ?? 0;
    // A scope's credits by model come from its rows: each day's credits to that day's primary model.
    const byModel = context.scope
      ? creditsByPrimaryModel(run.periodRows, run.userDays, run.price)
      : creditsByModel(run.rows.tokens, run.price);
    return {
      total: credits,
      cost: costOf(credits, run.price),
      byModel,
      byTier: creditsByTier(byModel, run.price),
    };
  },
  checks: (context) => {
    const run = runOf(context);
    return [
      missingDays(run.snapshot, run.period),
      usersTotalMismatch(
        run.daily as unknown as Array<Record<string, unknown> & { date: string }>,
        run.perDayUsers,
        {
          tokens: datesOf(run.rows.tokens),
          tools: datesOf(run.rows.tools),
          activity: run.activityDates,
          productivity: datesOf(run.rows.productivity),
        },
      ),
    ].filter((f): f is DataQualityFinding => f !== null);
  },
  definitions: [
    {
      id: 'weeks',
      term: 'Weeks',
      text: 'ISO weeks (Monday to Sunday, UTC), labelled YYYY-Www; every week that intersects the period is listed with its number of days inside the period, and is partial when that is below 7. Sums cover the week\u2019s days inside the period; DAU is their mean and max. WAU = weekly_active_users of the week\u2019s last day inside the period (the exact ISO-week figure only when that day is a Sunday; for a week begun before the period, that figure includes its days before the period).',
    },
    {
      id: 'credits',
      term: 'Credits and cost',
      text: 'Credits by model and by tier (standard, thinking) are sums of the /tokens by_model breakdowns; in a report for a set of people, whose rows carry credits but no breakdown, each user-day\u2019s credits go to that day\u2019s primary model and its tier (primary_model, primary_model_tier), and no tokens are shown. A user\u2019s primary model for the month is the model that was their daily primary model on the days with the most credits. Cost = credits \u00d7 the configured price per credit, in the configured currency (by model in whole cents that add up to the models\u2019 total, a tier\u2019s being its models\u2019); without a price no cost is shown.',
    },
  ],
  organizationContext: (organization) => [
    {
      id: 'tokens',
      title: 'Tokens by kind',
      rows: (['input_tokens', 'output_tokens', 'cache_read_tokens', 'cache_write_tokens'] as const).map(
        (id) => {
          const f = organization.figures.find((x) => x.id === id);
          return { label: f?.label ?? id, value: f?.value ?? null, kind: 'integer' as const };
        },
      ),
    },
  ],
  partial: { file: fileURLToPath(new URL('./usage.hbs', import.meta.url)) },
  sheets: [
    { name: 'Daily', columns: dailyColumns, rows: (model) => model.daily },
    { name: 'Weekly', columns: weeklyColumns, rows: (model) => model.weekly },
  ],
});
