import { AUTONOMY_LEVELS, addDays, eachDay, toEpochDay, type UserDay } from '@orgreport/api-core';
import { describe, expect, it } from 'vitest';
import { ARTIFACT_TOOL_NAMES, MCP_SERVERS, PERSONAS } from './catalog.ts';
import { HOSTILE_STRINGS } from './hostile.ts';
import { createOrganization } from './organization.ts';

const TODAY = '2026-11-22';
const org = createOrganization({ seed: 7, users: 40, today: TODAY });
const OCTOBER = { start: '2026-10-01', end: '2026-10-31' };

function rowsByDate(range: { start: string; end: string }) {
  const byDate = new Map<string, UserDay[]>();
  for (const row of org.userDays(range)) byDate.set(row.date, [...(byDate.get(row.date) ?? []), row]);
  return byDate;
}

describe('createOrganization: determinism and shape', () => {
  it('gives the same data for the same options and different data for another seed', () => {
    const again = createOrganization({ seed: 7, users: 40, today: TODAY });
    const other = createOrganization({ seed: 8, users: 40, today: TODAY });
    const rows = [...org.userDays(OCTOBER)];
    expect([...again.userDays(OCTOBER)]).toEqual(rows);
    expect([...other.userDays(OCTOBER)]).not.toEqual(rows);
    expect(again.readinessReports).toEqual(org.readinessReports);
    expect(again.controlHistory).toEqual(org.controlHistory);
    expect(again.computers).toEqual(org.computers);
  });

  it('derives a user the same way whatever the organization size', () => {
    const big = createOrganization({ seed: 7, users: 400, today: TODAY });
    expect(big.orgUser(5)).toEqual(org.orgUser(5));
    expect(big.userDay(5, '2026-10-07')).toEqual(org.userDay(5, '2026-10-07'));
  });

  it('has users with unique ids and e-mails, spread creation dates and some who never signed in', () => {
    const users = [...org.users()];
    expect(new Set(users.map((u) => u.id)).size).toBe(40);
    expect(new Set(users.map((u) => u.email)).size).toBe(40);
    const created = users.map((u) => u.createdAt as string).sort();
    expect(created[0]! < '2026-01-14').toBe(true);
    expect(created.at(-1)! > '2026-02-01').toBe(true);
    const big = createOrganization({ seed: 7, users: 300, today: TODAY });
    const never = [...big.users()].filter((u) => u.lastSignInAt === null);
    expect(never.length).toBeGreaterThan(3);
    // A user who never signed in has no activity at all.
    const i = big.userIndexOf(never[0]!.id)!;
    expect(big.hasActivity(i, { start: '2026-01-14', end: '2026-11-21' })).toBe(false);
    for (const u of users) {
      expect(org.userIndexOf(u.id)).toBe(users.indexOf(u));
      expect(org.userIndexOfEmail(u.email!.toUpperCase())).toBe(users.indexOf(u));
    }
    expect(org.userIndexOf('user_0000000000')).toBeUndefined();
    expect(org.userIndexOfEmail('nobody99@acme-robotics.example.com')).toBeUndefined();
  });

  it('has no rows before 2026-01-14, on or after today, or before a user was created', () => {
    expect([...org.userDays({ start: '2026-01-01', end: '2026-01-13' })]).toEqual([]);
    expect([...org.userDays({ start: TODAY, end: addDays(TODAY, 3) })]).toEqual([]);
    for (const row of org.userDays({ start: '2026-01-14', end: '2026-03-31' })) {
      const u = org.orgUser(org.userIndexOf(row.user_id)!);
      expect(row.date >= (u.createdAt as string).slice(0, 10)).toBe(true);
    }
  });

  it('has a weekday/weekend rhythm, growth and heavy-tailed users', () => {
    const year = [...org.userDays({ start: '2026-01-14', end: '2026-11-21' })];
    const weekday = year.filter((r) => (toEpochDay(r.date) + 3) % 7 < 5).length / 5;
    const weekend = year.filter((r) => (toEpochDay(r.date) + 3) % 7 >= 5).length / 2;
    expect(weekday).toBeGreaterThan(2 * weekend);
    const credits = (start: string, end: string) =>
      year.filter((r) => r.date >= start && r.date <= end).reduce((a, r) => a + r.billable_tokens, 0);
    expect(credits('2026-09-01', '2026-10-31')).toBeGreaterThan(credits('2026-02-01', '2026-03-31'));
    const perUser = new Map<string, number>();
    for (const r of year) perUser.set(r.user_id, (perUser.get(r.user_id) ?? 0) + r.billable_tokens);
    const sorted = [...perUser.values()].sort((a, b) => b - a);
    const total = sorted.reduce((a, b) => a + b, 0);
    // The top fifth of users consume well over a fifth of the credits.
    expect(sorted.slice(0, Math.ceil(sorted.length / 5)).reduce((a, b) => a + b, 0) / total).toBeGreaterThan(
      0.4,
    );
  });

  it('covers both model tiers, all delegation levels, several clients per user and parsing artifacts', () => {
    const year = [...org.userDays({ start: '2026-01-14', end: '2026-11-21' })];
    expect(new Set(year.map((r) => r.primary_model_tier))).toEqual(new Set(['standard', 'thinking']));
    expect(new Set(year.map((r) => r.delegation_level))).toEqual(
      new Set(['auto-high', 'auto-medium', 'auto-low', 'spec', 'manual']),
    );
    const days = eachDay('2026-01-14', '2026-11-21');
    const tools = days.flatMap((d) => org.toolsDay(d).by_tool.map((t) => t.tool));
    expect(tools.some((t) => ARTIFACT_TOOL_NAMES.includes(t))).toBe(true);
    const servers = new Set(days.flatMap((d) => org.toolsDay(d).mcp_by_server.map((s) => s.server)));
    const caseDuplicates = MCP_SERVERS.filter((s) => s.spellings.filter((sp) => servers.has(sp)).length > 1);
    expect(caseDuplicates.length).toBeGreaterThan(0);
    const events = new Set(days.flatMap((d) => org.toolsDay(d).hooks_by_event.map((h) => h.event)));
    expect(events.has('PostToolUse')).toBe(true);
    // Some user is active on two clients on the same day.
    const multi = days.some((d) => {
      const a = org.activityDay(d);
      const sum = Object.values(a.daily_active_users_by_client).reduce((x, y) => x + y, 0);
      return sum > a.daily_active_users;
    });
    expect(multi).toBe(true);
  });
});

