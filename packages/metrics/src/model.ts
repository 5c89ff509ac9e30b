/**
 * The report model: every number of the monthly report, as plain JSON.
 *
 * This is the contract between `@orgreport/metrics` (which builds it) and `@orgreport/render`, the
 * workbook and the JSON export (which read it). Rules that hold everywhere:
 * - plain JSON only: no `Date`, no class instance, no `undefined` values, no NaN or Infinity;
 * - days are `YYYY-MM-DD` (UTC), instants are ISO 8601 strings, weeks are ISO weeks `YYYY-Www`;
 * - numbers are numbers (never formatted strings); shares are fractions in [0, 1];
 * - `null` means "n/a" (no data, or not meaningful), never zero;
 * - the shape only grows: fields are added, never renamed or removed (see {@link REPORT_MODEL_VERSION}).
 */

/** Version of the model's shape; raised only if a field ever has to change meaning. */
export const REPORT_MODEL_VERSION = 1;

/** A calendar day in UTC, `YYYY-MM-DD`. */
export type Day = string;

/**
 * Unit of a headline figure, which tells the renderer how to format it: `count`, `credits` and
 * `tokens` are whole numbers; `ratio` is a quotient or a mean (two decimals, e.g. `avg_dau`);
 * `share` and `score` are fractions in [0, 1]; `level` is a small whole number.
 */
export type FigureUnit = 'count' | 'credits' | 'ratio' | 'share' | 'level' | 'score' | 'tokens';

/** How a figure's change is measured (see {@link Figure.change}). */
export type ChangeKind = 'relative' | 'points' | 'difference';

/** The stable ids of the headline figures (docs/metrics.md, "Figure ids"), in report order. */
export const FIGURE_IDS = [
  'credits',
  'input_tokens',
  'output_tokens',
  'cache_read_tokens',
  'cache_write_tokens',
  'tool_calls',
  'sessions',
  'messages',
  'user_messages',
  'files_created',
  'files_edited',
  'git_commits',
  'git_prs_created',
  'active_users',
  'avg_dau',
  'peak_dau',
  'stickiness',
  'mau_trailing_30d',
  'autonomy_mean',
  'autonomy_p50',
  'autonomy_p90',
  'seats',
  'seat_utilization',
  'dormant_seats',
  'readiness_org_score',
  'readiness_org_level',
  'readiness_repos',
  'controls_changes',
] as const;
export type FigureId = (typeof FIGURE_IDS)[number];

/**
 * One fact of the "what changed" paragraph that opens the report, in the order the paragraph tells
 * them (the rule the definitions page states): security-relevant control changes, the largest movers among
 * the headline figures, new and lost users, seats that could be reclaimed, the readiness level.
 */
export type ChangeFact =
  | {
      kind: 'security';
      /** Security-relevant field changes (a setting set and set back is two). */
      changes: number;
      paths: string[];
      /** The period's revisions with a security-relevant change (in a rollup, counted per organization). */
      revisions: number;
      /** Every revision of the period: the "Enterprise-control changes" figure the paragraph is read beside. */
      ofRevisions: number;
      /** In a rollup: the organizations where a security setting changed, by name. */
      organizations?: string[];
    }
  | { kind: 'figure'; figure: Figure }
  | {
      kind: 'users';
      active: number;
      /** Active now and nowhere in the organization the month before. */
      new: number;
      /** Active the month before (in the scope) and nowhere in the organization now. */
      lost: number;
      /** In a scoped report: active now, and the month before only outside the scope (they moved in). */
      movedIn?: number;
      /** In a scoped report: active the month before in the scope, now only outside it (they moved out). */
      movedOut?: number;
    }
  | { kind: 'reclaim'; seats: number; dormant: number; candidates: number }
  | { kind: 'readiness-level'; from: number; to: number; repos: number };

