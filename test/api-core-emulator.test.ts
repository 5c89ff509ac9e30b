/**
 * The api-core client against the emulator, endpoint by endpoint: every operation of the spec,
 * each pagination style with small pages, both hosts, auth and role errors, and credit limits.
 */
import {
  AuthenticationError,
  daysBetween,
  NotFoundError,
  OrgClient,
  PermissionDeniedError,
  type UserDay,
  ValidationError,
} from '@orgreport/api-core';
import { type RunningEmulator, startEmulator } from '@orgreport/emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const TODAY = '2026-11-22';
const now = () => new Date(`${TODAY}T08:00:00Z`);
const october = { startDate: '2026-10-01', endDate: '2026-10-31' };

let emu: RunningEmulator;
let client: OrgClient;
const clientFor = (apiKey: string) =>
  new OrgClient({ apiKey, baseUrl: emu.baseUrl, appUrl: emu.appUrl, now });

beforeAll(async () => {
  emu = await startEmulator({ seed: 7, users: 30, today: TODAY });
  client = clientFor(emu.keys.owner);
});
afterAll(async () => {
  await emu?.close();
});

describe('api-core against the emulator', () => {
  it('lists every readiness report from the app host, the same with small and large pages', async () => {
    const small = await client.readiness.list({ limit: 2 }).toArray();
    const large = await client.readiness.list({ limit: 500 }).toArray();
    const expected = emu.organization.readinessReports.map((r) => r.reportId);
    expect(expected.length).toBeGreaterThan(2);
    expect(small.map((r) => r.reportId)).toEqual(expected);
    expect(large.map((r) => r.reportId)).toEqual(expected);
    const firstTwo = await client.readiness.list({ limit: 2, maxItems: 3 }).toArray();
    expect(firstTwo.map((r) => r.reportId)).toEqual(expected.slice(0, 3));
  });

  it('returns one typed row per day from each day endpoint', async () => {
    const days = daysBetween(october.startDate, october.endDate) + 1; // 31
    const [tokens, tools, activity, productivity] = await Promise.all([
      client.analytics.tokens(october),
      client.analytics.tools(october),
      client.analytics.activity(october),
      client.analytics.productivity(october),
    ]);
    for (const result of [tokens, tools, activity, productivity]) {
      expect(result.data.map((d) => d.date)).toHaveLength(days);
      expect(result.data[0]?.date).toBe('2026-10-01');
      expect(result.meta).toMatchObject({ start_date: '2026-10-01', end_date: '2026-10-31' });
    }
    expect(tokens.data.some((d) => d.billable_tokens > 0)).toBe(true);
  });

  it('grouped rows add up to the ungrouped day totals', async () => {
    const range = { startDate: '2026-10-05', endDate: '2026-10-11' };
    const [days, byModel, toolDays, byTool] = await Promise.all([
      client.analytics.tokens(range),
      client.analytics.tokens({ ...range, groupBy: 'model' }),
      client.analytics.tools(range),
      client.analytics.tools({ ...range, groupBy: 'tool_name' }),
    ]);
    for (const day of days.data) {
      const rows = byModel.data.filter((r) => r.date === day.date);
      expect(rows.reduce((s, r) => s + r.billable_tokens, 0)).toBe(day.billable_tokens);
    }
    for (const day of toolDays.data) {
      const rows = byTool.data.filter((r) => r.date === day.date);
      expect(rows.reduce((s, r) => s + r.tool_calls, 0)).toBe(day.tool_calls);
    }
    const byClient = await client.analytics.activity({ ...range, groupBy: 'client' });
    expect(byClient.data.every((r) => typeof r.group_key === 'string' && r.daily_active_users >= 0)).toBe(
      true,
    );
  });

  it('pages /users by next_cursor: small pages give the same rows as large ones', async () => {
    const range = { startDate: '2026-10-01', endDate: '2026-10-07' };
    const key = (r: UserDay) => `${r.user_id} ${r.date}`;
    let pages = 0;
    const small: UserDay[] = [];
    for await (const page of client.analytics.users({ ...range, limit: 3 }).pages()) {
      pages++;
      small.push(...page.items);
    }
    const large = await client.analytics.users({ ...range, limit: 100 }).toArray();
    expect(pages).toBeGreaterThan(1);
    expect(small.length).toBeGreaterThan(0);
    expect(small.map(key)).toEqual(large.map(key));
    expect(new Set(small.map(key)).size).toBe(small.length);
  });

  it('pages /users the same when the emulator spells the paging fields as the published pages do', async () => {
    const published = await startEmulator({ seed: 7, users: 30, today: TODAY, paging: 'published' });
    try {
      const range = { startDate: '2026-10-01', endDate: '2026-10-07' };
      const other = new OrgClient({ apiKey: published.keys.owner, baseUrl: published.baseUrl, now });
      const first = await other.analytics.users({ ...range, limit: 3 });
      expect(first.body.meta).toHaveProperty('hasMore', true);
      expect(first.body.meta).not.toHaveProperty('has_more');
      const key = (r: UserDay) => `${r.user_id} ${r.date}`;
      const camel = (await other.analytics.users({ ...range, limit: 3 }).toArray()).map(key);
      const snake = (await client.analytics.users({ ...range, limit: 3 }).toArray()).map(key);
      expect(camel).toEqual(snake);
    } finally {
      await published.close();
    }
  });

  it('walks control history and organization users by pagination.nextCursor', async () => {
    const history = await client.controls.history({ limit: 2 }).toArray();
    expect(history.map((c) => c.revision)).toEqual(emu.organization.controlHistory.map((c) => c.revision));
    const users = await client.orgUsers.list({ limit: 7 }).toArray();
    expect(users).toHaveLength(30);
    expect(new Set(users.map((u) => u.id)).size).toBe(30);
  });

  it('lists computers, creates, reads and updates a session, and reads a message', async () => {
    const computers = await client.computers.list();
    expect(computers.length).toBeGreaterThan(0);
    const computerId = computers[0]!.id;
    const created = await client.sessions.create({
      computerId,
      cwd: '/home/dev/app',
      sessionSettings: { model: 'm' },
    });
    expect(created).toMatchObject({ computerId, sessionSettings: { model: 'm' } });
    const read = await client.sessions.get(created.sessionId, { computerId });
    expect(read.sessionId).toBe(created.sessionId);
    const updated = await client.sessions.update(created.sessionId, {
      sessionSettings: { runInWorktree: true },
    });
    expect(updated.sessionSettings).toMatchObject({ model: 'm', runInWorktree: true });

    const seeded = emu.organization.seedSessions()[0]!;
    const [messageId, message] = [...seeded.messages][0]!;
    const got = await client.sessions.messages.get(seeded.session.sessionId, messageId);
    expect(got).toMatchObject({ id: messageId, role: message.role });
    await expect(client.sessions.get('sess_does_not_exist')).rejects.toBeInstanceOf(NotFoundError);
  });

  it('sets credit limits in batches and accounts for every entry', async () => {
    const users = await client.orgUsers.list({ maxItems: 3 }).toArray();
    const entries = [
      ...users.map((u, i) => ({ email: u.email!, limit: 1000 + i })),
      { email: 'nobody@example.invalid', limit: 5 },
      { email: 'not an email', limit: 5 },
    ];
    const result = await client.creditLimits.set(entries);
    expect(result.updated.map((u) => u.index)).toEqual([0, 1, 2]);
    expect(result.rejected.map((r) => r.index)).toEqual([3]);
    expect(result.notSent.map((r) => r.index)).toEqual([4]);
    expect(emu.creditLimits.get(users[1]!.email!.toLowerCase())).toBe(1001);
  });

  it('maps a wrong key to AuthenticationError and a member key on analytics to PermissionDeniedError', async () => {
    await expect(clientFor('test-key-wrong').computers.list()).rejects.toBeInstanceOf(AuthenticationError);
    const member = clientFor(emu.keys.member);
    const err = await member.analytics.activity(october).catch((e) => e);
    expect(err).toBeInstanceOf(PermissionDeniedError);
    expect(err.message).toMatch(/Manager or Owner/);
    expect(err.message).not.toContain(emu.keys.member);
    await expect(clientFor(emu.keys.manager).analytics.activity(october)).resolves.toBeDefined();
  });

  it('refuses today before sending, and the server agrees without a clock', async () => {
    expect(() => client.analytics.tokens({ startDate: '2026-11-01', endDate: TODAY })).toThrow(
      ValidationError,
    );
    const noClock = new OrgClient({ apiKey: emu.keys.owner, baseUrl: emu.baseUrl });
    await expect(noClock.analytics.tokens({ startDate: '2026-11-01', endDate: TODAY })).rejects.toMatchObject(
      {
        status: 400,
      },
    );
  });
});