describe('createOrganization: personas', () => {
  it('shape autonomy and delegation: delegators run more autonomously than explorers', () => {
    const big = createOrganization({ seed: 5, users: 150, today: TODAY });
    const stats = new Map<string, { ratio: number; n: number; high: number; manualish: number }>();
    for (const row of big.userDays({ start: '2026-09-01', end: '2026-10-31' })) {
      const persona = PERSONAS[big.profile(big.userIndexOf(row.user_id)!).persona]!.name;
      const s = stats.get(persona) ?? { ratio: 0, n: 0, high: 0, manualish: 0 };
      s.ratio += row.autonomy_ratio ?? 0;
      s.n++;
      if (row.delegation_level === 'auto-high') s.high++;
      if (row.delegation_level === 'manual' || row.delegation_level === 'auto-low') s.manualish++;
      stats.set(persona, s);
    }
    const explorer = stats.get('explorer')!;
    const delegator = stats.get('delegator')!;
    expect(delegator.ratio / delegator.n).toBeGreaterThan(2 * (explorer.ratio / explorer.n));
    expect(delegator.high / delegator.n).toBeGreaterThan(0.5);
    expect(explorer.manualish / explorer.n).toBeGreaterThan(0.5);
  });
});

describe('createOrganization: daily totals equal the sums of the day rows', () => {
  const byDate = rowsByDate(OCTOBER);
  const sum = (rows: UserDay[], key: keyof UserDay) => rows.reduce((a, r) => a + (r[key] as number), 0);

  it.each(eachDay(OCTOBER.start, OCTOBER.end))('%s', (date) => {
    const rows = byDate.get(date) ?? [];
    const tokens = org.tokensDay(date);
    const tools = org.toolsDay(date);
    const activity = org.activityDay(date);
    const productivity = org.productivityDay(date);
    expect(tokens.billable_tokens).toBe(sum(rows, 'billable_tokens'));
    expect(tokens.by_model.reduce((a, m) => a + m.billable_tokens, 0)).toBe(tokens.billable_tokens);
    expect(tokens.by_model.reduce((a, m) => a + m.input_tokens, 0)).toBe(tokens.input_tokens);
    expect(tokens.by_model.reduce((a, m) => a + m.output_tokens, 0)).toBe(tokens.output_tokens);
    expect(tokens.by_user?.length).toBe(rows.length);
    for (const u of tokens.by_user ?? []) {
      const row = rows.find((r) => r.user_id === u.user_id)!;
      expect(u.billable_tokens).toBe(row.billable_tokens);
      expect(u.by_model.reduce((a, m) => a + m.billable_tokens, 0)).toBe(u.billable_tokens);
    }
    expect(Number.isInteger(tokens.input_tokens) && Number.isInteger(tokens.cache_read_tokens)).toBe(true);
    expect(tools.tool_calls).toBe(sum(rows, 'tool_calls'));
    expect(tools.by_tool.reduce((a, t) => a + t.invocations, 0)).toBe(tools.tool_calls);
    expect(tools.mcp_by_server.reduce((a, t) => a + t.invocations, 0)).toBe(sum(rows, 'mcp_calls'));
    expect(tools.mcp_users_with_mcp).toBe(rows.filter((r) => r.mcp_calls > 0).length);
    expect(tools.skills_invocations).toBe(sum(rows, 'skill_calls'));
    expect(tools.skills_by_name.reduce((a, t) => a + t.count, 0)).toBe(tools.skills_invocations);
    expect(tools.slash_commands_invocations).toBe(sum(rows, 'slash_commands'));
    expect(tools.slash_commands_by_name.reduce((a, t) => a + t.count, 0)).toBe(
      tools.slash_commands_invocations,
    );
    expect(tools.hooks_invocations).toBe(sum(rows, 'hooks'));
    expect(tools.hooks_by_event.reduce((a, t) => a + t.count, 0)).toBe(tools.hooks_invocations);
    expect(tools.web_users).toBe(activity.daily_active_users_by_client.web);
    const shares = AUTONOMY_LEVELS.map((l) => tools.tool_autonomy_level_ratio[l] ?? 0);
    if (tools.tool_calls > 0) expect(shares.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 9);
    const ratios = rows.map((r) => r.tool_calls / r.user_messages).sort((a, b) => a - b);
    const mean = ratios.reduce((a, b) => a + b, 0) / (ratios.length || 1);
    expect(tools.autonomy_ratio_avg).toBeCloseTo(mean, 9);
    if (ratios.length) {
      const pos = (ratios.length - 1) / 2;
      const p50 =
        ratios[Math.floor(pos)]! +
        (ratios[Math.ceil(pos)]! - ratios[Math.floor(pos)]!) * (pos - Math.floor(pos));
      expect(tools.autonomy_ratio_p50).toBeCloseTo(p50, 9);
      expect(tools.tool_calls_per_session_avg).toBeCloseTo(
        sum(rows, 'tool_calls') / sum(rows, 'sessions'),
        9,
      );
    }
    expect(activity.daily_active_users).toBe(new Set(rows.map((r) => r.user_id)).size);
    for (const n of Object.values(activity.daily_active_users_by_client)) {
      expect(n).toBeLessThanOrEqual(activity.daily_active_users);
    }
    expect(activity.sessions).toBe(sum(rows, 'sessions'));
    expect(activity.messages).toBe(sum(rows, 'messages'));
    expect(activity.user_messages).toBe(sum(rows, 'user_messages'));
    expect(productivity.files_created).toBe(sum(rows, 'files_created'));
    expect(productivity.files_edited).toBe(sum(rows, 'files_edited'));
    expect(productivity.git_commits).toBe(sum(rows, 'git_commits'));
    expect(productivity.git_prs_created).toBe(sum(rows, 'git_prs_created'));
    expect(productivity.by_language.reduce((a, x) => a + x.count, 0)).toBe(
      productivity.files_created + productivity.files_edited,
    );
  });

  it('WAU and MAU are the distinct users of the trailing 7 and 30 days', () => {
    const all = rowsByDate({ start: '2026-01-14', end: '2026-11-21' });
    for (const date of ['2026-01-14', '2026-01-20', '2026-02-10', '2026-10-31', '2026-11-21']) {
      const distinct = (days: number) => {
        const ids = new Set<string>();
        for (let k = 0; k < days; k++) for (const r of all.get(addDays(date, -k)) ?? []) ids.add(r.user_id);
        return ids.size;
      };
      const a = org.activityDay(date);
      expect(a.weekly_active_users).toBe(distinct(7));
      expect(a.monthly_active_users).toBe(distinct(30));
    }
  });
});

