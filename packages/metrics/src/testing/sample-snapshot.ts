/**
 * A small, deterministic, realistic snapshot: six users over February and March 2026 (report month
 * March), with every dataset filled and every data-quality case present once (an MCP server spelled
 * two ways, an unparseable tool name, a day whose autonomy shares are off, a skipped and an invalid
 * readiness evaluation, an unmapped criterion, a changed secret in a custom model, a dormant seat).
 * For the renderer's fixtures and for tests; not random across runs.
 */
import {
  type ActivityDay,
  addDays,
  type ControlChange,
  eachDay,
  isoWeekday,
  type OrgUser,
  type ProductivityDay,
  type ReadinessReport,
  type Snapshot,
  type TokensDay,
  type ToolsDay,
  type UserDay,
} from '@orgreport/api-core';
import {
  activityDay,
  buildSnapshot,
  productivityDay,
  tokensDay,
  toolsDay,
  userDay,
} from './snapshot-builder.ts';

/** mulberry32: a tiny seeded generator, so the fixture is the same on every run. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface SampleUser {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  activity: number;
  ratio: number;
  levels: Array<'auto-high' | 'auto-medium' | 'auto-low' | 'spec' | 'manual'>;
  models: string[];
  languages: string[];
  clients: string[];
}

const USERS: SampleUser[] = [
  {
    id: 'u-ada',
    email: 'ada@example.test',
    firstName: 'Ada',
    lastName: 'Lovelace',
    activity: 0.9,
    ratio: 8,
    levels: ['auto-high', 'auto-high', 'auto-medium'],
    models: ['vendorA-grand-4.5', 'vendorA-swift-4.5'],
    languages: ['TypeScript', 'Markdown'],
    clients: ['terminal-ui', 'web'],
  },
  {
    id: 'u-grace',
    email: 'grace@example.test',
    firstName: 'Grace',
    lastName: 'Hopper',
    activity: 0.75,
    ratio: 4,
    levels: ['auto-medium', 'auto-medium', 'spec'],
    models: ['vendorB-codex-5'],
    languages: ['Python', 'SQL'],
    clients: ['terminal-ui'],
  },
  {
    id: 'u-alan',
    email: 'alan@example.test',
    firstName: 'Alan',
    lastName: 'Turing',
    activity: 0.6,
    ratio: 2,
    levels: ['auto-low', 'manual'],
    models: ['vendorA-swift-4.5'],
    languages: ['Go'],
    clients: ['terminal-ui', 'web'],
  },
  {
    id: 'u-edsger',
    email: 'edsger@example.test',
    firstName: 'Edsger',
    lastName: 'Dijkstra',
    activity: 0.4,
    ratio: 3,
    levels: ['spec', 'auto-medium'],
    models: ['vendorC-pro-3', 'vendorC-flash-3'],
    languages: ['Java', 'TypeScript'],
    clients: ['web'],
  },
  {
    id: 'u-bot',
    email: 'ci-bot@example.test',
    firstName: 'CI',
    lastName: 'Bot',
    activity: 0.95,
    ratio: 15,
    levels: ['auto-high'],
    models: ['vendorB-mini-5'],
    languages: ['Shell', 'YAML'],
    clients: ['non-interactive-cli'],
  },
];
/** An organization user who never uses the agent in March (a dormant seat). */
const DORMANT: OrgUser = {
  id: 'u-barbara',
  email: 'barbara@example.test',
  firstName: 'Barbara',
  lastName: 'Liskov',
  createdAt: '2026-01-20T09:00:00.000Z',
  lastSignInAt: '2026-02-03T10:00:00.000Z',
};
/** Joined after the report month: not a seat of March. */
const LATE_JOINER: OrgUser = {
  id: 'u-ken',
  email: 'ken@example.test',
  firstName: 'Ken',
  lastName: 'Thompson',
  createdAt: '2026-04-02T09:00:00.000Z',
  lastSignInAt: null,
};
const TIERS: Record<string, 'standard' | 'thinking'> = {
  'vendorA-swift-4.5': 'standard',
  'vendorA-grand-4.5': 'thinking',
  'vendorB-codex-5': 'thinking',
  'vendorB-mini-5': 'standard',
  'vendorC-flash-3': 'standard',
  'vendorC-pro-3': 'thinking',
};
const EXTENSIONS: Record<string, string> = {
  TypeScript: '.ts',
  Markdown: '.md',
  Python: '.py',
  SQL: '.sql',
  Go: '.go',
  Java: '.java',
  Shell: '.sh',
  YAML: '.yaml',
};
const AUTONOMY_OF_LEVEL: Record<string, Record<string, number>> = {
  'auto-high': { auto_high: 0.7, auto_medium: 0.2, auto_low: 0.07, manual: 0.03 },
  'auto-medium': { auto_high: 0.15, auto_medium: 0.55, auto_low: 0.2, manual: 0.1 },
  'auto-low': { auto_high: 0.05, auto_medium: 0.2, auto_low: 0.5, manual: 0.25 },
  spec: { auto_high: 0.2, auto_medium: 0.5, auto_low: 0.2, manual: 0.1 },
  manual: { auto_high: 0, auto_medium: 0.05, auto_low: 0.25, manual: 0.7 },
};
const FIRST_DAY = '2026-02-01';
const LAST_DAY = '2026-03-31';

