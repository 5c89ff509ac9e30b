/**
 * Small hand-made snapshots for tests: every resource row with neutral defaults, and a snapshot
 * assembled from the rows given (the manifest is derived from the period).
 */
import {
  type ActivityDay,
  addDays,
  type ControlChange,
  comparisonPeriod,
  type DayRange,
  type MonthPeriod,
  monthPeriod,
  type OrgUser,
  type ProductivityDay,
  type ReadinessReport,
  SNAPSHOT_FORMAT_VERSION,
  type Snapshot,
  type TokensDay,
  type ToolsDay,
  type UserDay,
  userDayColumnsFromRows,
} from '@orgreport/api-core';

/** A `/tokens` day with zeros where not given. */
export function tokensDay(date: string, fields: Partial<TokensDay> = {}): TokensDay {
  return {
    date,
    billable_tokens: 0,
    input_tokens: 0,
    output_tokens: 0,
    cache_read_tokens: 0,
    cache_write_tokens: 0,
    by_model: [],
    ...fields,
  };
}

/** A `/tools` day with zeros and empty breakdowns where not given. */
export function toolsDay(date: string, fields: Partial<ToolsDay> = {}): ToolsDay {
  return {
    date,
    tool_calls: 0,
    by_tool: [],
    mcp_by_server: [],
    skills_invocations: 0,
    skills_by_name: [],
    slash_commands_invocations: 0,
    slash_commands_by_name: [],
    hooks_invocations: 0,
    hooks_by_event: [],
    tool_autonomy_level_ratio: {},
    ...fields,
  };
}

/** An `/activity` day with zeros where not given. */
export function activityDay(date: string, fields: Partial<ActivityDay> = {}): ActivityDay {
  return {
    date,
    daily_active_users: 0,
    weekly_active_users: 0,
    monthly_active_users: 0,
    daily_active_users_by_client: {},
    sessions: 0,
    messages: 0,
    user_messages: 0,
    ...fields,
  };
}

/** A `/productivity` day with zeros where not given. */
export function productivityDay(date: string, fields: Partial<ProductivityDay> = {}): ProductivityDay {
  return {
    date,
    files_created: 0,
    files_edited: 0,
    by_extension: [],
    by_language: [],
    git_commits: 0,
    git_prs_created: 0,
    ...fields,
  };
}

/** A `/users` row with zeros where not given. */
export function userDay(user_id: string, date: string, fields: Partial<UserDay> = {}): UserDay {
  return {
    user_id,
    user_email: `${user_id}@example.test`,
    date,
    tool_calls: 0,
    billable_tokens: 0,
    primary_model: null,
    primary_model_tier: null,
    files_created: 0,
    files_edited: 0,
    git_commits: 0,
    git_prs_created: 0,
    mcp_calls: 0,
    skill_calls: 0,
    slash_commands: 0,
    hooks: 0,
    sessions: 0,
    messages: 0,
    user_messages: 0,
    assistant_messages: 0,
    autonomy_ratio: null,
    delegation_level: null,
    languages: [],
    ...fields,
  };
}

/** A month period as the CLI would compute it; `endsOn` makes it a partial report ending that day. */
export function periodOf(month: string, endsOn?: string): MonthPeriod {
  const now = endsOn ? new Date(`${addDays(endsOn, 1)}T12:00:00Z`) : new Date('2100-01-01T00:00:00Z');
  return monthPeriod(month, { now: () => now, allowPartial: endsOn !== undefined });
}

export interface SnapshotParts {
  /** The report month `YYYY-MM`. */
  month: string;
  /** Makes the period partial, ending on this day. */
  endsOn?: string;
  /** Drop the comparison period (as if the previous month had no data). */
  noComparison?: boolean;
  tokens?: TokensDay[];
  tools?: ToolsDay[];
  activity?: ActivityDay[];
  productivity?: ProductivityDay[];
  userDays?: UserDay[];
  orgUsers?: OrgUser[];
  readiness?: ReadinessReport[];
  controls?: ControlChange[];
  hookEvents?: Snapshot['hookEvents'];
  organization?: { id: string; name: string };
}

/** A complete snapshot from the parts given (empty datasets where omitted). */
export function buildSnapshot(parts: SnapshotParts): Snapshot {
  const period = periodOf(parts.month, parts.endsOn);
  const comparison = parts.noComparison ? null : comparisonPeriod(period);
  const fetchedRange: DayRange = { start: comparison?.start ?? period.start, end: period.end };
  const userRows = parts.userDays ?? [];
  const snapshot: Snapshot = {
    manifest: {
      formatVersion: SNAPSHOT_FORMAT_VERSION,
      organization: parts.organization ?? { id: 'org-test', name: 'Test Org' },
      period,
      comparison,
      fetchedRange,
      fetchedAt: `${addDays(period.end, 1)}T06:00:00.000Z`,
      toolVersion: '0.0.0-test',
      source: { baseUrl: 'http://127.0.0.1:0', appUrl: 'http://127.0.0.1:0' },
      counts: {},
      checksums: {},
      notes: [],
    },
    tokens: parts.tokens ?? [],
    tools: parts.tools ?? [],
    activity: parts.activity ?? [],
    productivity: parts.productivity ?? [],
    userDays: userDayColumnsFromRows(userRows),
    orgUsers: parts.orgUsers ?? [],
    readiness: parts.readiness ?? [],
    controls: parts.controls ?? [],
  };
  if (parts.hookEvents) snapshot.hookEvents = parts.hookEvents;
  snapshot.manifest.counts = {
    tokens: snapshot.tokens.length,
    tools: snapshot.tools.length,
    activity: snapshot.activity.length,
    productivity: snapshot.productivity.length,
    userDays: userRows.length,
    orgUsers: snapshot.orgUsers.length,
    readiness: snapshot.readiness.length,
    controls: snapshot.controls.length,
  };
  return snapshot;
}