/** One headline figure of the period with its comparison. */
export interface Figure {
  /** Stable id (see {@link FIGURE_IDS}); the workbook's Summary sheet uses the same ids. */
  id: FigureId;
  /** Plain-language label, e.g. "Credits consumed". */
  label: string;
  /** Value in the period; null when it cannot be computed (e.g. stickiness with no active user). */
  value: number | null;
  /** Value in the comparison period; null when there is no comparison period or it has no data. */
  previous: number | null;
  /**
   * The change on the comparison period, as `changeKind` says: relative `(value - previous) /
   * |previous|` (0.25 = +25 %) for counts and ratios; for shares and scores the difference in
   * percentage points, as a fraction like the shares (0.003 = +0.3 pp); for levels the difference
   * (+1). Null when either side is null, or, relative, when `previous` is 0 (never 0 % or Infinity
   * for a missing comparison).
   */
  change: number | null;
  /** What `change` is: a relative change, a difference of shares in points, or a plain difference. */
  changeKind: ChangeKind;
  unit: FigureUnit;
  /** Extra qualification to print next to the figure (e.g. "trailing 30 days, not the month's figure"). */
  note?: string;
  /**
   * Why the figure has no value in this report by its combine rule (see `FIGURE_RULES`): kept per
   * organization in a rollup, or not available; printed where the value would stand. Absent when
   * the figure is computed (a null value then means "no data").
   */
  unavailableReason?: string;
  /**
   * In a scoped report, the organization's value of the same figure, for comparison ("your team
   * 78 %, organization 86 %"); absent in the organization's report and where it is the organization's own.
   */
  organization?: number | null;
}

/** What a scoped report is for (absent in the organization's report). */
export interface ReportScope {
  kind: 'team' | 'cost-center' | 'manager';
  /** The team, cost center or manager's e-mail as the directory writes it. */
  name: string;
  /** How the report names it: `Team Platform`, `Everyone under dana.lee@acme.test`. */
  label: string;
  /** File-name-safe form (`team-platform`). */
  slug: string;
  /** People in the scope on the period's last day. */
  people: number;
  /** Sections shown as organization context (the API gives them for the whole organization only). */
  organizationSections: string[];
  /** Sections left out of a scoped report. */
  omittedSections: string[];
  /**
   * The parts of sections the API gives for the whole organization only (`tools.top`,
   * `clients`, ...): empty in this model, shown as the organization's on its context page.
   */
  organizationOnly: string[];
  /** For a manager's scope: the manager, by name where the organization's users give one. */
  manager?: { email: string; name: string | null };
}

/**
 * A block of the organization-context page of a scoped report: figures the API gives for the whole
 * organization only, read from the organization's model and labelled as its own.
 */
export interface ContextBlock {
  /** The section part it shows (`tools.top`). */
  id: string;
  title: string;
  rows: Array<{ label: string; value: number | null; kind: 'integer' | 'decimal' | 'share' }>;
  /** A line under the block. */
  note?: string;
}

/**
 * The privacy rules a document was made under (see the definitions page): the minimum group size,
 * whether per-person rows were allowed for its reader, and whether identities are pseudonyms.
 */
export interface ReportPrivacy {
  /** No group (team, cost center, language, model, level...) under this many people shows figures that single out people, unless per-person rows are allowed. */
  minGroupSize: number;
  /**
   * Whose per-person rows (users, dormant seats, top users, user languages) the document holds:
   * everyone's, those of the scope's people (a manager's report), or nobody's.
   */
  personRows: 'all' | 'scope' | 'none';
  /** E-mails and user ids are keyed pseudonyms. */
  pseudonymized: boolean;
  /**
   * Groups whose figures were held back, by where they stood, and how many people they hold: null
   * when fewer than the minimum group size (the exact count of a group held back would tell what
   * holding it back hides).
   */
  suppressed: Array<{ where: string; group: string; people: number | null }>;
}

/** An organization named in a report made of several (a rollup). */
export interface OrganizationRef {
  id: string;
  name: string;
}

