/**
 * The plain-language definitions of every figure and rule, printed on the report's definitions
 * page and the workbook's definitions sheet (so a reader can recompute each number by hand).
 */
import type { Definition } from './model.ts';

/** The readiness level rule in plain language. */
export const READINESS_LEVEL_RULE =
  'Readiness levels are 1 Functional, 2 Documented, 3 Standardized, 4 Optimized, 5 Autonomous. ' +
  'A repository starts at level 1 and reaches level n+1 when at least 80 % of its scored level-n criteria pass ' +
  '(numerator = denominator), checked level by level up to 5. A level with no scored criterion in the report ' +
  'cannot be passed, so the climb stops there. Skipped criteria (no numerator) and invalid evaluations are left ' +
  'out. Which level a criterion belongs to is configuration (a default mapping ships with orgreport); criteria ' +
  'missing from it count in scores but in no level and are listed. Org level = the mean of the repositories\u2019 ' +
  'levels, rounded down.';

/** Every definition, in report order. */
export const DEFINITIONS: readonly Definition[] = [
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
    text: 'Relative change = (value \u2212 previous) / |previous|. It is "n/a" when there is no comparison value or the previous value is 0.',
  },
  {
    id: 'active_users',
    term: 'Active users',
    text: 'Distinct user_id among the period\u2019s per-user rows (/users) with tool calls, messages or sessions above 0. Distinct counts are never summed across days or weeks.',
  },
  {
    id: 'dau',
    term: 'Average and peak DAU, stickiness',
    text: 'Average DAU = mean of daily_active_users over the days of the span that have activity data; peak DAU = their maximum. Stickiness = average DAU / active users of the month.',
  },
  {
    id: 'mau_trailing_30d',
    term: 'Trailing 30-day active users',
    text: 'The API\u2019s monthly_active_users on the period\u2019s last day: users active in the 30 days up to that day, not the month\u2019s active users.',
  },
  {
    id: 'weeks',
    term: 'Weeks',
    text: 'ISO weeks (Monday to Sunday, UTC), labelled YYYY-Www; every week that intersects the period is listed with its number of days inside the period, and is partial when that is below 7. Sums cover the week\u2019s days inside the period; DAU is their mean and max. WAU = weekly_active_users of the week\u2019s last day inside the period (the exact ISO-week figure only when that day is a Sunday).',
  },
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
    text: 'A user\u2019s primary delegation level in a span = the delegation_level of their active user-days carrying the most tool calls in total; ties go to the level with more user-days, then to the order auto-high, auto-medium, auto-low, spec, manual. Days without a level are not counted as evidence; a user with no level on any active day is shown as "other". Delegation mix = share of the span\u2019s active users at each primary level (the shares, "other" included, sum to 100 %).',
  },
  {
    id: 'readiness_score',
    term: 'Readiness scores',
    text: 'Criterion score = numerator / denominator. An evaluation without a numerator is skipped (left out of every score, counted as skipped); one with a denominator below 1, a negative numerator or a numerator above the denominator is invalid (excluded and listed under data quality). A criterion passes when numerator = denominator. Report score = mean of its criterion scores. A repository\u2019s score = that of its latest report created on or before the period\u2019s last day; trend = that score minus the score of its latest report on or before the comparison period\u2019s last day, in percentage points. Org score = mean of the repositories\u2019 scores. Weakest criteria = criteria ordered by their mean score across the repositories\u2019 latest reports.',
  },
  { id: 'readiness_level', term: 'Readiness levels', text: READINESS_LEVEL_RULE },
  {
    id: 'tools',
    term: 'Tools, MCP servers, skills, commands, hooks',
    text: 'MCP server names that differ only in letter case are one server, shown under its most frequent spelling (MCP tool names mcp__server__tool merge the same way). A tool name is a plausible identifier when it has 1 to 128 characters, starts with an ASCII letter or underscore and contains only ASCII letters, digits, underscores and hyphens; other names are parsing artifacts, counted under "(unparseable)", left out of the top lists and reported under data quality.',
  },
  {
    id: 'credits',
    term: 'Credits and cost',
    text: 'Credits by model and by tier (standard, thinking) are sums of the /tokens by_model breakdowns. A user\u2019s primary model for the month is the model that was their daily primary model on the days with the most credits. Cost = credits \u00d7 the configured price per credit, in the configured currency; without a price no cost is shown.',
  },
  {
    id: 'controls',
    term: 'Enterprise-control changes',
    text: 'The revisions whose updatedAt falls inside the period, each with who made it, when, and a field-level diff against the previous revision. Secrets are known by what they are, not by what a field is called: the fields the API documents as secret (a custom model\u2019s apiKey, its extraHeaders and its cloud credential export) never show their values (a changed one reads "changed (redacted)"), and credentials inside text (bearer tokens, sk- keys, GitHub and Slack tokens, AWS key ids, JWTs) are masked in place; every other setting, such as restrictApiKeyCreationToManagers, shows its before and after. Changes to security-relevant settings (key creation, member visibility, models, MCP, plugins and marketplaces, command lists, network, sandbox, shield, managed and own computers, cloud sync and session retention) are marked and listed first.',
  },
  {
    id: 'seats',
    term: 'Seats',
    text: 'Seats = organization users that existed on the period\u2019s last day (created on or before it; users without a creation date count). Seat utilization = active users of the month / seats. Dormant seats = seats whose user (matched by id or e-mail) had no activity in the period.',
  },
  {
    id: 'limits',
    term: 'Credit limits',
    text: 'Where a credit-limit file is given, each user\u2019s credits in the period are shown against their limit (matched by e-mail, any case): utilization = credits / limit, flagged at 80 % and at 100 %.',
  },
  {
    id: 'data_quality',
    term: 'Data quality',
    text: 'Listed: days missing in the period, merged MCP spellings, unparseable tool names, autonomy shares off by more than 1 %, invalid readiness evaluations, criteria missing from the level mapping, daily totals that differ by more than 0.5 % (of the analytics total) from the sum of the per-user rows of the same day, and what the API specification does not describe: delegation levels and client types it does not list, row fields it does not document, and enterprise settings it does not document or that a revision renamed or removed.',
  },
  {
    id: 'row_checks',
    term: 'Checked rows',
    text: 'Numbers from the API are checked, not trusted. A row with a negative count (or negative credits) is excluded from every figure; a row with a fractional count (calls, sessions, messages, files, tokens: whole numbers by definition; credits may be fractional) is kept as sent and flagged; a row dated outside the requested days, or today or later, is excluded; a second row for the same user and day (per-user rows) or the same day (daily totals), as overlapping pages give, is excluded, never summed: the first one received counts. Each rule that found rows is listed under data quality with how many rows and what was done.',
  },
];
