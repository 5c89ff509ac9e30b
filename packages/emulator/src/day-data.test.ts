import { eachDay } from '@orgreport/api-core';
import { describe, expect, it } from 'vitest';
import type { UserDayDetail } from './activity.ts';
import { DayDataBuilder } from './day-data.ts';
import { createOrganization, type OrganizationOptions } from './organization.ts';
import { tokensByUser } from './totals.ts';

const TODAY = '2026-11-22';
const RANGE = { start: '2026-10-01', end: '2026-10-10' };

/** A hand-made user-day: two models, files in the 1st and 3rd profile languages. */
function detail(over: Partial<UserDayDetail> = {}): UserDayDetail {
  return {
    userIndex: 7,
    day: 20_000,
    clients: 1,
    sessions: 2,
    userMessages: 10,
    assistantMessages: 25,
    toolCalls: 40,
    byTool: [['Edit', 40]],
    autonomy: [10, 10, 10, 10],
    delegation: 'spec',
    mcpCalls: 3,
    mcpByServer: [],
    skillCalls: 4,
    skills: [],
    slashCommands: 5,
    slash: [],
    hookCalls: 6,
    hooks: [],
    models: [
      { model: 3, input: 1000, output: 50, cacheRead: 600, cacheWrite: 70, billable: 500 },
      { model: 1, input: 200, output: 9, cacheRead: 100, cacheWrite: 10, billable: 120 },
    ],
    filesCreated: 7,
    filesEdited: 8,
    byExtension: [],
    byLanguage: [
      ['Go', 9],
      ['Rust', 6],
    ],
    commits: 9,
    prs: 1,
    ...over,
  };
}

describe('DayDataBuilder', () => {
  it('keeps every figure of a user-day in its columns', () => {
    const builder = new DayDataBuilder('2024-10-04', 2);
    builder.add(2, detail({ models: [detail().models[1]!], byLanguage: [] }), ['Python']);
    builder.add(7, detail(), ['Go', 'Python', 'Rust']);
    const data = builder.finish();
    expect(data.size).toBe(2);
    expect(data.positionOf(7)).toBe(1);
    expect(data.positionOf(5)).toBe(-1);
    expect(data.figures(1, ['Go', 'Python', 'Rust'])).toEqual({
      sessions: 2,
      userMessages: 10,
      assistantMessages: 25,
      toolCalls: 40,
      mcpCalls: 3,
      skillCalls: 4,
      slashCommands: 5,
      hookCalls: 6,
      filesCreated: 7,
      filesEdited: 8,
      commits: 9,
      prs: 1,
      delegation: 'spec',
      // In the detail's order (the primary model first), not sorted.
      models: [
        { model: 3, billable: 500, input: 1000, output: 50 },
        { model: 1, billable: 120, input: 200, output: 9 },
      ],
      languages: ['Go', 'Rust'],
    });
    expect(data.figures(0, ['Python']).languages).toEqual([]);
    expect(data.models(0)).toEqual([{ model: 1, billable: 120, input: 200, output: 9 }]);
    // The totals are those of the two user-days.
    expect(data.totals.activeUsers).toBe(2);
    expect(data.totals.billable).toBe(620 + 120);
    expect(data.totals.toolCalls).toBe(80);
  });

  it('refuses a counter that would wrap, and a count of users other than announced', () => {
    expect(() => new DayDataBuilder('2024-10-04', 1).add(0, detail({ toolCalls: 2 ** 32 }), [])).toThrow(
      RangeError,
    );
    const short = new DayDataBuilder('2024-10-04', 2);
    short.add(0, detail(), []);
    expect(() => short.finish()).toThrow(RangeError);
  });
});

describe('the day cache of an organization', () => {
  const variants: [string, Partial<OrganizationOptions>][] = [
    ['plain', {}],
    ['hostile', { hostile: true }],
    ['drifting', { drift: true }],
  ];
  it.each(variants)(
    'serves the same /users rows from the cache as generated afresh (%s)',
    async (_, options) => {
      const fresh = createOrganization({ users: 60, today: TODAY, seed: 5, ...options });
      const cached = createOrganization({ users: 60, today: TODAY, seed: 5, ...options });
      const generated = [...fresh.userDays(RANGE)];
      for (const d of eachDay(RANGE.start, RANGE.end)) await cached.prepareDay(d);
      expect(generated.length).toBeGreaterThan(100);
      expect([...cached.userDays(RANGE)]).toEqual(generated);
      // Single lookups too, including a user who was not active.
      const inactive = Array.from({ length: 60 }, (_, i) => i).find((i) => !fresh.isActive(i, RANGE.start));
      expect(inactive).toBeDefined();
      expect(cached.userDay(inactive as number, RANGE.start)).toBeUndefined();
    },
  );

  it.each(variants)(
    'writes the /tokens row as JSON exactly as JSON.stringify of the row (%s)',
    (_, options) => {
      const org = createOrganization({ users: 60, today: TODAY, seed: 11, ...options });
      for (const date of ['2026-01-13', '2026-10-04', '2026-10-05', '2026-11-21']) {
        const row = org.tokensDay(date);
        expect(org.tokensDayJson(date)).toBe(JSON.stringify(row));
      }
      const users = org.tokensDay('2026-10-05').by_user?.length ?? 0;
      expect(users).toBeGreaterThan(5);
      // Pieces of 4 users, then one with the rest and the end of the row: the same text.
      const parts = [...org.tokensDayJsonParts('2026-10-05', 4)];
      expect(parts).toHaveLength(Math.floor(users / 4) + 1);
      expect(parts.join('')).toBe(org.tokensDayJson('2026-10-05'));
    },
  );

  it('builds /tokens by_user from the cache exactly as from each user-day detail', () => {
    const org = createOrganization({ users: 80, today: TODAY, seed: 3 });
    for (const date of eachDay(RANGE.start, RANGE.end)) {
      const expected = [];
      for (let i = 0; i < org.userCount; i++) {
        const d = org.userDayDetail(i, date);
        if (d) expected.push(tokensByUser(d, org.identity(i).id, org.identity(i).email));
      }
      const row = org.tokensDay(date);
      expect(row.by_user).toEqual(expected);
      expect(row.by_user?.reduce((a, u) => a + u.billable_tokens, 0)).toBe(row.billable_tokens);
    }
  });

  it('yields to the event loop while it computes a day, and computes it once for concurrent callers', async () => {
    const org = createOrganization({ users: 5000, today: TODAY, seed: 1 });
    let turns = 0;
    const tick = () => {
      turns++;
      if (!done) setImmediate(tick);
    };
    let done = false;
    setImmediate(tick);
    const first = org.prepareDay('2026-10-06');
    const second = org.prepareDay('2026-10-06');
    expect(second).toBe(first);
    await first;
    done = true;
    expect(turns).toBeGreaterThan(1);
    const totals = org.dailyTotals('2026-10-06');
    expect(totals.activeUsers).toBe(org.tokensDay('2026-10-06').by_user?.length);
    expect(totals.activeUsers).toBeGreaterThan(1024);
  });
});
