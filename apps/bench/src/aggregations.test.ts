import { userDayColumnsFromRows } from '@orgreport/api-core';
import { describe, expect, it } from 'vitest';
import { digestsAgree, epochDay, jsAggregations, mondayOf } from './aggregations.ts';
import { duckdbFloor } from './duckdb-floor.ts';

const base = {
  user_email: null,
  billable_tokens: 0,
  tool_calls: 0,
  sessions: 0,
  messages: 0,
  user_messages: 0,
  files_created: 0,
  files_edited: 0,
  git_commits: 0,
  git_prs_created: 0,
  mcp_calls: 0,
  skill_calls: 0,
  slash_commands: 0,
  hooks: 0,
  assistant_messages: 0,
  autonomy_ratio: 0,
  primary_model_tier: 'standard',
  languages: [],
};

// Three rows in October (two users), one in September and one idle October row.
const columns = userDayColumnsFromRows([
  {
    ...base,
    user_id: 'a',
    date: '2026-10-05',
    tool_calls: 4,
    user_messages: 2,
    messages: 4,
    billable_tokens: 10,
    primary_model: 'm1',
    delegation_level: 'auto-high',
  },
  {
    ...base,
    user_id: 'a',
    date: '2026-10-06',
    tool_calls: 2,
    user_messages: 2,
    messages: 4,
    billable_tokens: 5,
    primary_model: 'm2',
    delegation_level: 'auto-high',
  },
  {
    ...base,
    user_id: 'b',
    date: '2026-10-06',
    sessions: 1,
    billable_tokens: 1,
    primary_model: 'm1',
    delegation_level: 'manual',
  },
  {
    ...base,
    user_id: 'b',
    date: '2026-10-07',
    billable_tokens: 0,
    primary_model: 'm1',
    delegation_level: 'manual',
  },
  {
    ...base,
    user_id: 'a',
    date: '2026-09-30',
    tool_calls: 1,
    user_messages: 1,
    messages: 2,
    primary_model: 'm1',
    delegation_level: 'spec',
  },
]);
const october = { start: '2026-10-01', end: '2026-10-31' };

describe('calendar helpers', () => {
  it('counts days from 1970-01-01 and finds ISO Mondays', () => {
    expect(epochDay('1970-01-02')).toBe(1);
    // 2026-10-07 is a Wednesday; its week starts on Monday 2026-10-05.
    expect(mondayOf(epochDay('2026-10-07'))).toBe(epochDay('2026-10-05'));
    expect(mondayOf(epochDay('2026-10-05'))).toBe(epochDay('2026-10-05'));
    expect(mondayOf(epochDay('2026-10-04'))).toBe(epochDay('2026-09-28'));
  });
});

describe('jsAggregations', () => {
  it('aggregates only the rows of the span, by hand', () => {
    const d = jsAggregations(columns, [october]);
    // perUser: a = sums (15 credits + 6 tools + 8 messages + 4 user messages) + 2 active days + ratio 6/4;
    // b = 1 credit + 1 session + 1 active day + ratio 0 (no user messages).
    expect(d.perUser).toEqual({ groups: 2, total: 15 + 6 + 8 + 4 + 2 + 1.5 + (1 + 1 + 1) });
    // perDay: 10-05 = 10+4+4+2 +1 user; 10-06 = 5+2+4+2 + 1+1 + 2 users; 10-07 = 0 + 0 users.
    expect(d.perDay).toEqual({ groups: 3, total: 21 + 13 + 2 + 2 });
    // One ISO week (10-05..10-11) with two active users.
    expect(d.perWeek).toEqual({ groups: 1, total: 2 });
    // (a,m1) 10 credits 1 day; (a,m2) 5, 1; (b,m1) 1 credit, 2 days.
    expect(d.perUserModel).toEqual({ groups: 3, total: 11 + 6 + 3 });
    // Active rows only: (a,auto-high) 6 tool calls, 2 days; (b,manual) 0 tool calls, 1 day.
    expect(d.perUserLevel).toEqual({ groups: 2, total: 8 + 1 });
  });

  it('adds the spans', () => {
    const both = jsAggregations(columns, [october, { start: '2026-09-01', end: '2026-09-30' }]);
    expect(both.perUser.groups).toBe(3);
    expect(both.perWeek.groups).toBe(2);
  });
});

describe('duckdbFloor', () => {
  it('gives the same digests as the JS loop', async () => {
    const spans = [october, { start: '2026-09-01', end: '2026-09-30' }];
    const duck = await duckdbFloor(columns, spans);
    expect(digestsAgree(duck.digests, jsAggregations(columns, spans))).toBe(true);
  });

  it('is told apart from a different result', async () => {
    const duck = await duckdbFloor(columns, [october]);
    const other = jsAggregations(columns, [{ start: '2026-10-01', end: '2026-10-06' }]);
    expect(digestsAgree(duck.digests, other)).toBe(false);
  });
});
