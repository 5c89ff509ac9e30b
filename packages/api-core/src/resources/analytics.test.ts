import { describe, expect, expectTypeOf, it } from 'vitest';
import { activityDay, productivityDay, tokensDay, toolsDay, userDay } from '../__fixtures__/samples.ts';
import { envelope, stubClient } from '../__fixtures__/stub-fetch.ts';
import { PermissionDeniedError } from '../errors.ts';
import type {
  ActivityByClientRow,
  ActivityDay,
  ProductivityDay,
  TokensByModelRow,
  TokensDay,
  ToolsByNameRow,
  ToolsDay,
  UserDay,
} from '../schemas.ts';

const range = { startDate: '2026-10-01', endDate: '2026-10-02' };

describe('analytics day endpoints', () => {
  it('return typed ungrouped rows with the envelope meta', async () => {
    const { client, calls } = stubClient((call) => {
      const days = ['2026-10-01', '2026-10-02'];
      const rows = {
        '/api/v1/analytics/tokens': days.map(tokensDay),
        '/api/v1/analytics/tools': days.map(toolsDay),
        '/api/v1/analytics/activity': days.map(activityDay),
        '/api/v1/analytics/productivity': days.map(productivityDay),
      }[call.url.pathname];
      return { body: envelope(rows ?? []) };
    });
    const tokens = await client.analytics.tokens(range);
    const tools = await client.analytics.tools(range);
    const activity = await client.analytics.activity(range);
    const productivity = await client.analytics.productivity(range);
    expectTypeOf(tokens.data).toEqualTypeOf<TokensDay[]>();
    expectTypeOf(tools.data).toEqualTypeOf<ToolsDay[]>();
    expectTypeOf(activity.data).toEqualTypeOf<ActivityDay[]>();
    expectTypeOf(productivity.data).toEqualTypeOf<ProductivityDay[]>();
    expect(tokens.data[1]).toMatchObject({ date: '2026-10-02', billable_tokens: 300 });
    expect(tokens.meta.org_id).toBe('org_test');
    expect(tokens.response.status).toBe(200);
    // Defaults from the schema fill arrays the server left out.
    expect(tools.data[0]?.skills_by_name).toEqual([]);
    expect(activity.data[0]?.daily_active_users_by_client).toEqual({ 'terminal-ui': 2, web: 1 });
    expect(productivity.data[0]?.by_language).toEqual([{ language: 'TypeScript', count: 7 }]);
    expect(calls.every((c) => !c.url.searchParams.has('group_by'))).toBe(true);
  });

  it('send group_by and return grouped rows typed by groupBy', async () => {
    const grouped = {
      model: [
        { date: '2026-10-01', group_key: 'model-a', billable_tokens: 1, input_tokens: 1, output_tokens: 0 },
      ],
      tool_name: [{ date: '2026-10-01', group_key: 'Read', tool_calls: 4 }],
      client: [{ date: '2026-10-01', group_key: 'web', daily_active_users: 2 }],
    };
    const { client, calls } = stubClient((call) => ({
      body: envelope(grouped[call.url.searchParams.get('group_by') as keyof typeof grouped]),
    }));
    const byModel = await client.analytics.tokens({ ...range, groupBy: 'model' });
    const byTool = await client.analytics.tools({ ...range, groupBy: 'tool_name' });
    const byClient = await client.analytics.activity({ ...range, groupBy: 'client' });
    expectTypeOf(byModel.data).toEqualTypeOf<TokensByModelRow[]>();
    expectTypeOf(byTool.data).toEqualTypeOf<ToolsByNameRow[]>();
    expectTypeOf(byClient.data).toEqualTypeOf<ActivityByClientRow[]>();
    expect(byModel.data[0]?.group_key).toBe('model-a');
    expect(byTool.data[0]?.tool_calls).toBe(4);
    expect(byClient.data[0]?.daily_active_users).toBe(2);
    expect(calls.map((c) => c.url.searchParams.get('group_by'))).toEqual(['model', 'tool_name', 'client']);
  });

  it('rejects a grouped body without group_key when grouped', async () => {
    const { client } = stubClient([{ body: envelope([{ date: '2026-10-01', tool_calls: 4 }]) }]);
    await expect(client.analytics.tools({ ...range, groupBy: 'tool_name' })).rejects.toMatchObject({
      name: 'ResponseValidationError',
      path: 'data[0].group_key',
    });
  });

  it('a member key gets a 403 that names the Manager or Owner role', async () => {
    const { client } = stubClient([
      {
        status: 403,
        body: { title: 'Forbidden', detail: 'insufficient role', status: 403, requestId: 'req_1' },
      },
    ]);
    const err = await client.analytics.activity(range).catch((e) => e);
    expect(err).toBeInstanceOf(PermissionDeniedError);
    expect(err.message).toMatch(/Manager or Owner/);
    expect(err.requestId).toBe('req_1');
  });
});

describe('analytics /users', () => {
  it('is a typed page-promise over per-user rows, 100 per page by default', async () => {
    const { client, calls } = stubClient([
      { body: envelope([userDay('u1'), userDay('u2')], { has_more: false }) },
    ]);
    const listing = client.analytics.users(range);
    const rows: UserDay[] = [];
    for await (const row of listing) rows.push(row);
    expect(rows.map((r) => r.user_id)).toEqual(['u1', 'u2']);
    expect(rows[0]?.files_created).toBe(0); // schema default
    expect(calls[0]?.url.searchParams.get('limit')).toBe('100');
    expect(calls[0]?.url.pathname).toBe('/api/v1/analytics/users');
  });
});
