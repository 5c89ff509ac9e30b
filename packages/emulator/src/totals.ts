/**
 * Organization daily totals: an accumulator that sums users' day details, and the functions that
 * turn those totals into the analytics rows of `/tokens`, `/tools`, `/activity` and `/productivity`
 * (ungrouped and grouped). Sums come only from user days, so they match `/users` exactly.
 */
import {
  type ActivityByClientRow,
  type ActivityDay,
  AUTONOMY_LEVELS,
  CLIENT_TYPES,
  type ProductivityDay,
  type TokensByModelRow,
  type TokensDay,
  type ToolsByNameRow,
  type ToolsDay,
} from '@orgreport/api-core';
import type { ModelFigures, UserDayDetail } from './activity.ts';
import { HOOK_SETUPS, MODELS } from './catalog.ts';

/** An organization's figures for one day. */
export interface DayTotals {
  date: string;
  activeUsers: number;
  /** Active users per CLIENT_TYPES entry. */
  byClient: number[];
  mcpUsers: number;
  sessions: number;
  userMessages: number;
  assistantMessages: number;
  toolCalls: number;
  byTool: Map<string, number>;
  /** Tool calls per AUTONOMY_LEVELS entry. */
  autonomy: number[];
  ratioAvg: number;
  ratioP50: number;
  ratioP90: number;
  mcpCalls: number;
  mcpByServer: Map<string, number>;
  skillCalls: number;
  skills: Map<string, number>;
  slashCommands: number;
  slash: Map<string, number>;
  hookCalls: number;
  hooks: Map<number, number>;
  models: Map<number, { billable: number; input: number; output: number }>;
  billable: number;
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  filesCreated: number;
  filesEdited: number;
  byExtension: Map<string, number>;
  byLanguage: Map<string, number>;
  commits: number;
  prs: number;
}

/** The percentile of sorted values with linear interpolation between closest ranks (Excel's PERCENTILE.INC). */
export function percentileInc(sorted: ArrayLike<number>, p: number): number {
  const n = sorted.length;
  if (n === 0) return 0;
  const pos = (n - 1) * p;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  const a = sorted[lo] as number;
  return a + ((sorted[hi] as number) - a) * (pos - lo);
}

function bump<K>(map: Map<K, number>, key: K, n: number): void {
  map.set(key, (map.get(key) ?? 0) + n);
}

/** Sums user-day details into one day's totals. */
export class DayAccumulator {
  private readonly t: DayTotals;
  private ratios: number[] = [];

  constructor(date: string) {
    this.t = {
      date,
      activeUsers: 0,
      byClient: CLIENT_TYPES.map(() => 0),
      mcpUsers: 0,
      sessions: 0,
      userMessages: 0,
      assistantMessages: 0,
      toolCalls: 0,
      byTool: new Map(),
      autonomy: AUTONOMY_LEVELS.map(() => 0),
      ratioAvg: 0,
      ratioP50: 0,
      ratioP90: 0,
      mcpCalls: 0,
      mcpByServer: new Map(),
      skillCalls: 0,
      skills: new Map(),
      slashCommands: 0,
      slash: new Map(),
      hookCalls: 0,
      hooks: new Map(),
      models: new Map(),
      billable: 0,
      input: 0,
      output: 0,
      cacheRead: 0,
      cacheWrite: 0,
      filesCreated: 0,
      filesEdited: 0,
      byExtension: new Map(),
      byLanguage: new Map(),
      commits: 0,
      prs: 0,
    };
  }