/** A span of report days (the period or the comparison period), copied from the manifest. */
export interface ReportPeriod {
  /** The calendar month, `YYYY-MM`. */
  month: string;
  /** First day of the span (the month's first day, or 2026-01-14 when clamped). */
  start: Day;
  /** Last day of the span (the month's last day, or yesterday for a partial report). */
  end: Day;
  /** Number of days in `start..end`. */
  days: number;
  /** True when the span is shorter than its month (clamped start or ends early). */
  partial: boolean;
  /** The month started before 2026-01-14 (first day of analytics data) and was cut there. */
  clampedStart: boolean;
  /** The month was not over; the span ends yesterday (partial report asked for explicitly). */
  endsEarly: boolean;
}

/** One day of the period: analytics daily totals (not `/users` sums). */
export interface DailyRow {
  date: Day;
  /** False when no analytics endpoint returned a row for this day (its numbers are then 0). */
  hasData: boolean;
  /** Standard credits (`billable_tokens` of `/tokens`; in a scoped report, the scope's `/users` credits). */
  credits: number;
  /**
   * `/tokens` token counts; null in a scoped report: the API gives tokens for the whole organization
   * only (its per-user rows carry credits, not tokens).
   */
  input_tokens: number | null;
  output_tokens: number | null;
  cache_read_tokens: number | null;
  cache_write_tokens: number | null;
  /** `/tools` tool_calls. */
  tool_calls: number;
  /** Sum of `/tools` mcp_by_server invocations. */
  mcp_calls: number;
  skill_calls: number;
  slash_commands: number;
  hooks: number;
  /** `/activity` sessions, messages, user_messages. */
  sessions: number;
  messages: number;
  user_messages: number;
  /** `/productivity` counts. */
  files_created: number;
  files_edited: number;
  git_commits: number;
  git_prs_created: number;
  /** `/activity` daily_active_users. */
  dau: number;
  /** `/activity` weekly_active_users (trailing 7 days). */
  wau: number;
  /** `/activity` monthly_active_users (trailing 30 days). */
  mau_trailing_30d: number;
  /** Distinct users with activity that day in `/users` rows. */
  active_users: number;
  /** Autonomy-level shares of the day, normalised to sum to 1; null when the day has no shares. */
  auto_high: number | null;
  auto_medium: number | null;
  auto_low: number | null;
  manual: number | null;
}

/** One ISO week intersecting the period (the workbook's `Weekly` sheet, one row per week). */
export interface WeeklyRow {
  /** ISO week label `YYYY-Www`. */
  week: string;
  /** First and last day of the week inside the period. */
  start: Day;
  end: Day;
  /** Days of the week inside the period (1..7). */
  days_in_period: number;
  /** True when fewer than 7 of the week's days are inside the period. */
  partial: boolean;
  /** Additive sums over the week's days inside the period (analytics daily totals). */
  credits: number;
  /** Null in a scoped report (see {@link DailyRow.input_tokens}). */
  input_tokens: number | null;
  output_tokens: number | null;
  cache_read_tokens: number | null;
  cache_write_tokens: number | null;
  tool_calls: number;
  sessions: number;
  messages: number;
  user_messages: number;
  files_created: number;
  files_edited: number;
  git_commits: number;
  git_prs_created: number;
  /** Distinct users with activity in the week's days inside the period (`/users`). */
  active_users: number;
  /** Mean and max of daily_active_users over the week's days inside the period; null with no data day. */
  avg_dau: number | null;
  max_dau: number | null;
  /** weekly_active_users of the week's last day inside the period; null when that day has no data. */
  wau: number | null;
  /** True when that last day is a Sunday (WAU is then the exact ISO-week figure). */
  wau_exact: boolean;
  /** Autonomy over the week (see {@link AutonomyStats}); null with no user having a user message. */
  autonomy_mean: number | null;
  autonomy_p50: number | null;
  autonomy_p90: number | null;
  /** Users whose ratio entered the autonomy statistics. */
  autonomy_users: number;
  /** Autonomy-level mix weighted by tool calls; null when the week has no weighted tool call. */
  auto_high: number | null;
  auto_medium: number | null;
  auto_low: number | null;
  manual: number | null;
  /** Delegation mix: share of the week's active users at each primary level; null with no active user. */
  delegation_auto_high: number | null;
  delegation_auto_medium: number | null;
  delegation_auto_low: number | null;
  delegation_spec: number | null;
  delegation_manual: number | null;
  /** Share of active users whose primary level is missing or not one of the five known levels. */
  delegation_other: number | null;
}