describe('createOrganization: readiness, controls, computers', () => {
  it('orders readiness reports newest first, mostly improving, with skipped and invalid evaluations', () => {
    const big = createOrganization({ seed: 3, users: 10, repos: 8, today: TODAY });
    const reports = big.readinessReports;
    expect(new Set(reports.map((r) => r.repoUrl)).size).toBe(8);
    for (let i = 1; i < reports.length; i++)
      expect(reports[i - 1]!.createdAt >= reports[i]!.createdAt).toBe(true);
    const evaluations = reports.flatMap((r) => Object.values(r.report));
    expect(evaluations.some((e) => e.numerator === undefined)).toBe(true);
    expect(evaluations.some((e) => (e.numerator ?? 0) > (e.denominator ?? 1))).toBe(true);
    expect(Object.keys(reports[0]!.report).length).toBeGreaterThanOrEqual(20);
    const score = (r: (typeof reports)[number]) => {
      const valid = Object.values(r.report).filter(
        (e) => e.numerator != null && e.numerator <= e.denominator!,
      );
      return valid.reduce((a, e) => a + e.numerator! / e.denominator!, 0) / valid.length;
    };
    let improved = 0;
    for (const repo of big.repositories) {
      const mine = reports.filter((r) => r.repoUrl === repo.url);
      if (score(mine[0]!) > score(mine.at(-1)!)) improved++;
    }
    expect(improved).toBeGreaterThanOrEqual(6);
  });

  it('has a few control changes a month, revision descending, with fake custom-model keys', () => {
    const h = org.controlHistory;
    for (let i = 1; i < h.length; i++) expect(h[i - 1]!.revision).toBe(h[i]!.revision + 1);
    const months = new Map<string, number>();
    for (const c of h) months.set(c.updatedAt.slice(0, 7), (months.get(c.updatedAt.slice(0, 7)) ?? 0) + 1);
    for (const [month, n] of months)
      if (month > '2025-12' && month < '2026-11') expect(n).toBeGreaterThanOrEqual(2);
    const keys = h.flatMap((c) => (c.settings.customModels ?? []).map((m) => m.apiKey));
    expect(keys.length).toBeGreaterThan(0);
    for (const k of keys) expect(k).toMatch(/^fake-key-[0-9a-f]+$/);
  });

  it('has computers with provisioning steps, some failed with an error', () => {
    const big = createOrganization({ seed: 7, users: 200, today: TODAY });
    const steps = big.computers.flatMap((c) => c.provisioningSteps ?? []);
    const failed = steps.filter((s) => s.status === 'failed');
    expect(failed.length).toBeGreaterThan(0);
    expect(failed.every((s) => (s.error ?? '').length > 0)).toBe(true);
    expect(steps.some((s) => s.status === 'completed')).toBe(true);
  });
});

