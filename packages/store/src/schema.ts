/**
 * The store's datasets: one table of every dataset, its columns (name, type, meaning), how its rows
 * are partitioned and what a newer fetch replaces. This table is the contract that docs/store.md
 * writes down (a test holds them equal) and that every other module of the store reads.
 */

/** Version of the layout and columns; written in `_store.json` and in every file's key-value metadata. */
export const STORE_SCHEMA_VERSION = 1;

/** Column types, as DuckDB names them (Parquet: UTF8, DOUBLE, INT64, INT32, BOOLEAN, DATE, TIMESTAMP UTC, LIST). */
export type ColumnType =
  | 'VARCHAR'
  | 'DOUBLE'
  | 'BIGINT'
  | 'INTEGER'
  | 'BOOLEAN'
  | 'DATE'
  | 'TIMESTAMPTZ'
  | 'VARCHAR[]';

export interface ColumnSpec {
  name: string;
  type: ColumnType;
  /** What the column holds (docs/store.md shows it). */
  doc: string;
}

/**
 * What a newer fetch replaces in a partition:
 * - `day`: the rows of the days fetched (every other day of the month stays);
 * - `key`: the rows whose `key` value came again (the others stay);
 * - `partition`: the whole partition; with `wholeList`, every month of the organization (the list
 *   is fetched whole, so a month that no longer has rows is emptied).
 */
export type ReplaceRule =
  | { by: 'day'; day: string }
  | { by: 'key'; key: string }
  | { by: 'partition'; wholeList?: boolean };

export interface DatasetSpec {
  name: string;
  doc: string;
  /** What `month=` is the month of (docs). */
  monthOf: string;
  replace: ReplaceRule;
  columns: readonly ColumnSpec[];
  /** Row order inside a file (columns), so equal content gives equal files. */
  order: readonly string[];
}

const date: ColumnSpec = { name: 'date', type: 'DATE', doc: 'the day (UTC)' };
const position: ColumnSpec = {
  name: 'position',
  type: 'INTEGER',
  doc: "0-based place of the item in the day's list, as the API sent it",
};
const num = (name: string, doc: string): ColumnSpec => ({ name, type: 'DOUBLE', doc });
const text = (name: string, doc: string): ColumnSpec => ({ name, type: 'VARCHAR', doc });
const byDay: ReplaceRule = { by: 'day', day: 'date' };

/** A daily breakdown list as a long table: one row per item per day. */
function breakdown(name: string, doc: string, columns: ColumnSpec[]): DatasetSpec {
  return {
    name,
    doc,
    monthOf: 'date',
    replace: byDay,
    columns: [date, position, ...columns],
    order: ['date', 'position'],
  };
}