/** Autonomy ratios over a span (tool calls / user messages per user; PERCENTILE.INC). */
export interface AutonomyStats {
  /** Users with at least one user message in the span. */
  users: number;
  mean: number | null;
  p50: number | null;
  p90: number | null;
}

/** Autonomy-level mix over a span: shares weighted by each day's tool calls; null when no weight. */
export interface AutonomyMix {
  auto_high: number | null;
  auto_medium: number | null;
  auto_low: number | null;
  manual: number | null;
  /** Tool calls of the days whose shares were used as weights. */
  weighted_tool_calls: number;
}

/** Delegation mix over a span: share of active users by primary delegation level. */
export interface DelegationMix {
  /** Active users of the span (the denominator). */
  active_users: number;
  /** Users per primary level (known levels always present, other values as they occur, `(none)` for missing). */
  counts: Record<string, number>;
  /** Shares keyed like `counts`; null values when `active_users` is 0. */
  shares: Record<string, number | null>;
}

/** Autonomy and delegation of one span (the month or a week). */
export interface SpanBehaviour {
  /** `YYYY-MM` for the month, `YYYY-Www` for a week. */
  span: string;
  start: Day;
  end: Day;
  autonomy: AutonomyStats;
  autonomyMix: AutonomyMix;
  delegation: DelegationMix;
}

/** A named count in a top list. */
export interface NamedCount {
  name: string;
  count: number;
  /** count / total of the list's category in the period; null when the total is 0. */
  share: number | null;
}

/** An MCP server after merging names that differ only in letter case. */
export interface McpServerRow extends NamedCount {
  /** Every spelling seen, most frequent first (the first is `name`). */
  spellings: Array<{ name: string; count: number }>;
}

/** Hook executions of one event (and optionally matcher/command) from `/tools` hooks_by_event. */
export interface HookRow {
  event: string;
  count: number;
  share: number | null;
  /** Per matcher+command breakdown, largest first. */
  commands: Array<{ matcher: string | null; command: string | null; count: number }>;
}

/** Credits of one model in the period (from `/tokens` by_model). */
export interface ModelCreditsRow {
  model_id: string;
  model_tier: string;
  credits: number;
  /** Null in a scoped report: the per-user rows carry credits, not tokens. */
  input_tokens: number | null;
  output_tokens: number | null;
  share: number | null;
  /** credits x price; null when no price is configured. */
  cost: number | null;
}

/** Credits of one tier (`standard`, `thinking`, others as they occur). */
export interface TierCreditsRow {
  tier: string;
  credits: number;
  share: number | null;
  cost: number | null;
}

/** One user's totals over the period (from `/users` rows). */
export interface UserMonthRow {
  user_id: string;
  /** Latest non-null e-mail of the user's `/users` rows in the snapshot; null when none. */
  email: string | null;
  /** First and last name of the organization user (matched by id or e-mail); null when unknown. */
  name: string | null;
  /**
   * With a people directory: the user's team and cost center at the period's end (in a scoped
   * report, the last of the scope's they were in); "Unassigned" for someone it does not list.
   */
  team?: string | null;
  cost_center?: string | null;
  /** Days with a `/users` row showing activity. */
  active_days: number;
  credits: number;
  tool_calls: number;
  sessions: number;
  messages: number;
  user_messages: number;
  files_created: number;
  files_edited: number;
  git_commits: number;
  git_prs_created: number;
  mcp_calls: number;
  skill_calls: number;
  slash_commands: number;
  hooks: number;
  /** Model that was the day's primary model on the days with the most credits; null when none. */
  primary_model: string | null;
  primary_model_tier: string | null;
  /** Primary delegation level over the period (ties rule of docs/metrics.md); null when none. */
  primary_delegation: string | null;
  /** tool_calls / user_messages over the period; null with no user message. */
  autonomy: number | null;
  /** Languages worked in, most days first. */
  languages: string[];
  /** Credit limit from the limits file; null when no limit is given for the user. */
  credit_limit: number | null;
  /** credits / credit_limit; null without a (positive) limit. */
  limit_utilization: number | null;
  /** utilization >= 0.8 and >= 1.0 (false without a limit). */
  over_80: boolean;
  over_100: boolean;
  /**
   * The user's credit cost in whole cents: with a directory, their share of the organization's one
   * allocation (see the chargeback), so users add up to their cost centers' bills; without one,
   * credits x price rounded to the cent. Null when no price is configured.
   */
  cost: number | null;
}

