/**
 * One user's activity on one day, derived from (seed, user index, day) alone: sessions, messages,
 * tool calls by tool and autonomy level, MCP, skills, slash commands, hooks, tokens by model, files
 * and git activity. The `/users` row and every organization daily total are built from this.
 */
import {
  AUTONOMY_LEVELS,
  CLIENT_TYPES,
  type ClientType,
  type DelegationLevel,
  type UserDay,
} from '@orgreport/api-core';
import {
  ARTIFACT_TOOL_NAMES,
  AUTONOMY_TO_DELEGATION,
  HOOK_SETUPS,
  LANGUAGES,
  MODELS,
  PERSONAS,
  SKILLS,
  SLASH_COMMANDS,
  TOOL_WEIGHTS,
  TOOLS,
} from './catalog.ts';
import { hostileAt, isHostileUser } from './hostile.ts';
import { growthOn, type OrgConfig, TAG, type UserProfile } from './people.ts';
import { Rng, splitInteger } from './prng.ts';

/** Tokens and credits of one model in a user's day. */
export interface ModelUsage {
  model: number;
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  billable: number;
}

/** Everything a user did on one day; counts are integers, breakdowns are (name, count) pairs. */
export interface UserDayDetail {
  userIndex: number;
  day: number;
  /** Bit i set when the user used CLIENT_TYPES[i] that day. */
  clients: number;
  sessions: number;
  userMessages: number;
  assistantMessages: number;
  toolCalls: number;
  byTool: [string, number][];
  /** Tool calls at each of AUTONOMY_LEVELS, in that order. */
  autonomy: number[];
  delegation: DelegationLevel;
  mcpCalls: number;
  mcpByServer: [string, number][];
  skillCalls: number;
  skills: [string, number][];
  slashCommands: number;
  slash: [string, number][];
  hookCalls: number;
  /** (index into HOOK_SETUPS, executions). */
  hooks: [number, number][];
  models: ModelUsage[];
  filesCreated: number;
  filesEdited: number;
  byExtension: [string, number][];
  byLanguage: [string, number][];
  commits: number;
  prs: number;
}

// Positions of the file-writing tools in TOOLS (and so in a day's byTool list, which starts with them).
const EDIT = TOOLS.indexOf('Edit');
const APPLY_PATCH = TOOLS.indexOf('ApplyPatch');
const CREATE = TOOLS.indexOf('Create');

// Module-level helpers rather than closures inside userDayDetail: it runs millions of times.

/** The calls of the tool at `index` of a day's byTool list. */
function callsOf(byTool: [string, number][], index: number): number {
  return (byTool[index] as [string, number])[1];
}

/** A skill's name; a hostile user's first skill carries a hostile name. */
function skillName(config: OrgConfig, profile: UserProfile, skill: number, position: number): string {
  return position === 0 && isHostileUser(config.hostile, profile.index)
    ? hostileAt(profile.index + 3)
    : (SKILLS[skill] as string);
}

function nonZero<T extends [unknown, number]>(pairs: T[]): T[] {
  return pairs.filter((p) => p[1] > 0);
}

/** Credits of a model's tokens: uncached input, a tenth of cached input, and output, by the model's factor. */
export function creditsOf(model: number, input: number, cacheRead: number, output: number): number {
  const factor = MODELS[model]?.creditFactor ?? 1;
  return Math.round((input - cacheRead + cacheRead / 10 + output) * factor);
}