describe('createOrganization: hostile mode', () => {
  it('plants hostile strings in names, e-mails, tool names, repository URLs, rationales and settings', () => {
    const h = createOrganization({ seed: 7, users: 40, today: TODAY, hostile: true });
    const users = [...h.users()];
    const names = users.flatMap((u) => [u.firstName, u.lastName]);
    expect(names).toContain(HOSTILE_STRINGS.script);
    expect(names).toContain(HOSTILE_STRINGS.long);
    expect(names).toContain('');
    expect(users.some((u) => u.email!.startsWith('='))).toBe(true);
    expect(h.repositories.some((r) => r.url.includes('<script>'))).toBe(true);
    const rationales = h.readinessReports.flatMap((r) => Object.values(r.report).map((e) => e.rationale));
    expect(rationales).toContain(HOSTILE_STRINGS.hyperlinkFormula);
    const tools = eachDay('2026-10-01', '2026-10-31').flatMap((d) =>
      h.toolsDay(d).by_tool.map((t) => t.tool),
    );
    expect(tools.some((t) => Object.values(HOSTILE_STRINGS).includes(t as never))).toBe(true);
    expect(h.controlHistory[0]!.settings.serviceRouterGuidance).toContain('{{');
    // The ordinary organization has none of them.
    expect([...org.users()].some((u) => (u.lastName ?? '').includes('<'))).toBe(false);
  });
});