/** DAU of one client type over the period. */
export interface ClientRow {
  client: string;
  /** Mean over the period's days of `daily_active_users_by_client[client]`; null with no data day. */
  avg_dau: number | null;
  peak_dau: number | null;
  /** Sum of daily values (user-days on that client). */
  user_days: number;
}

/** One criterion across the repositories' latest reports. */
export interface ReadinessCriterionRow {
  criterion: string;
  /** Level from the mapping (1..4); null when the criterion is missing from the mapping. */
  level: number | null;
  /** Mean of the criterion's scores over the latest reports that evaluated it; null when none. */
  mean_score: number | null;
  /** Latest reports that evaluated it (valid, not skipped). */
  evaluated: number;
  passed: number;
  skipped: number;
  invalid: number;
}

/** One readiness report (those created in the period). */
export interface ReadinessReportRow {
  report_id: string;
  repo_url: string;
  /** In a rollup: the organization the report belongs to (a repository is organization and URL). */
  organization?: OrganizationRef;
  /** ISO 8601 creation instant. */
  created_at: string;
  /** Mean of the criterion scores; null when no criterion was scored. */
  score: number | null;
  /** Level by the 80 % rule (1..5). */
  level: number;
  evaluated: number;
  passed: number;
  skipped: number;
  invalid: number;
  criteria: Array<{
    criterion: string;
    numerator: number | null;
    denominator: number | null;
    /** numerator / denominator; null when skipped or invalid. */
    score: number | null;
    status: 'pass' | 'partial' | 'skipped' | 'invalid';
  }>;
}

/** A repository's readiness at the end of the period. */
export interface ReadinessRepoRow {
  repo_url: string;
  /** In a rollup: the organization whose repository it is (a repository is organization and URL). */
  organization?: OrganizationRef;
  /** The latest report created on or before the period's last day. */
  report_id: string;
  created_at: string;
  score: number | null;
  level: number;
  /** Score at the end of the comparison period; null when no report then (or no comparison). */
  previous_score: number | null;
  /** score - previous_score; null when either is null. */
  trend: number | null;
}

export interface ReadinessSection {
  /** Mean of the repositories' scores; null with no scored repository. */
  org_score: number | null;
  /** floor(mean of the repositories' levels); null with no repository. */
  org_level: number | null;
  /** Plain-language level names, index = level - 1. */
  level_names: string[];
  repos: ReadinessRepoRow[];
  /** Reports created inside the period. */
  reports: ReadinessReportRow[];
  /** Every criterion seen in the latest reports, weakest (lowest mean score) first. */
  criteria: ReadinessCriterionRow[];
  /** The weakest criteria: the first `topN` of `criteria` with a mean score below 1 (100 %). */
  weakest: ReadinessCriterionRow[];
  /** Criteria seen in reports but absent from the level mapping (not guessed). */
  unmapped_criteria: string[];
  /** Skipped evaluations in the latest reports (no numerator). */
  skipped_evaluations: number;
  /** Invalid evaluations in the latest reports (excluded, also listed under data quality). */
  invalid_evaluations: number;
  /** The level rule in plain language (the same text as the definitions entry). */
  rule: string;
}

/** One field-level difference between two revisions of the enterprise settings. */
export interface ControlFieldDiff {
  /** Dotted path, array items by index: `customModels[0].apiKey`, `modelPolicy.allowedModelIds`. */
  path: string;
  kind: 'added' | 'removed' | 'changed';
  /** Printable previous / new value (JSON text for non-strings); null when absent. Never a secret. */
  before: string | null;
  after: string | null;
  /** True when the field holds a secret: `before`/`after` are then redaction marks or "changed (redacted)". */
  redacted: boolean;
  /** True when the setting bears on security (see `SECURITY_SETTINGS`): listed first in the report. */
  security: boolean;
}

