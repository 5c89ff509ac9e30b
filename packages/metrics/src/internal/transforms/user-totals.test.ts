import { userDayColumnsFromRows } from '@orgreport/api-core';
import { describe, expect, it } from 'vitest';
import { userDay } from '../../testing/snapshot-builder.ts';
import { encodeUserDays, withinSpan } from './user-days.ts';
import { userTotals } from './user-totals.ts';
import { userWeekLevels } from './user-week-levels.ts';

const SPAN = { start: '2026-03-01', end: '2026-03-31' };

describe('user totals', () => {
  const rows = [
    userDay('u', '2026-03-02', {
      tool_calls: 10,
      user_messages: 4,
      messages: 8,
      billable_tokens: 300,
      primary_model: 'beta',
      primary_model_tier: 'thinking',
      delegation_level: 'spec',
      languages: ['Go', 'SQL'],
    }),
    userDay('u', '2026-03-03', {
      tool_calls: 2,
      user_messages: 2,
      messages: 4,
      billable_tokens: 200,
      primary_model: 'alpha',
      primary_model_tier: 'standard',
      delegation_level: 'manual',
      languages: ['SQL'],
    }),
    userDay('u', '2026-03-04', {
      sessions: 1,
      billable_tokens: 100,
      primary_model: 'alpha',
      primary_model_tier: 'standard',
      languages: ['SQL'],
      user_email: 'u-new@example.test',
    }),
    userDay('u', '2026-02-28', { tool_calls: 99, billable_tokens: 9999, primary_model: 'gamma' }), // outside
  ];
  const data = encodeUserDays(userDayColumnsFromRows(rows));
  const period = withinSpan(data.table, SPAN);
  const [u] = userTotals(userWeekLevels(period, SPAN.start), period, data, {
    pricePerCredit: null,
    creditLimits: new Map(),
  });

  it('sums the span’s rows', () => {
    expect(u).toMatchObject({
      credits: 600,
      tool_calls: 12,
      user_messages: 6,
      messages: 12,
      sessions: 1,
      active_days: 3,
    });
  });

  it('breaks a credit tie between models by days, and orders languages by days', () => {
    // beta 300 credits on 1 day, alpha 200 + 100 = 300 on 2 days: alpha
    expect(u?.primary_model).toBe('alpha');
    expect(u?.primary_model_tier).toBe('standard');
    expect(u?.languages).toEqual(['SQL', 'Go']);
  });

  it('gives the primary delegation level, the autonomy ratio and the latest e-mail', () => {
    expect(u?.primary_delegation).toBe('spec'); // 10 tool calls against 2
    expect(u?.autonomy).toBe(2); // 12 / 6
    expect(u?.email).toBe('u-new@example.test');
  });
});
