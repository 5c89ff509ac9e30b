import { type UserDay, userDayColumnsFromRows } from '@orgreport/api-core';
import { describe, expect, it } from 'vitest';
import { userDay } from '../../testing/snapshot-builder.ts';
import { delegationMix, NO_LEVEL, primaryDelegation } from './delegation.ts';
import { encodeUserDays, withinSpan } from './user-days.ts';
import { userWeekLevels } from './user-week-levels.ts';

const SPAN = { start: '2026-03-01', end: '2026-03-31' };

function primaryOf(rows: UserDay[]): Record<string, string | null> {
  const data = encodeUserDays(userDayColumnsFromRows(rows));
  const primary = primaryDelegation(userWeekLevels(withinSpan(data.table, SPAN), SPAN.start), data.levels);
  return Object.fromEntries(
    (primary.objects() as Array<{ uid: number; level: string | null }>).map((r) => [
      data.userIds[r.uid],
      r.level,
    ]),
  );
}

const day = (user: string, date: string, level: string | null, tool_calls: number) =>
  userDay(user, date, { delegation_level: level, tool_calls, messages: 1 });

describe('primary delegation level', () => {
  it('is the level whose user-days carry the most tool calls (summed over the span)', () => {
    // auto-high: 10 on one day; spec: 6 + 6 = 12 over two days
    expect(
      primaryOf([
        day('u', '2026-03-02', 'auto-high', 10),
        day('u', '2026-03-03', 'spec', 6),
        day('u', '2026-03-04', 'spec', 6),
      ]),
    ).toEqual({
      u: 'spec',
    });
  });

  it('breaks a tool-call tie by the number of user-days', () => {
    // manual: 12 on two days; auto-high: 12 on one day
    expect(
      primaryOf([
        day('u', '2026-03-02', 'auto-high', 12),
        day('u', '2026-03-03', 'manual', 6),
        day('u', '2026-03-04', 'manual', 6),
      ]),
    ).toEqual({
      u: 'manual',
    });
  });

  it('breaks a full tie by the order auto-high, auto-medium, auto-low, spec, manual', () => {
    expect(primaryOf([day('u', '2026-03-02', 'manual', 5), day('u', '2026-03-03', 'spec', 5)])).toEqual({
      u: 'spec',
    });
    expect(primaryOf([day('u', '2026-03-02', 'spec', 5), day('u', '2026-03-03', 'auto-low', 5)])).toEqual({
      u: 'auto-low',
    });
    expect(
      primaryOf([day('u', '2026-03-02', 'auto-medium', 5), day('u', '2026-03-03', 'auto-high', 5)]),
    ).toEqual({
      u: 'auto-high',
    });
  });

  it('ignores days without a level and inactive days', () => {
    const rows = [
      day('u', '2026-03-02', null, 100),
      day('u', '2026-03-03', 'auto-low', 1),
      userDay('v', '2026-03-02', { delegation_level: 'manual' }), // no activity: not an active user
      day('w', '2026-03-02', null, 4),
    ];
    expect(primaryOf(rows)).toEqual({ u: 'auto-low', w: null });
  });

  it('is computed per ISO week when asked', () => {
    const rows = [day('u', '2026-03-02', 'spec', 5), day('u', '2026-03-09', 'manual', 5)];
    const data = encodeUserDays(userDayColumnsFromRows(rows));
    const weekly = primaryDelegation(
      userWeekLevels(withinSpan(data.table, SPAN), SPAN.start),
      data.levels,
      true,
    );
    // 2026-03-01 is a Sunday: week 0 = W09, 03-02 in week 1 (W10), 03-09 in week 2 (W11)
    expect(weekly.objects()).toEqual([
      { uid: 0, week: 1, level: 'spec' },
      { uid: 0, week: 2, level: 'manual' },
    ]);
  });
});

describe('delegation mix', () => {
  it('is the share of active users at each primary level, unknown levels included', () => {
    const rows = [
      day('a', '2026-03-02', 'auto-high', 5),
      day('b', '2026-03-02', 'auto-high', 5),
      day('c', '2026-03-02', 'spec', 5),
      day('d', '2026-03-02', null, 5),
    ];
    const data = encodeUserDays(userDayColumnsFromRows(rows));
    const mix = delegationMix(
      primaryDelegation(userWeekLevels(withinSpan(data.table, SPAN), SPAN.start), data.levels),
    );
    expect(mix.active_users).toBe(4);
    expect(mix.counts).toEqual({
      'auto-high': 2,
      'auto-medium': 0,
      'auto-low': 0,
      spec: 1,
      manual: 0,
      [NO_LEVEL]: 1,
    });
    expect(mix.shares['auto-high']).toBe(0.5);
    expect(mix.shares[NO_LEVEL]).toBe(0.25);
    expect(Object.values(mix.shares).reduce((a, b) => (a ?? 0) + (b ?? 0), 0)).toBe(1);
  });
});