  /** Adds one active user's day. */
  add(d: UserDayDetail): void {
    const t = this.t;
    t.activeUsers++;
    for (let i = 0; i < CLIENT_TYPES.length; i++)
      if (d.clients & (1 << i)) t.byClient[i] = (t.byClient[i] ?? 0) + 1;
    if (d.mcpCalls > 0) t.mcpUsers++;
    t.sessions += d.sessions;
    t.userMessages += d.userMessages;
    t.assistantMessages += d.assistantMessages;
    t.toolCalls += d.toolCalls;
    for (const [k, n] of d.byTool) bump(t.byTool, k, n);
    d.autonomy.forEach((n, i) => {
      t.autonomy[i] = (t.autonomy[i] ?? 0) + n;
    });
    if (d.userMessages > 0) this.ratios.push(d.toolCalls / d.userMessages);
    t.mcpCalls += d.mcpCalls;
    for (const [k, n] of d.mcpByServer) bump(t.mcpByServer, k, n);
    t.skillCalls += d.skillCalls;
    for (const [k, n] of d.skills) bump(t.skills, k, n);
    t.slashCommands += d.slashCommands;
    for (const [k, n] of d.slash) bump(t.slash, k, n);
    t.hookCalls += d.hookCalls;
    for (const [k, n] of d.hooks) bump(t.hooks, k, n);
    for (const m of d.models) {
      const acc = t.models.get(m.model) ?? { billable: 0, input: 0, output: 0 };
      acc.billable += m.billable;
      acc.input += m.input;
      acc.output += m.output;
      t.models.set(m.model, acc);
      t.billable += m.billable;
      t.input += m.input;
      t.output += m.output;
      t.cacheRead += m.cacheRead;
      t.cacheWrite += m.cacheWrite;
    }
    t.filesCreated += d.filesCreated;
    t.filesEdited += d.filesEdited;
    for (const [k, n] of d.byExtension) bump(t.byExtension, k, n);
    for (const [k, n] of d.byLanguage) bump(t.byLanguage, k, n);
    t.commits += d.commits;
    t.prs += d.prs;
  }

  /** The day's totals, with the autonomy statistics of the users' ratios. */
  finish(): DayTotals {
    const sorted = Float64Array.from(this.ratios).sort();
    let sum = 0;
    for (const v of sorted) sum += v;
    this.t.ratioAvg = sorted.length ? sum / sorted.length : 0;
    this.t.ratioP50 = percentileInc(sorted, 0.5);
    this.t.ratioP90 = percentileInc(sorted, 0.9);
    this.ratios = [];
    return this.t;
  }
}

/** Map entries ordered by count descending, then key. */
function ranked<K>(map: Map<K, number>): [K, number][] {
  return [...map].sort((a, b) => b[1] - a[1] || String(a[0]).localeCompare(String(b[0])));
}

function modelsOf(t: { models: Map<number, { billable: number; input: number; output: number }> }) {
  return [...t.models]
    .sort((a, b) => a[0] - b[0])
    .map(([i, m]) => ({
      model_id: MODELS[i]?.id ?? 'unknown',
      model_tier: MODELS[i]?.tier ?? 'standard',
      billable_tokens: m.billable,
      input_tokens: m.input,
      output_tokens: m.output,
    }));
}

/** One per-user item of a `/tokens` row. */
export type TokensByUser = NonNullable<TokensDay['by_user']>[number];

/** A user's `by_user` item from their day detail. */
export function tokensByUser(
  d: { models: readonly ModelFigures[] },
  id: string,
  email: string | null,
): TokensByUser {
  const models = new Map<number, { billable: number; input: number; output: number }>();
  let billable = 0;
  for (const m of d.models) {
    models.set(m.model, { billable: m.billable, input: m.input, output: m.output });
    billable += m.billable;
  }
  return { user_id: id, user_email: email, billable_tokens: billable, by_model: modelsOf({ models }) };
}

/** The start of each model's `by_model` item, up to its first number, by model index. */
const MODEL_ITEM_HEADS = MODELS.map(
  (m) => `{"model_id":${JSON.stringify(m.id)},"model_tier":${JSON.stringify(m.tier)},"billable_tokens":`,
);

/**
 * `JSON.stringify(tokensByUser(d, id, email))` written directly (a 100k-user day has tens of
 * thousands of these items; building them as objects first doubles the cost of `/tokens`).
 */
export function tokensByUserJson(models: readonly ModelFigures[], id: string, email: string | null): string {
  const [a, b] = models;
  if (models.length > 2 || (a && b && a.model === b.model)) {
    return JSON.stringify(tokensByUser({ models }, id, email));
  }
  let billable = 0;
  for (const m of models) billable += m.billable;
  const sorted =
    models.length === 2 && (models[0] as ModelFigures).model > (models[1] as ModelFigures).model
      ? [models[1] as ModelFigures, models[0] as ModelFigures]
      : models;
  let items = '';
  for (const m of sorted) {
    const head = MODEL_ITEM_HEADS[m.model];
    if (head === undefined) return JSON.stringify(tokensByUser({ models }, id, email));
    items += `${items ? ',' : ''}${head}${m.billable},"input_tokens":${m.input},"output_tokens":${m.output}}`;
  }
  return `{"user_id":${JSON.stringify(id)},"user_email":${JSON.stringify(email)},"billable_tokens":${billable},"by_model":[${items}]}`;
}

