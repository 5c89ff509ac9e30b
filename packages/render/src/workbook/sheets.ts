/**
 * The columns of the workbook's data sheets, read from the report model. Column headers are the
 * field names of `docs/metrics.md` and the model, so a finance analyst can match them to the definitions.
 */
import type {
  ControlChangeRow,
  ControlFieldDiff,
  DailyRow,
  DataQualityFinding,
  Definition,
  ModelCreditsRow,
  ReadinessCriterionRow,
  ReadinessRepoRow,
  ReportModel,
  UserMonthRow,
  WeeklyRow,
} from '@orgreport/metrics';
import type { ColumnKind, ColumnSpec } from './data-sheet.ts';

/** A column read straight from a field of the row. */
function field<Row, K extends keyof Row & string>(
  key: K,
  kind: ColumnKind,
  header: string = key,
): ColumnSpec<Row> {
  return { header, kind, value: (row) => row[key] };
}

/** Cost columns appear only when a price per credit is configured. */
function costColumn<Row>(price: number | null, credits: (row: Row) => number): ColumnSpec<Row>[] {
  if (price === null) return [];
  return [{ header: 'cost', kind: 'currency', value: (row) => credits(row) * price }];
}

/** Columns of the `Daily` sheet. */
export function dailyColumns(): ColumnSpec<DailyRow>[] {
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
export function weeklyColumns(): ColumnSpec<WeeklyRow>[] {
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

/** A dormant seat as the model lists it. */
type DormantSeat = ReportModel['seats']['dormant_users'][number];

/** Columns of the `Dormant seats` sheet (every seat without activity in the period). */
export function dormantSeatColumns(): ColumnSpec<DormantSeat>[] {
  return [
    field('id', 'text', 'user_id'),
    field('email', 'text'),
    field('name', 'text'),
    field('created_at', 'datetime'),
  ];
}

/** Columns of the `Users` sheet (per-user month totals). */
export function userColumns(price: number | null): ColumnSpec<UserMonthRow>[] {
  return [
    field('user_id', 'text'),
    field('email', 'text'),
    field('active_days', 'integer'),
    field('credits', 'integer'),
    ...costColumn<UserMonthRow>(price, (u) => u.credits),
    field('tool_calls', 'integer'),
    field('sessions', 'integer'),
    field('messages', 'integer'),
    field('user_messages', 'integer'),
    field('files_created', 'integer'),
    field('files_edited', 'integer'),
    field('git_commits', 'integer'),
    field('git_prs_created', 'integer'),
    field('mcp_calls', 'integer'),
    field('skill_calls', 'integer'),
    field('slash_commands', 'integer'),
    field('hooks', 'integer'),
    field('primary_model', 'text'),
    field('primary_model_tier', 'text'),
    field('primary_delegation', 'text'),
    field('autonomy', 'decimal'),
    { header: 'languages', kind: 'text', value: (u) => u.languages.join(', ') },
    field('credit_limit', 'integer'),
    field('limit_utilization', 'share'),
    field('over_80', 'boolean'),
    field('over_100', 'boolean'),
  ];
}

/** Columns of the `Models` sheet. */
export function modelColumns(price: number | null): ColumnSpec<ModelCreditsRow>[] {
  return [
    field('model_id', 'text'),
    field('model_tier', 'text'),
    field('credits', 'integer'),
    field('share', 'share'),
    ...costColumn<ModelCreditsRow>(price, (m) => m.credits),
    field('input_tokens', 'integer'),
    field('output_tokens', 'integer'),
  ];
}

/** One row of the `Tools` sheet: tools, MCP servers, skills, slash commands and hooks in one list. */
export interface ToolSheetRow {
  category: string;
  name: string;
  detail: string | null;
  count: number;
  share: number | null;
}

/** Columns of the `Tools` sheet. */
export function toolColumns(): ColumnSpec<ToolSheetRow>[] {
  return [
    field('category', 'text'),
    field('name', 'text'),
    field('detail', 'text'),
    field('count', 'integer'),
    field('share', 'share'),
  ];
}

/** Columns of the `Readiness` sheet (repositories at the end of the period). */
export function readinessColumns(): ColumnSpec<ReadinessRepoRow>[] {
  return [
    field('repo_url', 'text'),
    field('level', 'level'),
    field('score', 'share'),
    field('previous_score', 'share'),
    field('trend', 'points'),
    field('report_id', 'text'),
    field('created_at', 'datetime'),
  ];
}

/** Columns of the `Criteria` sheet (weakest first). */
export function criteriaColumns(): ColumnSpec<ReadinessCriterionRow>[] {
  return [
    field('criterion', 'text'),
    field('level', 'level'),
    field('mean_score', 'share'),
    field('evaluated', 'integer'),
    field('passed', 'integer'),
    field('skipped', 'integer'),
    field('invalid', 'integer'),
  ];
}

/** One field-level difference with its revision (the `Controls` sheet has one row per diff). */
export interface ControlSheetRow {
  change: ControlChangeRow;
  diff: ControlFieldDiff | null;
}

/** Columns of the `Controls` sheet. */
export function controlColumns(): ColumnSpec<ControlSheetRow>[] {
  return [
    { header: 'revision', kind: 'level', value: (r) => r.change.revision },
    { header: 'updated_at', kind: 'datetime', value: (r) => r.change.updated_at },
    { header: 'user_name', kind: 'text', value: (r) => r.change.user.name },
    { header: 'user_email', kind: 'text', value: (r) => r.change.user.email },
    { header: 'previous_revision', kind: 'level', value: (r) => r.change.previous_revision },
    { header: 'path', kind: 'text', value: (r) => r.diff?.path ?? null },
    { header: 'kind', kind: 'text', value: (r) => r.diff?.kind ?? null },
    { header: 'before', kind: 'text', value: (r) => r.diff?.before ?? null },
    { header: 'after', kind: 'text', value: (r) => r.diff?.after ?? null },
    { header: 'redacted', kind: 'boolean', value: (r) => r.diff?.redacted ?? null },
    { header: 'security', kind: 'boolean', value: (r) => r.diff?.security ?? null },
  ];
}

/** Columns of the `Definitions` sheet. */
export function definitionColumns(): ColumnSpec<Definition>[] {
  return [field('id', 'text'), field('term', 'text'), field('text', 'text')];
}

/** Columns of the `Data quality` sheet. */
export function dataQualityColumns(): ColumnSpec<DataQualityFinding>[] {
  return [
    field('kind', 'text'),
    field('message', 'text'),
    { header: 'count', kind: 'integer', value: (f) => f.count ?? null },
    {
      header: 'details',
      kind: 'text',
      value: (f) => (f.details ?? []).map((d) => (typeof d === 'string' ? d : JSON.stringify(d))).join('; '),
    },
  ];
}