/** Derives a user's day; call only for a day on which the user is active. */
export function userDayDetail(config: OrgConfig, profile: UserProfile, day: number): UserDayDetail {
  const r = Rng.of(config.seed, profile.index, day, TAG.day);
  const persona = PERSONAS[profile.persona] as (typeof PERSONAS)[number];
  const load = profile.intensity * r.logNormal(0.6) * growthOn(day);
  const automation = persona.name === 'automation';
  const userMessages = Math.max(1, Math.round(load * (automation ? 1.5 : 4)));
  const ratio = persona.autonomyRatio * profile.autonomyBias * r.logNormal(0.35);
  const toolCalls = Math.round(userMessages * ratio);
  const sessions = Math.max(1, Math.min(userMessages, Math.round(userMessages / (2 + 6 * r.next()))));
  const assistantMessages = userMessages + Math.round(toolCalls * (0.3 + 0.4 * r.next()));

  let clients = 0;
  CLIENT_TYPES.forEach((c: ClientType, i) => {
    if (r.chance(persona.clients[c])) clients |= 1 << i;
  });
  if (clients === 0) clients = automation ? 4 : 1;

  // Tool calls: MCP first, the rest over the built-in tools.
  const mcpCalls = profile.mcp.length
    ? Math.min(toolCalls, Math.round(toolCalls * profile.mcpShare * 2 * r.next()))
    : 0;
  const mcpParts = splitInteger(
    mcpCalls,
    profile.mcp.map((m) => m.weight),
  );
  const mcpByServer = nonZero(profile.mcp.map((m, i): [string, number] => [m.spelling, mcpParts[i] ?? 0]));
  const builtin = splitInteger(
    toolCalls - mcpCalls,
    TOOL_WEIGHTS.map((w) => w * r.logNormal(0.5)),
  );
  const byTool: [string, number][] = TOOLS.map((t, i) => [t, builtin[i] ?? 0]);
  profile.mcp.forEach((m, i) => {
    byTool.push([`mcp__${m.spelling}__${m.tool}`, mcpParts[i] ?? 0]);
  });
  // Rarely the parser leaves an artifact (or, in hostile mode, a hostile string) as a tool name:
  // one call moves from the busiest tool to it, so the sum stays exact.
  const odd = r.chance(0.004)
    ? r.pick(ARTIFACT_TOOL_NAMES)
    : config.hostile && r.chance(0.05)
      ? hostileAt(r.int(64))
      : null;
  if (odd !== null) {
    const busiest = byTool.reduce((a, b) => (b[1] > a[1] ? b : a));
    if (busiest[1] > 0) {
      busiest[1] -= 1;
      byTool.push([odd, 1]);
    }
  }

  const autonomy = splitInteger(
    toolCalls,
    AUTONOMY_LEVELS.map((l) => persona.autonomyMix[l] * r.logNormal(0.3)),
  );
  let top = 0;
  autonomy.forEach((n, i) => {
    if (n > (autonomy[top] as number)) top = i;
  });
  const delegation: DelegationLevel = r.chance(persona.specChance)
    ? 'spec'
    : AUTONOMY_TO_DELEGATION[AUTONOMY_LEVELS[top] as (typeof AUTONOMY_LEVELS)[number]];

  const skillCalls =
    profile.skills.length && r.chance(0.4) ? r.range(1, 1 + Math.floor(userMessages / 8)) : 0;
  const skillParts = splitInteger(
    skillCalls,
    profile.skills.map(() => r.next() + 0.1),
  );
  const skills = nonZero(
    profile.skills.map((s, i): [string, number] => [skillName(config, profile, s, i), skillParts[i] ?? 0]),
  );
  const slashCommands =
    profile.slash.length && r.chance(0.5) ? r.range(1, 1 + Math.floor(userMessages / 6)) : 0;
  const slashParts = splitInteger(
    slashCommands,
    profile.slash.map(() => r.next() + 0.1),
  );
  const slash = nonZero(
    profile.slash.map((s, i): [string, number] => [SLASH_COMMANDS[s] as string, slashParts[i] ?? 0]),
  );
  const hooks = nonZero(
    profile.hooks.map((h): [number, number] => {
      const setup = HOOK_SETUPS[h] as (typeof HOOK_SETUPS)[number];
      const base = setup.perToolCall ? toolCalls * setup.perToolCall : sessions * (setup.perSession ?? 0);
      return [h, Math.round(base * (0.6 + 0.8 * r.next()))];
    }),
  );
  const hookCalls = hooks.reduce((a, h) => a + h[1], 0);

  // Tokens: input grows with tool calls and messages; split over the user's one or two models.
  const input = Math.round((toolCalls * 9000 + userMessages * 3000) * r.logNormal(0.3));
  const share = profile.secondaryShare * r.logNormal(0.3);
  const modelIds = share > 0 ? [profile.primaryModel, profile.secondaryModel] : [profile.primaryModel];
  const inputs = splitInteger(input, share > 0 ? [1 - Math.min(0.9, share), Math.min(0.9, share)] : [1]);
  const models = modelIds.map((model, i): ModelUsage => {
    const inp = inputs[i] ?? 0;
    const output = Math.round(inp * (0.03 + 0.05 * r.next()));
    const cacheRead = Math.round(inp * (0.5 + 0.35 * r.next()));
    const cacheWrite = Math.round(inp * (0.05 + 0.1 * r.next()));
    return {
      model,
      input: inp,
      output,
      cacheRead,
      cacheWrite,
      billable: creditsOf(model, inp, cacheRead, output),
    };
  });

  // Files follow edits and creations; split over the user's languages and their extensions.
  const filesEdited = Math.round(
    (callsOf(byTool, EDIT) + callsOf(byTool, APPLY_PATCH)) * (0.4 + 0.3 * r.next()),
  );
  const filesCreated = Math.round(callsOf(byTool, CREATE) * (0.6 + 0.3 * r.next()));
  const langParts = splitInteger(
    filesCreated + filesEdited,
    profile.languages.map((l) => l.weight),
  );
  const byLanguage: [string, number][] = [];
  const byExtension: [string, number][] = [];
  profile.languages.forEach((l, i) => {
    const lang = LANGUAGES[l.index] as (typeof LANGUAGES)[number];
    const n = langParts[i] ?? 0;
    if (n === 0) return;
    byLanguage.push([lang.language, n]);
    const extParts = splitInteger(
      n,
      lang.extensions.map((_, k) => (k === 0 ? 3 : 1)),
    );
    lang.extensions.forEach((ext, k) => {
      if ((extParts[k] ?? 0) > 0) byExtension.push([ext, extParts[k] as number]);
    });
  });
  const touched = filesCreated + filesEdited;
  const commits = touched > 0 && r.chance(0.6) ? Math.round(touched / (3 + 5 * r.next())) : 0;
  const prs = commits > 0 && r.chance(0.45) ? r.range(1, Math.max(1, Math.ceil(commits / 4))) : 0;

  return {
    userIndex: profile.index,
    day,
    clients,
    sessions,
    userMessages,
    assistantMessages,
    toolCalls,
    byTool: nonZero(byTool),
    autonomy,
    delegation,
    mcpCalls,
    mcpByServer,
    skillCalls,
    skills,
    slashCommands,
    slash,
    hookCalls,
    hooks,
    models,
    filesCreated,
    filesEdited,
    byExtension,
    byLanguage,
    commits,
    prs,
  };
}

