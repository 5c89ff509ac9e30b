/**
 * Autonomy and delegation: the autonomy ratio's mean and percentiles, the autonomy-level mix and the
 * primary-delegation mix, for the month and by week; the checks of the shares and of delegation
 * levels the API specification does not list.
 */
import { fileURLToPath } from 'node:url';
import { DELEGATION_LEVELS } from '@orgreport/api-core';
import { runOf } from '../../internal/run.ts';
import { autonomyMixFindings, delegationUnknown } from '../../internal/transforms/data-quality.ts';
import { delegationMix } from '../../internal/transforms/delegation.ts';
import type { DataQualityFinding } from '../../model.ts';
import { builtinSection } from '../builtin.ts';

export const behaviour = builtinSection('behaviour', {
  id: 'behaviour',
  title: 'Autonomy and delegation',
  compute: (context) => {
    const run = runOf(context);
    const { period, current } = run;
    return {
      month: {
        span: period.month,
        start: period.start,
        end: period.end,
        autonomy: {
          users: current.autonomyUsers,
          mean: current.values.autonomy_mean,
          p50: current.values.autonomy_p50,
          p90: current.values.autonomy_p90,
        },
        autonomyMix: run.mixOf(period),
        delegation: delegationMix(run.monthPrimary),
      },
      weeks: run.weekBehaviour,
    };
  },
  checks: (context, behaviour) =>
    [
      ...autonomyMixFindings(runOf(context).rows.tools),
      delegationUnknown(behaviour.month.delegation.counts, DELEGATION_LEVELS),
    ].filter((f): f is DataQualityFinding => f !== null),
  definitions: [
    {
      id: 'autonomy',
      term: 'Autonomy ratio',
      text: 'A user\u2019s autonomy over a span = their tool calls / their user messages in that span (users without a user message are left out). The org\u2019s mean, median (p50) and 90th percentile (p90) are taken over these users\u2019 ratios, percentiles by linear interpolation between closest ranks (Excel PERCENTILE.INC). The API\u2019s daily percentiles are never averaged.',
    },
    {
      id: 'autonomy_mix',
      term: 'Autonomy mix',
      text: 'Each day\u2019s tool_autonomy_level_ratio shares (auto_high, auto_medium, auto_low, manual) are first normalised to sum to 1; the span\u2019s share of a level = sum(share \u00d7 tool calls of the day) / sum(tool calls) over the days that have shares. Days whose raw shares were more than 1 % away from 100 %, and days with tool calls but no shares, are listed under data quality.',
    },
    {
      id: 'delegation',
      term: 'Primary delegation level and mix',
      text: 'The delegation levels are the service\u2019s modes of working with the agent: auto-high (maximum autonomy, minimal confirmation), auto-medium (some confirmation), auto-low (frequent confirmation), spec (specification mode: a plan before acting) and manual (each action confirmed); a user-day carries one. They are not the autonomy mix\u2019s levels, which share out a day\u2019s tool calls by how each ran. A user\u2019s primary delegation level in a span = the delegation_level of their active user-days carrying the most tool calls in total; ties go to the level with more user-days, then to the order auto-high, auto-medium, auto-low, spec, manual. Days without a level are not counted as evidence; a user with no level on any active day is shown as "other". Delegation mix = share of the span\u2019s active users at each primary level (the shares, "other" included, sum to 100 %).',
    },
  ],
  organizationContext: (organization) => {
    const mix = organization.behaviour.month.autonomyMix;
    return [
      {
        id: 'behaviour.autonomyMix',
        title: 'Autonomy mix (share of tool calls)',
        rows: (['auto_high', 'auto_medium', 'auto_low', 'manual'] as const).map((level) => ({
          label: level.replace('_', ' '),
          value: mix[level],
          kind: 'share' as const,
        })),
      },
    ];
  },
  partial: { file: fileURLToPath(new URL('./behaviour.hbs', import.meta.url)) },
});