/** A security-relevant field change of the period, with its revision (the report lists these first). */
export interface SecurityChangeRow extends ControlFieldDiff {
  /** In a rollup: the organization whose setting changed. */
  organization?: OrganizationRef;
  revision: number;
  updated_at: string;
  /** Who made it (name, else e-mail, else id; null when unknown). */
  by: string | null;
}

/** One enterprise-control revision made in the period. */
export interface ControlChangeRow {
  /** In a rollup: the organization whose revision it is (revision numbers count per organization). */
  organization?: OrganizationRef;
  revision: number;
  /** ISO 8601 instant of the change. */
  updated_at: string;
  /** Who made it: name, e-mail, id (each null when absent). */
  user: { id: string | null; email: string | null; name: string | null };
  /** Revision it is compared with; null when no earlier revision is in the snapshot. */
  previous_revision: number | null;
  diffs: ControlFieldDiff[];
}

export interface ControlsSection {
  /** In a rollup: every organization's changes, organization by organization. */
  changes: ControlChangeRow[];
  /** Revision in force at the period's end; null when none is known (and in a rollup: see `organizations`). */
  current_revision: number | null;
  /** Every security-relevant field change of the period, oldest first (in a rollup, organization by organization). */
  security: SecurityChangeRow[];
  /**
   * In a rollup: each organization's own changes, under its name, in the organizations' order (the
   * rows of `changes` and `security` again, grouped).
   */
  organizations?: OrganizationControls[];
}

/** One organization's enterprise-control changes in a rollup. */
export interface OrganizationControls {
  organization: OrganizationRef;
  changes: ControlChangeRow[];
  current_revision: number | null;
  security: SecurityChangeRow[];
}

/** A seat without activity in the period. */
export interface DormantSeat {
  id: string;
  email: string | null;
  name: string | null;
  created_at: string | null;
  /** The user's last day with activity in the fetched days (the period and the month before); null: none. */
  last_active: string | null;
  /** The user's last sign-in as the API gives it; null when it does not. */
  last_sign_in: string | null;
  /** No activity in the previous month either (or in any fetched day): a candidate to reclaim. */
  reclaim: boolean;
}

export interface SeatsSection {
  /** Organization users that existed on the period's last day. */
  seats: number;
  active_users: number;
  /** active users / seats; null when seats is 0. */
  utilization: number | null;
  /** Seats with no activity in the period. */
  dormant: number;
  /** Dormant seats also without activity in the month before: candidates to reclaim. */
  reclaim_candidates: number;
  /** The dormant seats by e-mail (then id), with the name and creation instant when the API gave them. */
  dormant_users: DormantSeat[];
  /**
   * In a scoped report, the seats used in the period only outside the scope: their holders used the
   * agent only before they moved in, so the scope's rows and active users do not hold them, while
   * their seats are not dormant. Absent in the organization's report.
   */
  used_outside?: SeatUsedOutside[];
}

/** A seat of a scope whose holder used the agent in the period only outside it (see `SeatsSection.used_outside`). */
export interface SeatUsedOutside {
  id: string;
  email: string | null;
  name: string | null;
  /** The holder's active days in the period, anywhere in the organization. */
  active_days: number;
  /** The holder's last day with activity, anywhere in the organization. */
  last_active: string | null;
}

/** Summary of the local hook log's events in the period. */
export interface HookEventsSummary {
  total: number;
  /** Events per `hook_event_name`, largest first. */
  by_event: Array<{ event: string; count: number }>;
  /** SessionEnd events per `reason`, largest first. */
  session_end_reasons: Array<{ reason: string; count: number }>;
  /** Distinct session ids among the events. */
  sessions: number;
  /** Events without a `recorded_at` instant (counted, not dated). */
  undated: number;
}

