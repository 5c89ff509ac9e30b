/**
 * The executive summary: the headline figures with their comparison (cards and the full table) and
 * the workbook's Summary sheet; the definitions of the period, the sums and the change, and how each
 * figure combines across organizations and for a set of people.
 */
import { fileURLToPath } from 'node:url';
import { figureRuleDefinitions } from '../../figure-rules.ts';
import { WHAT_CHANGED_RULE } from '../../internal/transforms/what-changed.ts';
import { defineSection } from '../../section.ts';

export const summary = defineSection({
  id: 'summary',
  title: 'Executive summary',
  definitions: [
    {
      id: 'period',
      term: 'Period',
      text: 'One calendar month in UTC. Analytics data starts on 2026-01-14: an earlier start is clamped there and the period is marked partial. A partial report of the running month ends yesterday. The comparison period is the previous month, clamped the same way; where it has no data, previous values and changes are "n/a".',
    },
    {
      id: 'sums',
      term: 'Sums',
      text: 'Credits (billable_tokens), tokens, tool calls, sessions, messages, user messages, files created and edited, commits, pull requests, MCP, skill, slash-command and hook invocations are the sums of the analytics endpoints\u2019 daily totals over the days of the span. A day an endpoint returned no row counts as 0 and is listed under data quality.',
    },
    {
      id: 'change',
      term: 'Change',
      text: 'Counts, credits and ratios change relatively: (value \u2212 previous) / |previous|, "n/a" when there is no comparison value or the previous value is 0. Shares and scores (stickiness, utilization, readiness score, shares of a mix) change in percentage points (pp): value \u2212 previous. Levels change by their difference. \u25B2 marks a rise and \u25BC a fall; the colour shows the direction only (blue up, orange down), not whether it is good: more credits is more spend.',
    },
    {
      id: 'what_changed',
      term: 'What changed',
      text: WHAT_CHANGED_RULE,
    },
    {
      id: 'combine_rules',
      term: 'How each figure combines',
      text: 'Every figure declares how it combines across organizations (a rollup) and for a set of people (a team, a cost center, a manager\u2019s people): summed; recomputed from the combined rows (ratios, distinct counts, means, percentiles, peaks are never added or averaged); kept per organization, then shown per organization and never as one number; for a set of people, the organization\u2019s figure shown as labelled organization context; or not available, with the reason shown where the value would stand. The rule of each figure follows.',
    },
    ...figureRuleDefinitions(),
  ],
  partial: { file: fileURLToPath(new URL('./summary.hbs', import.meta.url)) },
  sheets: [{ name: 'Summary', figures: (model) => model.figures }],
});
