/**
 * Benchmark: the report model of a 10k-user organization (about 300k user-day rows per month, two
 * months in the snapshot). Run with `pnpm --filter @orgreport/metrics run bench`.
 * Target: under 1 s of compute for `buildReportModel`.
 */
import {
  eachDay,
  type TokensDay,
  type ToolsDay,
  USER_DAY_COLUMNS,
  type UserDayColumns,
} from '@orgreport/api-core';
import { buildReportModel } from '../src/index.ts';
import { activityDay, buildSnapshot, productivityDay, tokensDay, toolsDay } from '../src/testing/index.ts';

const USERS = Number(process.argv[2] ?? 10_000);
const LEVELS = ['auto-high', 'auto-medium', 'auto-low', 'spec', 'manual'];
const MODELS = ['vendorA-swift-4.5', 'vendorA-grand-4.5', 'vendorB-codex-5'];
const LANGS = [['TypeScript'], ['Python', 'SQL'], ['Go'], ['Java', 'TypeScript']];

function bigSnapshot() {
  const snapshot = buildSnapshot({ month: '2026-03' });
  const days = eachDay('2026-02-01', '2026-03-31');
  const cols = Object.fromEntries(USER_DAY_COLUMNS.map((c) => [c, []])) as unknown as Record<
    string,
    unknown[]
  >;
  let seed = 1;
  const rand = () => {
    seed = (seed * 16807) % 2147483647;
    return seed / 2147483647;
  };
  // `/users` pages by user (the cursor is a user id), so rows arrive user by user.
  for (let u = 0; u < USERS; u++) {
    for (const date of days) {
      if (rand() > 0.85) continue;
      const um = 1 + Math.floor(rand() * 10);
      const tc = Math.floor(um * rand() * 10);
      cols['user_id']!.push(`u${u}`);
      cols['user_email']!.push(`u${u}@example.test`);
      cols['date']!.push(date);
      cols['tool_calls']!.push(tc);
      cols['billable_tokens']!.push(tc * 1000);
      cols['primary_model']!.push(MODELS[u % 3]);
      cols['primary_model_tier']!.push(u % 3 ? 'thinking' : 'standard');
      for (const c of [
        'files_created',
        'files_edited',
        'git_commits',
        'git_prs_created',
        'mcp_calls',
        'skill_calls',
        'slash_commands',
        'hooks',
      ]) {
        cols[c]!.push(Math.floor(rand() * 3));
      }
      cols['sessions']!.push(1);
      cols['messages']!.push(um * 2);
      cols['user_messages']!.push(um);
      cols['assistant_messages']!.push(um);
      cols['autonomy_ratio']!.push(tc / um);
      cols['delegation_level']!.push(LEVELS[Math.floor(rand() * 5)]);
      cols['languages']!.push(LANGS[u % 4]);
    }
  }
  snapshot.userDays = cols as unknown as UserDayColumns;
  const tokens: TokensDay[] = [];
  const tools: ToolsDay[] = [];
  for (const date of days) {
    tokens.push(
      tokensDay(date, {
        billable_tokens: 1,
        by_model: [
          { model_id: 'm', model_tier: 'standard', billable_tokens: 1, input_tokens: 1, output_tokens: 1 },
        ],
      }),
    );
    tools.push(
      toolsDay(date, {
        tool_calls: 10,
        by_tool: [{ tool: 'Read', invocations: 10 }],
        tool_autonomy_level_ratio: { auto_high: 0.5, auto_medium: 0.5, auto_low: 0, manual: 0 },
      }),
    );
  }
  snapshot.tokens = tokens;
  snapshot.tools = tools;
  snapshot.activity = days.map((d) => activityDay(d, { daily_active_users: USERS }));
  snapshot.productivity = days.map((d) => productivityDay(d));
  snapshot.orgUsers = Array.from({ length: USERS }, (_, u) => ({ id: `u${u}`, email: `u${u}@example.test` }));
  return snapshot;
}

const snapshot = bigSnapshot();
console.log(`${snapshot.userDays.user_id.length} user-day rows, ${USERS} users`);
for (let run = 0; run < 5; run++) {
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const model = buildReportModel(snapshot, { generatedAt: '2026-04-01T00:00:00.000Z' });
  const cpu = process.cpuUsage(cpu0);
  console.log(
    `run ${run + 1}: ${(performance.now() - t0).toFixed(0)} ms wall, ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms CPU, ${model.users.length} users`,
  );
}