/** A model's share of a user's day as the analytics rows need it. */
export type ModelFigures = Pick<ModelUsage, 'model' | 'input' | 'output' | 'billable'>;

/** The part of a user's day that its `/users` row is made of (a day detail, or its cached columns). */
export type UserDayFigures = Pick<
  UserDayDetail,
  | 'toolCalls'
  | 'filesCreated'
  | 'filesEdited'
  | 'commits'
  | 'prs'
  | 'mcpCalls'
  | 'skillCalls'
  | 'slashCommands'
  | 'hookCalls'
  | 'sessions'
  | 'userMessages'
  | 'assistantMessages'
  | 'delegation'
> & {
  models: readonly ModelFigures[];
  /** Languages of the day's files, in profile order (empty when no file was touched). */
  languages: readonly string[];
};

/** The figures of a day detail. */
export function figuresOf(detail: UserDayDetail): UserDayFigures {
  return { ...detail, languages: detail.byLanguage.map((l) => l[0]) };
}

/** The `/users` row of a user's day. */
export function userDayRow(
  detail: UserDayFigures,
  identity: { id: string; email: string | null },
  date: string,
  primaryLanguage: string,
): UserDay {
  let primary = detail.models[0] as ModelFigures;
  let billable = 0;
  for (const m of detail.models) {
    billable += m.billable;
    if (m.billable > primary.billable) primary = m;
  }
  const model = MODELS[primary.model] as (typeof MODELS)[number];
  return {
    user_id: identity.id,
    user_email: identity.email,
    date,
    tool_calls: detail.toolCalls,
    billable_tokens: billable,
    primary_model: model.id,
    primary_model_tier: model.tier,
    files_created: detail.filesCreated,
    files_edited: detail.filesEdited,
    git_commits: detail.commits,
    git_prs_created: detail.prs,
    mcp_calls: detail.mcpCalls,
    skill_calls: detail.skillCalls,
    slash_commands: detail.slashCommands,
    hooks: detail.hookCalls,
    sessions: detail.sessions,
    messages: detail.userMessages + detail.assistantMessages,
    user_messages: detail.userMessages,
    assistant_messages: detail.assistantMessages,
    autonomy_ratio: detail.toolCalls / detail.userMessages,
    delegation_level: detail.delegation,
    languages: detail.languages.length ? [...detail.languages] : [primaryLanguage],
  };
}