function pick<T>(rand: () => number, items: readonly T[]): T {
  return items[Math.floor(rand() * items.length)] as T;
}

/** The user rows of every day, one per active user. */
function sampleUserDays(rand: () => number): UserDay[] {
  const rows: UserDay[] = [];
  for (const date of eachDay(FIRST_DAY, LAST_DAY)) {
    const weekend = isoWeekday(date) >= 6;
    for (const u of USERS) {
      const chance = weekend && u.id !== 'u-bot' ? u.activity * 0.2 : u.activity;
      if (rand() >= chance) continue;
      const userMessages = 2 + Math.floor(rand() * 12);
      const toolCalls = Math.round(userMessages * u.ratio * (0.6 + rand() * 0.8));
      const model = pick(rand, u.models);
      const filesEdited = Math.floor(toolCalls / 6);
      rows.push(
        userDay(u.id, date, {
          user_email: u.email,
          tool_calls: toolCalls,
          billable_tokens: toolCalls * (TIERS[model] === 'thinking' ? 3000 : 1200) + Math.floor(rand() * 500),
          primary_model: model,
          primary_model_tier: TIERS[model] ?? 'standard',
          files_created: Math.floor(filesEdited / 4),
          files_edited: filesEdited,
          git_commits: Math.floor(rand() * 4),
          git_prs_created: rand() < 0.2 ? 1 : 0,
          mcp_calls: Math.floor(toolCalls * 0.1),
          skill_calls: rand() < 0.3 ? 1 : 0,
          slash_commands: Math.floor(rand() * 3),
          hooks: Math.floor(toolCalls * 0.2),
          sessions: 1 + Math.floor(rand() * 3),
          messages: userMessages * 2,
          user_messages: userMessages,
          assistant_messages: userMessages,
          autonomy_ratio: toolCalls / userMessages,
          delegation_level: pick(rand, u.levels),
          languages: u.languages.filter((_, i) => i === 0 || rand() < 0.5),
        }),
      );
    }
  }
  return rows;
}

function sum(rows: UserDay[], field: keyof UserDay): number {
  let total = 0;
  for (const r of rows) total += Number(r[field] ?? 0);
  return total;
}

