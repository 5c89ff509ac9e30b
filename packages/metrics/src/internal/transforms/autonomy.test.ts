import { userDayColumnsFromRows } from '@orgreport/api-core';
import * as aq from 'arquero';
import { describe, expect, it } from 'vitest';
import { userDay } from '../../testing/snapshot-builder.ts';
import { autonomyMix, dayAutonomyShares } from './autonomy-mix.ts';
import { autonomyStats, autonomyStatsAt, percentileInc, userAutonomyRatios } from './autonomy-stats.ts';
import { encodeUserDays, withinSpan } from './user-days.ts';

describe('percentileInc (Excel PERCENTILE.INC)', () => {
  it('interpolates between closest ranks', () => {
    // h = (4 - 1) x 0.9 = 2.7: 3 + 0.7 x (4 - 3)
    expect(percentileInc([4, 1, 3, 2], 0.9)).toBeCloseTo(3.7, 12);
    expect(percentileInc([4, 1, 3, 2], 0.5)).toBeCloseTo(2.5, 12);
    expect(percentileInc([7], 0.9)).toBe(7);
    expect(percentileInc([], 0.5)).toBeNull();
  });
});

describe('autonomy ratios', () => {
  // a: 10 calls / 5 user messages = 2; b: 8 / 2 = 4 over two days; c: 30 / 3 = 10; d: no user message.
  const rows = [
    userDay('a', '2026-03-02', { tool_calls: 10, user_messages: 5, messages: 10 }),
    userDay('b', '2026-03-02', { tool_calls: 6, user_messages: 1, messages: 2 }),
    userDay('b', '2026-03-03', { tool_calls: 2, user_messages: 1, messages: 2 }),
    userDay('c', '2026-03-04', { tool_calls: 30, user_messages: 3, messages: 6 }),
    userDay('d', '2026-03-04', { tool_calls: 50, user_messages: 0, sessions: 1 }),
    userDay('c', '2026-02-27', { tool_calls: 900, user_messages: 1, messages: 2 }), // outside the span
  ];
  const data = encodeUserDays(userDayColumnsFromRows(rows));
  const march = withinSpan(data.table, { start: '2026-03-01', end: '2026-03-31' });

  it('divides each user’s summed tool calls by their summed user messages, leaving out users without one', () => {
    const ratios = userAutonomyRatios(march);
    const byUser = Object.fromEntries(
      (ratios.objects() as Array<{ uid: number; ratio: number }>).map((r) => [data.userIds[r.uid], r.ratio]),
    );
    expect(byUser).toEqual({ a: 2, b: 4, c: 10 });
  });

  it('takes mean, median and p90 of the users’ ratios', () => {
    const stats = autonomyStatsAt(autonomyStats(userAutonomyRatios(march)), 0);
    // ratios 2, 4, 10: mean 16/3; p50 4; p90 h = 1.8 -> 4 + 0.8 x 6 = 8.8
    expect(stats.users).toBe(3);
    expect(stats.mean).toBeCloseTo(16 / 3, 12);
    expect(stats.p50).toBe(4);
    expect(stats.p90).toBeCloseTo(8.8, 12);
  });

  it('gives a row per week in order of first appearance, the mean as a running mean', () => {
    const ratios = aq.table({ week: [1, 0, 1, 1, 0], ratio: [0.1, 5, 0.2, 0.3, 1] });
    const stats = autonomyStats(ratios, true);
    expect(Array.from(stats.array('week') as ArrayLike<number>)).toEqual([1, 0]);
    // week 1: ratios 0.1, 0.2, 0.3: p50 0.2; p90 h = 1.8 -> 0.2 + 0.8 x 0.1
    expect(autonomyStatsAt(stats, 0).users).toBe(3);
    expect(autonomyStatsAt(stats, 0).mean).toBeCloseTo(0.2, 12);
    expect(autonomyStatsAt(stats, 0).p50).toBe(0.2);
    expect(autonomyStatsAt(stats, 0).p90).toBeCloseTo(0.28, 12);
    // week 0: ratios 5, 1: mean 3; p50 h = 0.5 -> 1 + 0.5 x 4 = 3; p90 h = 0.9 -> 1 + 0.9 x 4
    expect(autonomyStatsAt(stats, 1)).toEqual({ users: 2, mean: 3, p50: 3, p90: 1 + 0.9 * 4 });
    expect(
      autonomyStats(
        ratios.filter(() => false),
        true,
      ).numRows(),
    ).toBe(0);
  });

  it('gives nulls, never NaN, when no user has a user message', () => {
    const empty = withinSpan(data.table, { start: '2026-04-01', end: '2026-04-30' });
    expect(autonomyStatsAt(autonomyStats(userAutonomyRatios(empty)), 0)).toEqual({
      users: 0,
      mean: null,
      p50: null,
      p90: null,
    });
  });
});

describe('autonomy mix', () => {
  it('weights each day’s shares by its tool calls', () => {
    const day1 = dayAutonomyShares({ auto_high: 1, auto_medium: 0, auto_low: 0, manual: 0 }).shares;
    const day2 = dayAutonomyShares({ auto_high: 0, auto_medium: 0, auto_low: 0.5, manual: 0.5 }).shares;
    const mix = autonomyMix([
      { tool_calls: 10, shares: day1 },
      { tool_calls: 30, shares: day2 },
      { tool_calls: 0, shares: day1 }, // no weight
    ]);
    // auto_high = 1 x 10 / 40; auto_low = manual = 0.5 x 30 / 40
    expect(mix).toEqual({
      auto_high: 0.25,
      auto_medium: 0,
      auto_low: 0.375,
      manual: 0.375,
      weighted_tool_calls: 40,
    });
  });

  it('normalises a day whose shares are off and reports how far off they were', () => {
    const day = dayAutonomyShares({
      auto_high: 0.5,
      auto_medium: 0.3,
      auto_low: 0.2,
      manual: 0.02,
      extra: 1,
    });
    expect(day.rawSum).toBeCloseTo(1.02, 12);
    expect(day.shares?.manual).toBeCloseTo(0.02 / 1.02, 12);
    expect(day.unknownKeys).toEqual(['extra']);
  });

  it('has null shares when no day carries weight', () => {
    expect(autonomyMix([{ tool_calls: 5, shares: null }])).toEqual({
      auto_high: null,
      auto_medium: null,
      auto_low: null,
      manual: null,
      weighted_tool_calls: 0,
    });
  });
});