/** The ungrouped `/tokens` row. */
export function tokensRow(t: DayTotals, byUser: TokensByUser[]): TokensDay {
  return {
    date: t.date,
    billable_tokens: t.billable,
    input_tokens: t.input,
    output_tokens: t.output,
    cache_read_tokens: t.cacheRead,
    cache_write_tokens: t.cacheWrite,
    by_model: modelsOf(t),
    by_user: byUser,
  };
}

/** The `/tokens?group_by=model` rows of a day. */
export function tokensByModelRows(t: DayTotals): TokensByModelRow[] {
  return modelsOf(t).map((m) => ({
    date: t.date,
    group_key: m.model_id,
    billable_tokens: m.billable_tokens,
    input_tokens: m.input_tokens,
    output_tokens: m.output_tokens,
  }));
}

/** The ungrouped `/tools` row. */
export function toolsRow(t: DayTotals): ToolsDay {
  const levels: Record<string, number> = {};
  AUTONOMY_LEVELS.forEach((l, i) => {
    levels[l] = t.toolCalls > 0 ? (t.autonomy[i] ?? 0) / t.toolCalls : 0;
  });
  return {
    date: t.date,
    tool_calls: t.toolCalls,
    by_tool: ranked(t.byTool).map(([tool, invocations]) => ({ tool, invocations })),
    mcp_users_with_mcp: t.mcpUsers,
    mcp_by_server: ranked(t.mcpByServer).map(([server, invocations]) => ({ server, invocations })),
    skills_invocations: t.skillCalls,
    skills_by_name: ranked(t.skills).map(([name, count]) => ({ name, count })),
    slash_commands_invocations: t.slashCommands,
    slash_commands_by_name: ranked(t.slash).map(([name, count]) => ({ name, count })),
    hooks_invocations: t.hookCalls,
    hooks_by_event: ranked(t.hooks).map(([h, count]) => {
      const setup = HOOK_SETUPS[h] as (typeof HOOK_SETUPS)[number];
      return { event: setup.event, matcher: setup.matcher, command: setup.command, count };
    }),
    web_users: t.byClient[CLIENT_TYPES.indexOf('web')] ?? 0,
    autonomy_ratio_avg: t.ratioAvg,
    autonomy_ratio_p50: t.ratioP50,
    autonomy_ratio_p90: t.ratioP90,
    tool_calls_per_session_avg: t.sessions > 0 ? t.toolCalls / t.sessions : 0,
    user_turns_per_session_avg: t.sessions > 0 ? t.userMessages / t.sessions : 0,
    tool_autonomy_level_ratio: levels,
  };
}

/** The `/tools?group_by=tool_name` rows of a day. */
export function toolsByNameRows(t: DayTotals): ToolsByNameRow[] {
  return ranked(t.byTool).map(([group_key, tool_calls]) => ({ date: t.date, group_key, tool_calls }));
}

/** The ungrouped `/activity` row; WAU and MAU come from the distinct-user windows. */
export function activityRow(t: DayTotals, wau: number, mau: number): ActivityDay {
  const byClient: Record<string, number> = {};
  CLIENT_TYPES.forEach((c, i) => {
    byClient[c] = t.byClient[i] ?? 0;
  });
  return {
    date: t.date,
    daily_active_users: t.activeUsers,
    weekly_active_users: wau,
    monthly_active_users: mau,
    daily_active_users_by_client: byClient,
    sessions: t.sessions,
    messages: t.userMessages + t.assistantMessages,
    user_messages: t.userMessages,
  };
}

/** The `/activity?group_by=client` rows of a day. */
export function activityByClientRows(t: DayTotals): ActivityByClientRow[] {
  return CLIENT_TYPES.map((c, i) => ({ date: t.date, group_key: c, daily_active_users: t.byClient[i] ?? 0 }));
}

/** The `/productivity` row. */
export function productivityRow(t: DayTotals): ProductivityDay {
  return {
    date: t.date,
    files_created: t.filesCreated,
    files_edited: t.filesEdited,
    by_extension: ranked(t.byExtension).map(([extension, count]) => ({ extension, count })),
    by_language: ranked(t.byLanguage).map(([language, count]) => ({ language, count })),
    git_commits: t.commits,
    git_prs_created: t.prs,
  };
}
