import {
  activityByClientRowSchema,
  activityDaySchema,
  analyticsResponseSchema,
  apiErrorBodySchema,
  computersResponseSchema,
  controlHistoryResponseSchema,
  messageSchema,
  orgUsersResponseSchema,
  productivityDaySchema,
  readinessListResponseSchema,
  sessionSchema,
  setCreditLimitsResponseSchema,
  tokensByModelRowSchema,
  tokensDaySchema,
  toolsByNameRowSchema,
  toolsDaySchema,
  type UserDay,
  userDaySchema,
} from '@orgreport/api-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningEmulator, startEmulator } from './index.ts';

const TODAY = '2026-11-22';
let emu: RunningEmulator;

beforeAll(async () => {
  emu = await startEmulator({ seed: 11, users: 45, repos: 4, today: TODAY });
});
afterAll(async () => {
  await emu.close();
});

async function call(path: string, init: { key?: string | null; method?: string; body?: unknown } = {}) {
  const headers: Record<string, string> = {};
  const key = init.key === undefined ? emu.keys.owner : init.key;
  if (key !== null) headers.authorization = `Bearer ${key}`;
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${emu.baseUrl}${path}`, {
    method: init.method ?? 'GET',
    headers,
    body:
      init.body === undefined
        ? undefined
        : typeof init.body === 'string'
          ? init.body
          : JSON.stringify(init.body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

function expectProblem(r: { status: number; body: unknown; headers: Headers }, status: number) {
  expect(r.status).toBe(status);
  const body = apiErrorBodySchema.parse(r.body);
  expect(body).toMatchObject({ status, requestId: r.headers.get('x-request-id') });
  expect(typeof body.title).toBe('string');
  expect(typeof body.detail).toBe('string');
}

const range = 'startDate=2026-10-01&endDate=2026-10-07';

describe('authentication and roles', () => {
  it('answers 401 without a key or with an unknown key, on every endpoint group', async () => {
    for (const path of [
      `/api/v1/analytics/tokens?${range}`,
      '/api/v0/computers',
      '/api/organization/maturity-level-reports',
    ]) {
      expectProblem(await call(path, { key: null }), 401);
      expectProblem(await call(path, { key: 'emu-wrong-key' }), 401);
    }
  });

  it('answers 403 to a member on analytics but serves managers, owners and members elsewhere', async () => {
    for (const p of ['tokens', 'tools', 'activity', 'productivity', 'users']) {
      expectProblem(await call(`/api/v1/analytics/${p}?${range}`, { key: emu.keys.member }), 403);
      expect((await call(`/api/v1/analytics/${p}?${range}`, { key: emu.keys.manager })).status).toBe(200);
    }
    expect((await call('/api/v0/computers', { key: emu.keys.member })).status).toBe(200);
  });

  it('sets x-request-id on every response, errors included', async () => {
    const ok = await call('/api/v0/computers');
    const missing = await call('/api/v0/nothing-here');
    expect(ok.headers.get('x-request-id')).toMatch(/^emu-req-\d+$/);
    expectProblem(missing, 404);
    expect(missing.headers.get('x-request-id')).not.toBe(ok.headers.get('x-request-id'));
  });

  it('uses obviously fake default keys and accepts custom ones', async () => {
    expect(emu.keys).toEqual({
      owner: 'emu-owner-key',
      manager: 'emu-manager-key',
      member: 'emu-member-key',
    });
    const custom = await startEmulator({ users: 5, today: TODAY, keys: { owner: 'test-key-owner' } });
    try {
      const res = await fetch(`${custom.baseUrl}/api/v0/computers`, {
        headers: { authorization: 'Bearer test-key-owner' },
      });
      expect(res.status).toBe(200);
      const old = await fetch(`${custom.baseUrl}/api/v0/computers`, {
        headers: { authorization: 'Bearer emu-owner-key' },
      });
      expect(old.status).toBe(401);
    } finally {
      await custom.close();
    }
  });
});

describe('analytics: validation', () => {
  it.each([
    ['missing dates', ''],
    ['a malformed date', 'startDate=2026-10-1&endDate=2026-10-07'],
    ['an impossible date', 'startDate=2026-02-30&endDate=2026-03-01'],
    ['today', `startDate=2026-11-20&endDate=${TODAY}`],
    ['a future day', 'startDate=2026-12-01&endDate=2026-12-02'],
    ['startDate after endDate', 'startDate=2026-10-07&endDate=2026-10-01'],
    ['a day before 2026-01-14', 'startDate=2026-01-13&endDate=2026-01-20'],
    ['an unknown group_by', `${range}&group_by=user`],
  ])('answers 400 to %s', async (_, query) => {
    expectProblem(await call(`/api/v1/analytics/tokens?${query}`), 400);
  });

  it("allows only each endpoint's own group_by, and none on productivity and users", async () => {
    expectProblem(await call(`/api/v1/analytics/tools?${range}&group_by=model`), 400);
    expectProblem(await call(`/api/v1/analytics/activity?${range}&group_by=tool_name`), 400);
    expectProblem(await call(`/api/v1/analytics/productivity?${range}&group_by=client`), 400);
    expectProblem(await call(`/api/v1/analytics/users?${range}&group_by=client`), 400);
  });

  it.each(['0', '101', '-1', '2.5', 'ten'])('answers 400 to /users limit=%s', async (limit) => {
    expectProblem(await call(`/api/v1/analytics/users?${range}&limit=${limit}`), 400);
  });

  it('answers 400 to an unknown /users cursor', async () => {
    expectProblem(await call(`/api/v1/analytics/users?${range}&cursor=user_nobody`), 400);
  });

  it('accepts the first and the last data day', async () => {
    const r = await call('/api/v1/analytics/activity?startDate=2026-01-14&endDate=2026-11-21');
    expect(r.status).toBe(200);
    expect(r.body.data).toHaveLength(312);
    expect(r.body.meta).toEqual({
      org_id: emu.organization.orgId,
      start_date: '2026-01-14',
      end_date: '2026-11-21',
    });
  });
});

describe('analytics: responses validate against the api-core schemas', () => {
  it.each([
    ['tokens', '', tokensDaySchema],
    ['tokens', '&group_by=model', tokensByModelRowSchema],
    ['tools', '', toolsDaySchema],
    ['tools', '&group_by=tool_name', toolsByNameRowSchema],
    ['activity', '', activityDaySchema],
    ['activity', '&group_by=client', activityByClientRowSchema],
    ['productivity', '', productivityDaySchema],
    ['users', '&limit=100', userDaySchema],
  ] as const)('/%s%s', async (path, extra, schema) => {
    const r = await call(`/api/v1/analytics/${path}?${range}${extra}`);
    expect(r.status).toBe(200);
    const parsed = analyticsResponseSchema(schema).parse(r.body);
    expect(parsed.data.length).toBeGreaterThan(0);
    if (!extra) expect(parsed.data.map((d) => (d as { date: string }).date)).toHaveLength(7);
  });

  it('grouped rows add up to the ungrouped totals', async () => {
    const tokens = (await call(`/api/v1/analytics/tokens?${range}`)).body.data;
    const byModel = (await call(`/api/v1/analytics/tokens?${range}&group_by=model`)).body.data;
    const activity = (await call(`/api/v1/analytics/activity?${range}`)).body.data;
    const byClient = (await call(`/api/v1/analytics/activity?${range}&group_by=client`)).body.data;
    const tools = (await call(`/api/v1/analytics/tools?${range}`)).body.data;
    const byTool = (await call(`/api/v1/analytics/tools?${range}&group_by=tool_name`)).body.data;
    for (const day of tokens) {
      const rows = byModel.filter((r: { date: string }) => r.date === day.date);
      expect(rows.reduce((a: number, r: { billable_tokens: number }) => a + r.billable_tokens, 0)).toBe(
        day.billable_tokens,
      );
    }
    for (const day of activity) {
      const rows = byClient.filter((r: { date: string }) => r.date === day.date);
      expect(rows).toHaveLength(3);
      for (const r of rows) expect(r.daily_active_users).toBe(day.daily_active_users_by_client[r.group_key]);
    }
    for (const day of tools) {
      const rows = byTool.filter((r: { date: string }) => r.date === day.date);
      expect(rows.reduce((a: number, r: { tool_calls: number }) => a + r.tool_calls, 0)).toBe(day.tool_calls);
    }
  });
});

describe('analytics: /users paging and consistency over a month', () => {
  it('pages by user: each page holds every row of its users, and the month matches the daily totals exactly', async () => {
    const month = 'startDate=2026-10-01&endDate=2026-10-31';
    const rows: UserDay[] = [];
    const seenUsers: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const r = await call(`/api/v1/analytics/users?${month}&limit=7${cursor ? `&cursor=${cursor}` : ''}`);
      expect(r.status).toBe(200);
      const page = analyticsResponseSchema(userDaySchema).parse(r.body);
      const users = [...new Set(page.data.map((d) => d.user_id))];
      expect(users.length).toBeLessThanOrEqual(7);
      for (const u of users) expect(seenUsers).not.toContain(u);
      // All of a user's days are on the user's page.
      for (const u of users) {
        const index = emu.organization.userIndexOf(u)!;
        expect(page.data.filter((d) => d.user_id === u)).toEqual(
          [...emu.organization.userDays({ start: '2026-10-01', end: '2026-10-31' })].filter(
            (d) => d.user_id === u,
          ),
        );
        expect(index).toBeGreaterThanOrEqual(0);
      }
      seenUsers.push(...users);
      rows.push(...page.data);
      if (page.meta.has_more) expect(users).toHaveLength(7);
      cursor = page.meta.has_more ? (page.meta.next_cursor as string) : undefined;
      pages++;
    } while (cursor);
    expect(pages).toBeGreaterThan(2);

    const [tokens, tools, activity, productivity] = await Promise.all(
      ['tokens', 'tools', 'activity', 'productivity'].map(
        async (p) => (await call(`/api/v1/analytics/${p}?${month}`)).body.data,
      ),
    );
    expect(tokens).toHaveLength(31);
    const sumOf = (date: string, key: keyof UserDay) =>
      rows.filter((r) => r.date === date).reduce((a, r) => a + (r[key] as number), 0);
    for (let i = 0; i < 31; i++) {
      const date = tokens[i].date;
      expect(tokens[i].billable_tokens).toBe(sumOf(date, 'billable_tokens'));
      expect(tools[i].tool_calls).toBe(sumOf(date, 'tool_calls'));
      expect(tools[i].skills_invocations).toBe(sumOf(date, 'skill_calls'));
      expect(tools[i].slash_commands_invocations).toBe(sumOf(date, 'slash_commands'));
      expect(tools[i].hooks_invocations).toBe(sumOf(date, 'hooks'));
      expect(activity[i].daily_active_users).toBe(rows.filter((r) => r.date === date).length);
      expect(activity[i].sessions).toBe(sumOf(date, 'sessions'));
      expect(activity[i].messages).toBe(sumOf(date, 'messages'));
      expect(activity[i].user_messages).toBe(sumOf(date, 'user_messages'));
      expect(productivity[i].files_created).toBe(sumOf(date, 'files_created'));
      expect(productivity[i].files_edited).toBe(sumOf(date, 'files_edited'));
      expect(productivity[i].git_commits).toBe(sumOf(date, 'git_commits'));
      expect(productivity[i].git_prs_created).toBe(sumOf(date, 'git_prs_created'));
    }
    // The last day's MAU counts distinct users of its trailing 30 days, all inside October.
    const trailing = new Set(rows.filter((r) => r.date >= '2026-10-02').map((r) => r.user_id));
    expect(activity[30].monthly_active_users).toBe(trailing.size);
  });

  it('defaults to 20 users a page', async () => {
    const r = await call('/api/v1/analytics/users?startDate=2026-01-14&endDate=2026-11-21');
    expect(new Set(r.body.data.map((d: UserDay) => d.user_id)).size).toBe(20);
    expect(r.body.meta.has_more).toBe(true);
    expect(typeof r.body.meta.next_cursor).toBe('string');
  });
});

describe('readiness reports', () => {
  it('pages newest first with startAfter and ends with a short or empty page', async () => {
    const all = emu.organization.readinessReports;
    const seen: string[] = [];
    let after: string | undefined;
    for (;;) {
      const r = await call(
        `/api/organization/maturity-level-reports?limit=10${after ? `&startAfter=${after}` : ''}`,
        { key: emu.keys.member },
      );
      expect(r.status).toBe(200);
      const page = readinessListResponseSchema.parse(r.body);
      seen.push(...page.reports.map((x) => x.reportId));
      if (page.reports.length < 10) break;
      after = page.reports.at(-1)!.reportId;
    }
    expect(seen).toEqual(all.map((r) => r.reportId));
    const created = all.map((r) => r.createdAt);
    expect([...created].sort((a, b) => b - a)).toEqual(created);
  });

  it('filters by repository id and rejects a bad limit or cursor', async () => {
    const repo = emu.organization.repositories[0]!;
    const r = await call(
      `/api/organization/maturity-level-reports?repoId=${encodeURIComponent(repo.id)}&limit=1000`,
    );
    expect(r.body.reports.length).toBeGreaterThan(0);
    expect(r.body.reports.every((x: { repoUrl: string }) => x.repoUrl === repo.url)).toBe(true);
    expectProblem(await call('/api/organization/maturity-level-reports?limit=0'), 400);
    expectProblem(await call('/api/organization/maturity-level-reports?limit=-3'), 400);
    expectProblem(await call('/api/organization/maturity-level-reports?startAfter=nope'), 400);
  });
});

describe('v0 endpoints', () => {
  it('pages the control history with hasMore/nextCursor, revision descending', async () => {
    const revisions: number[] = [];
    let cursor: string | undefined;
    do {
      const r = await call(
        `/api/v0/organization/enterprise-controls/history?limit=5${cursor ? `&cursor=${cursor}` : ''}`,
      );
      const page = controlHistoryResponseSchema.parse(r.body);
      expect(page.changes.length).toBeLessThanOrEqual(5);
      revisions.push(...page.changes.map((c) => c.revision));
      cursor = page.pagination?.hasMore ? (page.pagination?.nextCursor as string) : undefined;
    } while (cursor);
    expect(revisions).toEqual(emu.organization.controlHistory.map((c) => c.revision));
    expectProblem(await call('/api/v0/organization/enterprise-controls/history?limit=101'), 400);
    expectProblem(await call('/api/v0/organization/enterprise-controls/history?limit=0'), 400);
    expectProblem(await call('/api/v0/organization/enterprise-controls/history?cursor=bogus'), 400);
  });

  it('pages organization users (default 20, 1..100)', async () => {
    const first = await call('/api/v0/organization/users');
    const page = orgUsersResponseSchema.parse(first.body);
    expect(page.users).toHaveLength(20);
    expect(page.pagination?.hasMore).toBe(true);
    const ids: string[] = [];
    let cursor: string | undefined;
    do {
      const r = orgUsersResponseSchema.parse(
        (await call(`/api/v0/organization/users?limit=100${cursor ? `&cursor=${cursor}` : ''}`)).body,
      );
      ids.push(...r.users.map((u) => u.id));
      cursor = r.pagination?.hasMore ? (r.pagination?.nextCursor as string) : undefined;
    } while (cursor);
    expect(new Set(ids).size).toBe(45);
    expectProblem(await call('/api/v0/organization/users?limit=101'), 400);
    expectProblem(await call('/api/v0/organization/users?cursor=user_x'), 400);
  });

  it('lists computers', async () => {
    const r = computersResponseSchema.parse((await call('/api/v0/computers')).body);
    expect(r.computers.length).toBe(emu.organization.computers.length);
  });

  it('creates, updates and reads sessions and messages; unknown ids give 404', async () => {
    const computerId = emu.organization.computers[0]!.id;
    const created = await call('/api/v0/sessions', {
      method: 'POST',
      body: {
        computerId,
        cwd: '/home/dev/repo',
        sessionSettings: { model: 'vendorA-swift-4.5', tags: [{ name: 'demo', metadata: {} }] },
      },
    });
    expect(created.status).toBe(201);
    const session = sessionSchema.parse(created.body);
    expect(session.sessionSettings?.model).toBe('vendorA-swift-4.5');
    const patched = await call(`/api/v0/sessions/${session.sessionId}`, {
      method: 'PATCH',
      body: { sessionSettings: { runInWorktree: true } },
    });
    expect(patched.status).toBe(200);
    expect(sessionSchema.parse(patched.body).sessionSettings).toMatchObject({
      model: 'vendorA-swift-4.5',
      runInWorktree: true,
    });
    expect(patched.body.updatedAt).toBeGreaterThan(session.updatedAt);
    const read = await call(`/api/v0/sessions/${session.sessionId}?computerId=${computerId}`);
    expect(read.body).toEqual(patched.body);
    expectProblem(await call(`/api/v0/sessions/${session.sessionId}?computerId=comp_other`), 404);
    expectProblem(await call('/api/v0/sessions/sess_unknown'), 404);
    expectProblem(await call('/api/v0/sessions/sess_unknown', { method: 'PATCH', body: {} }), 404);

    const seeded = emu.organization.seedSessions()[0]!;
    const messageId = [...seeded.messages.keys()][0]!;
    const message = await call(`/api/v0/sessions/${seeded.session.sessionId}/messages/${messageId}`);
    expect(messageSchema.parse(message.body).id).toBe(messageId);
    expectProblem(await call(`/api/v0/sessions/${seeded.session.sessionId}/messages/msg_unknown`), 404);
    expectProblem(await call(`/api/v0/sessions/sess_unknown/messages/${messageId}`), 404);
  });

  it('validates session bodies: computerId required and known, cwd 1..4096, no response-only settings', async () => {
    const computerId = emu.organization.computers[0]!.id;
    expectProblem(await call('/api/v0/sessions', { method: 'POST', body: {} }), 400);
    expectProblem(await call('/api/v0/sessions', { method: 'POST', body: { computerId, cwd: '' } }), 400);
    expectProblem(
      await call('/api/v0/sessions', { method: 'POST', body: { computerId, cwd: 'x'.repeat(4097) } }),
      400,
    );
    expect(
      (await call('/api/v0/sessions', { method: 'POST', body: { computerId, cwd: 'x'.repeat(4096) } }))
        .status,
    ).toBe(201);
    expectProblem(
      await call('/api/v0/sessions', {
        method: 'POST',
        body: { computerId, sessionSettings: { tokenUsage: {} } },
      }),
      400,
    );
    expectProblem(await call('/api/v0/sessions', { method: 'POST', body: { computerId: 'comp_nope' } }), 404);
    expectProblem(await call('/api/v0/sessions', { method: 'POST', body: '{"computerId": ' }), 400);
  });

  it('sets credit limits for 1..100 entries, reporting unknown e-mails and invalid limits per entry', async () => {
    const email = emu.organization.orgUser(3).email!;
    const other = emu.organization.orgUser(4).email!;
    const r = await call('/api/v0/organization/usage/limits/users', {
      method: 'PUT',
      body:
        '{"users": [' +
        `{"email": "${email}", "limit": 5000},` +
        '{"email": "nobody@example.com", "limit": 10},' +
        `{"email": "${other}", "limit": -1},` +
        `{"email": "${other}", "limit": 1e400},` +
        `{"email": "${other}", "limit": "lots"}]}`,
    });
    expect(r.status).toBe(200);
    const body = setCreditLimitsResponseSchema.parse(r.body);
    expect(body.updated).toEqual([{ email, limit: 5000 }]);
    expect(body.errors.map((e) => e.email)).toEqual(['nobody@example.com', other, other, other]);
    expect(emu.creditLimits.get(email.toLowerCase())).toBe(5000);
    expectProblem(
      await call('/api/v0/organization/usage/limits/users', { method: 'PUT', body: { users: [] } }),
      400,
    );
    const many = Array.from({ length: 101 }, () => ({ email, limit: 1 }));
    expectProblem(
      await call('/api/v0/organization/usage/limits/users', { method: 'PUT', body: { users: many } }),
      400,
    );
    expectProblem(await call('/api/v0/organization/usage/limits/users', { method: 'PUT', body: {} }), 400);
  });
});