/** One data-quality finding (the report's last section). */
export interface DataQualityFinding {
  /**
   * Kind of finding: `missing_days`, `mcp_case_merged`, `unparseable_tool_names`, `autonomy_mix_off`,
   * `autonomy_mix_missing`, `readiness_invalid`, `readiness_unmapped`, `users_total_mismatch`,
   * `delegation_unknown`, `client_unknown`, `unknown_fields`, `settings_unknown_keys` (more may be
   * added).
   */
  kind: string;
  /** One plain-language sentence. */
  message: string;
  count?: number;
  /** Items behind the finding (days, names, report ids...), plain JSON. */
  details?: unknown[];
}

/** The plain-language text of one definition (formula or rule), printed on the definitions page. */
export interface Definition {
  id: string;
  term: string;
  text: string;
  /**
   * For the definition of a figure's combine rules (see `FIGURE_RULES`): the figure and each rule in
   * words (`text` says both). The definitions page prints these as one table.
   */
  rule?: { figure: FigureId; organizations: string; people: string };
}

/** The report model: everything the renderer, the workbook and the JSON export print. */
export interface ReportModel {
  /** See {@link REPORT_MODEL_VERSION}. */
  modelVersion: typeof REPORT_MODEL_VERSION;
  organization: { id: string; name: string };
  period: ReportPeriod;
  /** The comparison period (previous month, clamped); null when it has no data at all. */
  comparison: ReportPeriod | null;
  /** True when the comparison period exists and the snapshot holds analytics data for it. */
  comparisonHasData: boolean;
  /** The report is partial (shown as "partial" everywhere): `period.partial`. */
  partial: boolean;
  /** ISO 8601 instant of generation (passed in by the caller). */
  generatedAt: string;
  /** Where the snapshot came from. */
  source: { fetchedAt: string; toolVersion: string; baseUrl: string };
  /** Price per credit and its currency when configured; null otherwise (no cost is shown then). */
  pricing: { pricePerCredit: number; currency: string } | null;
  figures: Figure[];
  /** What changed on the previous month, as facts in telling order (empty without a comparison). */
  whatChanged: ChangeFact[];
  daily: DailyRow[];
  weekly: WeeklyRow[];
  /** Autonomy and delegation for the month and per week. */
  behaviour: { month: SpanBehaviour; weeks: SpanBehaviour[] };
  credits: {
    total: number;
    /** Total cost; null without a price. */
    cost: number | null;
    byModel: ModelCreditsRow[];
    byTier: TierCreditsRow[];
  };
  tools: {
    /** Tool calls in the period (`/tools` tool_calls). */
    total: number;
    /** Top tools by invocations (unparseable names left out). */
    top: NamedCount[];
    /** Invocations under names that are not plausible identifiers. */
    unparseable: number;
    /** MCP invocations and servers (case-merged), largest first. */
    mcpTotal: number;
    mcpServers: McpServerRow[];
    skillsTotal: number;
    skills: NamedCount[];
    slashCommandsTotal: number;
    slashCommands: NamedCount[];
    hooksTotal: number;
    hooks: HookRow[];
  };
  productivity: {
    files_created: number;
    files_edited: number;
    git_commits: number;
    git_prs_created: number;
    byLanguage: NamedCount[];
    byExtension: NamedCount[];
  };
  /** Per-user totals of the period, most credits first. */
  users: UserMonthRow[];
  clients: ClientRow[];
  readiness: ReadinessSection;
  controls: ControlsSection;
  seats: SeatsSection;
  /** Present when the snapshot holds a hook log; null otherwise. */
  hookEvents: HookEventsSummary | null;
  dataQuality: DataQualityFinding[];
  definitions: Definition[];
  /**
   * What sections without a member above computed, by section id: the built-in `trend` when the
   * run has a history, and the configured sections of other packages that compute figures.
   */
  sections?: Record<string, unknown>;
  /** The set of people a scoped report is for; absent in the organization's report. */
  scope?: ReportScope;
  /** The privacy rules the document was made under; absent before they are applied (see `protectModel`). */
  privacy?: ReportPrivacy;
}