/** Analytics daily totals consistent with the user rows (with one planted difference). */
function sampleAnalytics(rows: UserDay[]) {
  const byDate = new Map<string, UserDay[]>();
  for (const r of rows) byDate.set(r.date, [...(byDate.get(r.date) ?? []), r]);
  const tokens: TokensDay[] = [];
  const tools: ToolsDay[] = [];
  const activity: ActivityDay[] = [];
  const productivity: ProductivityDay[] = [];
  for (const date of eachDay(FIRST_DAY, LAST_DAY)) {
    const day = byDate.get(date) ?? [];
    const credits = sum(day, 'billable_tokens');
    const models = new Map<string, number>();
    for (const r of day)
      models.set(r.primary_model ?? '', (models.get(r.primary_model ?? '') ?? 0) + r.billable_tokens);
    tokens.push(
      tokensDay(date, {
        billable_tokens: credits,
        input_tokens: credits * 3,
        output_tokens: Math.round(credits * 0.4),
        cache_read_tokens: credits * 5,
        cache_write_tokens: Math.round(credits * 0.5),
        by_model: [...models].map(([model_id, c]) => ({
          model_id,
          model_tier: TIERS[model_id] ?? 'standard',
          billable_tokens: c,
          input_tokens: c * 3,
          output_tokens: Math.round(c * 0.4),
        })),
      }),
    );
    const toolCalls = sum(day, 'tool_calls');
    const mcp = sum(day, 'mcp_calls');
    const builtin = toolCalls - mcp;
    const read = Math.round(builtin * 0.4);
    const edit = Math.round(builtin * 0.3);
    // 2026-03-10 carries one parsing artifact, moved from Execute so the sum stays exact.
    const artifact = date === '2026-03-10' && builtin - read - edit > 0 ? 1 : 0;
    const byTool = [
      { tool: 'Read', invocations: read },
      { tool: 'Edit', invocations: edit },
      { tool: 'Execute', invocations: builtin - read - edit - artifact },
      { tool: 'mcp__github__create_issue', invocations: Math.ceil(mcp / 2) },
      { tool: 'mcp__GitHub__create_issue', invocations: Math.floor(mcp / 2) },
    ];
    if (artifact) byTool.push({ tool: 'Read"}', invocations: 1 });
    const weight: Record<string, number> = { auto_high: 0, auto_medium: 0, auto_low: 0, manual: 0 };
    for (const r of day) {
      const mix = AUTONOMY_OF_LEVEL[r.delegation_level ?? 'manual'] ?? {};
      for (const k of Object.keys(weight)) weight[k] = (weight[k] ?? 0) + (mix[k] ?? 0) * r.tool_calls;
    }
    const ratio: Record<string, number> = {};
    for (const k of Object.keys(weight)) ratio[k] = toolCalls > 0 ? (weight[k] ?? 0) / toolCalls : 0;
    // 2026-03-17's shares come back off by 3 %.
    if (date === '2026-03-17' && toolCalls > 0) ratio['manual'] = (ratio['manual'] ?? 0) + 0.03;
    const hooks = sum(day, 'hooks');
    tools.push(
      toolsDay(date, {
        tool_calls: toolCalls,
        by_tool: byTool.filter((t) => t.invocations > 0),
        mcp_by_server:
          mcp > 0
            ? [
                { server: 'github', invocations: Math.ceil(mcp / 2) },
                { server: 'GitHub', invocations: Math.floor(mcp / 2) },
              ].filter((s) => s.invocations > 0)
            : [],
        skills_invocations: sum(day, 'skill_calls'),
        skills_by_name:
          sum(day, 'skill_calls') > 0 ? [{ name: 'code-review', count: sum(day, 'skill_calls') }] : [],
        slash_commands_invocations: sum(day, 'slash_commands'),
        slash_commands_by_name:
          sum(day, 'slash_commands') > 0
            ? [
                { name: '/review', count: Math.ceil(sum(day, 'slash_commands') / 2) },
                { name: '/compact', count: Math.floor(sum(day, 'slash_commands') / 2) },
              ].filter((s) => s.count > 0)
            : [],
        hooks_invocations: hooks,
        hooks_by_event:
          hooks > 0
            ? [
                {
                  event: 'PostToolUse',
                  matcher: 'Edit',
                  command: 'npx prettier --write',
                  count: Math.ceil(hooks * 0.7),
                },
                {
                  event: 'Stop',
                  matcher: '',
                  command: './scripts/run-tests.sh',
                  count: hooks - Math.ceil(hooks * 0.7),
                },
              ].filter((h) => h.count > 0)
            : [],
        tool_autonomy_level_ratio: toolCalls > 0 ? ratio : {},
      }),
    );
    const active = new Set(day.map((r) => r.user_id));
    const trailing = (n: number) => {
      const from = addDays(date, -(n - 1));
      return new Set(rows.filter((r) => r.date >= from && r.date <= date).map((r) => r.user_id)).size;
    };
    const byClient: Record<string, number> = {};
    for (const u of USERS) {
      if (!active.has(u.id)) continue;
      for (const c of u.clients) byClient[c] = (byClient[c] ?? 0) + 1;
    }
    activity.push(
      activityDay(date, {
        daily_active_users: active.size,
        weekly_active_users: trailing(7),
        monthly_active_users: trailing(30),
        daily_active_users_by_client: byClient,
        sessions: sum(day, 'sessions'),
        messages: sum(day, 'messages'),
        // 2026-03-03: the analytics total is 10 % above the users' sum (a planted mismatch).
        user_messages: Math.round(sum(day, 'user_messages') * (date === '2026-03-03' ? 1.1 : 1)),
      }),
    );
    const langs = new Map<string, number>();
    for (const r of day) for (const l of r.languages) langs.set(l, (langs.get(l) ?? 0) + r.files_edited);
    productivity.push(
      productivityDay(date, {
        files_created: sum(day, 'files_created'),
        files_edited: sum(day, 'files_edited'),
        by_language: [...langs].map(([language, count]) => ({ language, count })),
        by_extension: [...langs].map(([language, count]) => ({
          extension: EXTENSIONS[language] ?? '.txt',
          count,
        })),
        git_commits: sum(day, 'git_commits'),
        git_prs_created: sum(day, 'git_prs_created'),
      }),
    );
  }
  return { tokens, tools, activity, productivity };
}