/** Every dataset of the store, in the order docs/store.md lists them. */
export const DATASETS: readonly DatasetSpec[] = [
  {
    name: 'user_days',
    doc: 'One row per user and day from `/users`, the fields under the same names.',
    monthOf: 'date',
    replace: byDay,
    columns: [
      text('user_id', 'user id'),
      text('user_email', 'e-mail (null when the API sent none)'),
      date,
      num('tool_calls', 'tool calls'),
      num('billable_tokens', 'standard credits consumed'),
      text('primary_model', 'most used model'),
      text('primary_model_tier', '`standard` or `thinking`'),
      num('files_created', 'files created'),
      num('files_edited', 'files edited'),
      num('git_commits', 'commits'),
      num('git_prs_created', 'pull requests created'),
      num('mcp_calls', 'MCP tool calls'),
      num('skill_calls', 'skill activations'),
      num('slash_commands', 'slash-command uses'),
      num('hooks', 'hook executions'),
      num('sessions', 'sessions started'),
      num('messages', 'user plus assistant messages'),
      num('user_messages', 'user messages'),
      num('assistant_messages', 'assistant messages'),
      num('autonomy_ratio', 'tool calls per user turn'),
      text('delegation_level', 'primary autonomy mode (`auto-high` ... `manual`)'),
      { name: 'languages', type: 'VARCHAR[]', doc: 'languages worked in' },
    ],
    order: ['user_id', 'date'],
  },
  {
    name: 'tokens_daily',
    doc: 'The `/tokens` day totals (ungrouped rows without their lists).',
    monthOf: 'date',
    replace: byDay,
    columns: [
      date,
      num('billable_tokens', 'standard credits consumed'),
      num('input_tokens', 'raw input tokens'),
      num('output_tokens', 'output tokens'),
      num('cache_read_tokens', 'tokens read from the prompt cache'),
      num('cache_write_tokens', 'tokens written to the prompt cache'),
    ],
    order: ['date'],
  },
  breakdown('tokens_by_model', "The `/tokens` day's `by_model` list.", [
    text('model_id', 'model'),
    text('model_tier', '`standard` or `thinking`'),
    num('billable_tokens', 'standard credits'),
    num('input_tokens', 'input tokens'),
    num('output_tokens', 'output tokens'),
  ]),
  {
    name: 'tools_daily',
    doc: 'The `/tools` day totals and averages (ungrouped rows without their lists).',
    monthOf: 'date',
    replace: byDay,
    columns: [
      date,
      num('tool_calls', 'tool calls'),
      num('mcp_users_with_mcp', 'users who used an MCP server (null when not sent)'),
      num('skills_invocations', 'skill activations'),
      num('slash_commands_invocations', 'slash-command uses'),
      num('hooks_invocations', 'hook executions'),
      num('web_users', 'users of the web interface (null when not sent)'),
      num('autonomy_ratio_avg', 'average tool calls per user turn (null when not sent)'),
      num('autonomy_ratio_p50', 'median autonomy ratio (null when not sent)'),
      num('autonomy_ratio_p90', '90th percentile autonomy ratio (null when not sent)'),
      num('tool_calls_per_session_avg', 'average tool calls per session (null when not sent)'),
      num('user_turns_per_session_avg', 'average user messages per session (null when not sent)'),
    ],
    order: ['date'],
  },
  breakdown('tools_by_tool', "The `/tools` day's `by_tool` list.", [
    text('tool', 'tool name'),
    num('invocations', 'calls'),
  ]),
  breakdown('mcp_by_server', "The `/tools` day's `mcp_by_server` list.", [
    text('server', 'MCP server name, as sent (letter case varies)'),
    num('invocations', 'calls'),
  ]),
  breakdown('skills_by_name', "The `/tools` day's `skills_by_name` list.", [
    text('name', 'skill'),
    num('count', 'activations'),
  ]),
  breakdown('slash_commands_by_name', "The `/tools` day's `slash_commands_by_name` list.", [
    text('name', 'slash command'),
    num('count', 'uses'),
  ]),
  breakdown('hooks_by_event', "The `/tools` day's `hooks_by_event` list (commands redacted).", [
    text('event', 'hook event kind'),
    text('matcher', 'matcher (null when not sent)'),
    text('command', 'command line, secrets redacted (null when not sent)'),
    num('count', 'executions'),
  ]),
  breakdown(
    'tool_autonomy_levels',
    "The `/tools` day's `tool_autonomy_level_ratio` object, one row per key.",
    [
      text('level', '`auto_high`, `auto_medium`, `auto_low`, `manual` (others may appear)'),
      num('ratio', 'share of tool calls'),
    ],
  ),
  {
    name: 'activity_daily',
    doc: 'The `/activity` day totals (ungrouped rows without the per-client object).',
    monthOf: 'date',
    replace: byDay,
    columns: [
      date,
      num('daily_active_users', 'unique users that day'),
      num('weekly_active_users', 'unique users over the past 7 days'),
      num('monthly_active_users', 'unique users over the past 30 days'),
      num('sessions', 'sessions started'),
      num('messages', 'user plus assistant messages'),
      num('user_messages', 'user messages'),
    ],
    order: ['date'],
  },
  breakdown(
    'activity_by_client',
    "The `/activity` day's `daily_active_users_by_client` object, one row per key.",
    [
      text('client', '`terminal-ui`, `web`, `non-interactive-cli` (others may appear)'),
      num('daily_active_users', 'unique users of that client that day'),
    ],
  ),
  {
    name: 'productivity_daily',
    doc: 'The `/productivity` day totals (without their lists).',
    monthOf: 'date',
    replace: byDay,
    columns: [
      date,
      num('files_created', 'files created'),
      num('files_edited', 'files edited'),
      num('git_commits', 'commits'),
      num('git_prs_created', 'pull requests created'),
    ],
    order: ['date'],
  },
  breakdown('productivity_by_extension', "The `/productivity` day's `by_extension` list.", [
    text('extension', 'file extension'),
    num('count', 'files'),
  ]),
  breakdown('productivity_by_language', "The `/productivity` day's `by_language` list.", [
    text('language', 'language'),
    num('count', 'files'),
  ]),
  {
    name: 'readiness_reports',
    doc: 'Readiness reports, one row each (the list is fetched whole: a sync replaces every month of it).',
    monthOf: 'created_at',
    replace: { by: 'partition', wholeList: true },
    columns: [
      text('report_id', 'report id'),
      { name: 'created_at', type: 'TIMESTAMPTZ', doc: 'creation time (UTC, millisecond precision)' },
      text('repo_url', 'repository evaluated'),
      text('commit_hash', 'commit at evaluation (null when not sent)'),
      text('branch', 'branch at evaluation (null when not sent)'),
      { name: 'has_local_changes', type: 'BOOLEAN', doc: 'uncommitted changes existed (null when not sent)' },
      {
        name: 'has_non_remote_commits',
        type: 'BOOLEAN',
        doc: 'unpushed commits existed (null when not sent)',
      },
      text('model_id', 'model used (null when not sent)'),
      text('model_reasoning_effort', "the model's reasoning effort (null when not sent)"),
      text('agent_version', 'version of the client that produced it (null when not sent)'),
    ],
    order: ['created_at', 'report_id'],
  },
  {
    name: 'readiness_criteria',
    doc: "Each report's criterion evaluations, one row per criterion (partitioned with their report).",
    monthOf: 'created_at of the report',
    replace: { by: 'partition', wholeList: true },
    columns: [
      text('report_id', 'report id'),
      { ...position, doc: 'place of the criterion in the report' },
      text('criterion_id', 'criterion id'),
      num('numerator', 'applications passing (null when skipped)'),
      num('denominator', 'applications evaluated (null when skipped)'),
      text('rationale', 'explanation (null when not sent)'),
    ],
    order: ['report_id', 'position'],
  },
  {
    name: 'readiness_apps',
    doc: "Each report's applications, one row per application path (partitioned with their report).",
    monthOf: 'created_at of the report',
    replace: { by: 'partition', wholeList: true },
    columns: [
      text('report_id', 'report id'),
      { ...position, doc: 'place of the application in the report' },
      text('app_path', 'application path'),
      text('description', 'what the application does (null when not sent)'),
    ],
    order: ['report_id', 'position'],
  },
  {
    name: 'control_revisions',
    doc: 'Enterprise-control revisions, one row each (secrets redacted); a revision fetched again replaces its row.',
    monthOf: 'updated_at (a time that cannot be read: the last month of the sync)',
    replace: { by: 'key', key: 'revision' },
    columns: [
      { name: 'revision', type: 'BIGINT', doc: 'revision number' },
      text('updated_at', 'time of the change, ISO 8601 as sent'),
      text('user_id', 'who made the change (null when not sent)'),
      text('user_email', 'their e-mail (null when not sent)'),
      text('user_name', 'their name (null when not sent)'),
      text('settings', 'the settings at that revision, as JSON text (read with `json_extract`)'),
    ],
    order: ['revision'],
  },
  {
    name: 'org_users',
    doc: 'Organization users (seats) as listed on `as_of`; the last list of a month replaces that month.',
    monthOf: 'as_of',
    replace: { by: 'partition' },
    columns: [
      { name: 'as_of', type: 'DATE', doc: 'the day (UTC) the list was fetched' },
      { ...position, doc: 'place in the list as the API sent it' },
      text('id', 'user id'),
      text('email', 'e-mail (null when not sent)'),
      text('created_at', 'creation time, ISO 8601 as sent (null when not sent)'),
      text('first_name', 'first name (null when not sent)'),
      text('last_name', 'last name (null when not sent)'),
      text('last_sign_in_at', 'last sign-in, ISO 8601 as sent (null when not sent)'),
      text('metadata', 'metadata object as JSON text (null when not sent)'),
    ],
    order: ['position'],
  },
  {
    name: 'hook_events',
    doc: 'Events of the local hook log (`--hook-log`) with the time they were recorded.',
    monthOf: 'recorded_at',
    replace: { by: 'day', day: 'CAST(recorded_at AS DATE)' },
    columns: [
      { name: 'recorded_at', type: 'TIMESTAMPTZ', doc: 'when `orgreport hook record` recorded it (UTC)' },
      text('hook_event_name', '`Notification`, `Stop`, `SubagentStop`, `SessionEnd` (others may appear)'),
      text('session_id', 'session id'),
      text('cwd', 'working directory'),
      text('message', 'Notification message (null otherwise)'),
      text('reason', 'SessionEnd reason (null otherwise)'),
    ],
    order: ['recorded_at', 'session_id', 'hook_event_name'],
  },
];

export type DatasetName = (typeof DATASETS)[number]['name'];

/** The dataset named `name`; throws for an unknown name. */
export function datasetSpec(name: string): DatasetSpec {
  const spec = DATASETS.find((d) => d.name === name);
  if (!spec) throw new RangeError(`unknown dataset ${JSON.stringify(name)}`);
  return spec;
}