function report(
  id: string,
  repo: string,
  createdAt: string,
  results: Record<string, [number | null, number | null]>,
): ReadinessReport {
  const evaluations: ReadinessReport['report'] = {};
  for (const [criterion, [numerator, denominator]] of Object.entries(results)) {
    evaluations[criterion] =
      numerator === null
        ? { rationale: 'not applicable' }
        : { numerator, denominator, rationale: 'evaluated' };
  }
  return {
    reportId: id,
    createdAt: Date.parse(createdAt),
    repoUrl: `https://git.example.test/acme/${repo}`,
    apps: { '.': { description: repo } },
    report: evaluations,
    branch: 'main',
    agentVersion: '0.22.0',
  };
}

function sampleReadiness(): ReadinessReport[] {
  const l1: Record<string, [number | null, number | null]> = {
    readme: [1, 1],
    dependency_lockfile: [1, 1],
    build_script: [2, 2],
    lint_config: [2, 2],
    formatter: [2, 2],
  };
  return [
    report('r-web-feb', 'web-portal', '2026-02-12T10:00:00Z', {
      ...l1,
      contributing_guide: [0, 1],
      agents_md: [0, 1],
      unit_tests: [1, 2],
    }),
    report('r-web-mar', 'web-portal', '2026-03-18T10:00:00Z', {
      ...l1,
      contributing_guide: [1, 1],
      agents_md: [1, 1],
      env_example: [1, 1],
      ci_pipeline: [1, 1],
      unit_tests: [2, 2],
      pr_template: [0, 1],
      type_checking: [1, 2],
      custom_security_review: [1, 1],
    }),
    report('r-billing-feb', 'billing-service', '2026-02-20T10:00:00Z', {
      ...l1,
      formatter: [0, 1],
      ci_pipeline: [1, 1],
      unit_tests: [1, 1],
    }),
    report('r-data-mar', 'data-platform', '2026-03-25T10:00:00Z', {
      readme: [1, 1],
      dependency_lockfile: [0, 1],
      build_script: [3, 3],
      lint_config: [4, 3],
      formatter: [null, null],
      ci_pipeline: [1, 1],
    }),
    report('r-web-apr', 'web-portal', '2026-04-03T10:00:00Z', { ...l1 }),
  ];
}

function sampleControls(): ControlChange[] {
  const admin = { id: 'u-ada', email: 'ada@example.test', name: 'Ada Lovelace' };
  const base = {
    cloudSessionSync: true,
    commandDenylist: ['rm -rf /'],
    modelPolicy: { allowedModelIds: ['vendorA-swift-4.5', 'vendorB-codex-5'], allowCustomModels: true },
    customModels: [
      {
        id: 'custom-internal',
        model: 'internal-coder',
        baseUrl: 'https://llm.example.test/v1',
        apiKey: '[redacted:0a1b2c3d]',
      },
    ],
    sessionRetentionDays: 90,
  };
  return [
    {
      revision: 13,
      updatedAt: '2026-03-20T15:30:00.000Z',
      user: admin,
      settings: {
        ...base,
        modelPolicy: {
          ...base.modelPolicy,
          allowedModelIds: ['vendorA-swift-4.5', 'vendorB-codex-5', 'vendorC-pro-3'],
        },
        customModels: [{ ...base.customModels[0]!, apiKey: '[redacted:9f8e7d6c]', maxContextLimit: 200000 }],
        sessionRetentionDays: 30,
      },
    },
    {
      revision: 12,
      updatedAt: '2026-03-05T08:00:00.000Z',
      user: { id: 'u-grace', email: 'grace@example.test', name: 'Grace Hopper' },
      settings: {
        ...base,
        commandDenylist: ['rm -rf /', 'curl * | sh'],
      },
    },
    { revision: 11, updatedAt: '2026-02-10T12:00:00.000Z', user: admin, settings: base },
    {
      revision: 10,
      updatedAt: '2026-01-20T12:00:00.000Z',
      user: admin,
      settings: { cloudSessionSync: false },
    },
  ];
}

/** The deterministic sample snapshot (report month 2026-03, comparison 2026-02). */
export function sampleSnapshot(): Snapshot {
  const rand = prng(20260301);
  const userDays = sampleUserDays(rand);
  const analytics = sampleAnalytics(userDays);
  const orgUsers: OrgUser[] = [
    ...USERS.map((u) => ({
      id: u.id,
      email: u.email,
      firstName: u.firstName,
      lastName: u.lastName,
      createdAt: '2026-01-15T09:00:00.000Z',
      lastSignInAt: '2026-03-30T09:00:00.000Z',
    })),
    DORMANT,
    LATE_JOINER,
  ];
  return buildSnapshot({
    month: '2026-03',
    organization: { id: 'org-acme', name: 'Acme Corp' },
    ...analytics,
    // Only March's users rows of the dormant seat are absent; the others are as generated.
    userDays,
    orgUsers,
    readiness: sampleReadiness(),
    controls: sampleControls(),
    hookEvents: [
      { hook_event_name: 'Stop', session_id: 's-1', cwd: '/work/web', recorded_at: '2026-03-02T10:00:00Z' },
      {
        hook_event_name: 'Notification',
        session_id: 's-1',
        cwd: '/work/web',
        message: 'waiting',
        recorded_at: '2026-03-02T10:01:00Z',
      },
      {
        hook_event_name: 'SessionEnd',
        session_id: 's-1',
        cwd: '/work/web',
        reason: 'other',
        recorded_at: '2026-03-02T11:00:00Z',
      },
      {
        hook_event_name: 'SessionEnd',
        session_id: 's-2',
        cwd: '/work/api',
        reason: 'error',
        recorded_at: '2026-03-09T16:00:00Z',
      },
      { hook_event_name: 'Stop', session_id: 's-3', cwd: '/work/api', recorded_at: '2026-02-20T16:00:00Z' },
    ],
  });
}
