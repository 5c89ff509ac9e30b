import { describe, expect, it } from 'vitest';
import { buildReportModel } from './build-report-model.ts';
import type { ReportModel } from './model.ts';
import { sampleSnapshot } from './testing/index.ts';
import { activityDay, buildSnapshot, tokensDay, toolsDay, userDay } from './testing/snapshot-builder.ts';

const OPTIONS = { generatedAt: '2026-04-01T06:00:00.000Z' };

function figure(model: ReportModel, id: string) {
  const f = model.figures.find((x) => x.id === id);
  if (!f) throw new Error(`no figure ${id}`);
  return f;
}

/** Every number in the model, with its path, so a NaN or infinity anywhere fails the test. */
function nonFiniteNumbers(value: unknown, path = '$', out: string[] = []): string[] {
  if (typeof value === 'number' && !Number.isFinite(value)) out.push(path);
  else if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) nonFiniteNumbers(value[i], `${path}[${i}]`, out);
  } else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (v === undefined) out.push(`${path}.${k} (undefined)`);
      nonFiniteNumbers(v, `${path}.${k}`, out);
    }
  }
  return out;
}

describe('weeks of a month (2026-03: Sunday to Tuesday)', () => {
  const snapshot = buildSnapshot({
    month: '2026-03',
    noComparison: true,
    tokens: [
      tokensDay('2026-03-01', { billable_tokens: 5 }),
      tokensDay('2026-03-31', { billable_tokens: 7 }),
    ],
    activity: [
      activityDay('2026-03-01', { daily_active_users: 1, weekly_active_users: 9 }),
      activityDay('2026-03-29', { daily_active_users: 4, weekly_active_users: 6 }),
      activityDay('2026-03-30', { daily_active_users: 2, weekly_active_users: 5 }),
      activityDay('2026-03-31', { daily_active_users: 3, weekly_active_users: 4 }),
    ],
  });
  const model = buildReportModel(snapshot, OPTIONS);

  it('lists every ISO week intersecting the period, partial at both ends', () => {
    expect(model.weekly.map((w) => [w.week, w.start, w.end, w.days_in_period, w.partial])).toEqual([
      ['2026-W09', '2026-03-01', '2026-03-01', 1, true],
      ['2026-W10', '2026-03-02', '2026-03-08', 7, false],
      ['2026-W11', '2026-03-09', '2026-03-15', 7, false],
      ['2026-W12', '2026-03-16', '2026-03-22', 7, false],
      ['2026-W13', '2026-03-23', '2026-03-29', 7, false],
      ['2026-W14', '2026-03-30', '2026-03-31', 2, true],
    ]);
  });

  it('sums the days inside the period and takes WAU on the week’s last day inside it', () => {
    const first = model.weekly[0]!;
    const last = model.weekly[5]!;
    expect(first.credits).toBe(5);
    expect(last.credits).toBe(7);
    expect(first.wau).toBe(9);
    expect(first.wau_exact).toBe(true); // 2026-03-01 is a Sunday
    expect(last.wau).toBe(4); // weekly_active_users of 2026-03-31, a Tuesday
    expect(last.wau_exact).toBe(false);
    expect(last.avg_dau).toBe(2.5);
    expect(last.max_dau).toBe(3);
    // A week without any activity row has no DAU or WAU (not 0).
    expect(model.weekly[1]!.avg_dau).toBeNull();
    expect(model.weekly[1]!.wau).toBeNull();
  });

  it('computes average and peak DAU over the days with data, and the trailing MAU of the last day', () => {
    expect(figure(model, 'avg_dau').value).toBe(2.5); // (1 + 4 + 2 + 3) / 4
    expect(figure(model, 'peak_dau').value).toBe(4);
    expect(figure(model, 'mau_trailing_30d').value).toBe(0);
    expect(figure(model, 'mau_trailing_30d').note).toMatch(
      /active in the 30 days up to the period's last day, not the month's active users/,
    );
  });
});

describe('a period clamped at 2026-01-14', () => {
  const snapshot = buildSnapshot({
    month: '2026-01',
    tokens: [tokensDay('2026-01-14', { billable_tokens: 100 })],
    userDays: [
      userDay('a', '2026-01-14', { tool_calls: 3, user_messages: 1, messages: 2, billable_tokens: 100 }),
    ],
  });
  const model = buildReportModel(snapshot, OPTIONS);

  it('starts on 2026-01-14, is partial and has no comparison period', () => {
    expect(model.period).toMatchObject({
      start: '2026-01-14',
      end: '2026-01-31',
      days: 18,
      partial: true,
      clampedStart: true,
    });
    expect(model.partial).toBe(true);
    expect(model.comparison).toBeNull();
  });

  it('starts its first week on the clamped day', () => {
    expect(model.weekly[0]).toMatchObject({
      week: '2026-W03',
      start: '2026-01-14',
      end: '2026-01-18',
      days_in_period: 5,
      partial: true,
    });
    expect(model.weekly.at(-1)).toMatchObject({
      week: '2026-W05',
      start: '2026-01-26',
      end: '2026-01-31',
      days_in_period: 6,
    });
  });

  it('shows previous and change as n/a (null), never 0 % or infinity', () => {
    for (const f of model.figures) {
      expect(f.previous).toBeNull();
      expect(f.change).toBeNull();
    }
    expect(figure(model, 'credits').value).toBe(100);
  });
});

describe('the comparison period', () => {
  it('gives previous values and relative changes when it has data', () => {
    const model = buildReportModel(
      buildSnapshot({
        month: '2026-03',
        tokens: [
          tokensDay('2026-02-10', { billable_tokens: 80 }),
          tokensDay('2026-03-10', { billable_tokens: 100 }),
        ],
        tools: [toolsDay('2026-02-10', { tool_calls: 0 }), toolsDay('2026-03-10', { tool_calls: 4 })],
      }),
      OPTIONS,
    );
    expect(figure(model, 'credits')).toMatchObject({ value: 100, previous: 80, change: 0.25 });
    // previous 0: the change is not meaningful
    expect(figure(model, 'tool_calls')).toMatchObject({ value: 4, previous: 0, change: null });
  });

  it('is n/a when the snapshot holds no data for it', () => {
    const model = buildReportModel(
      buildSnapshot({ month: '2026-03', tokens: [tokensDay('2026-03-10', { billable_tokens: 100 })] }),
      OPTIONS,
    );
    expect(model.comparison).not.toBeNull();
    expect(model.comparisonHasData).toBe(false);
    expect(figure(model, 'credits')).toMatchObject({ value: 100, previous: null, change: null });
  });
});

describe('a month with no activity', () => {
  const model = buildReportModel(buildSnapshot({ month: '2026-02' }), OPTIONS);

  it('has zeros and nulls, and no NaN, infinity or undefined anywhere', () => {
    expect(nonFiniteNumbers(model)).toEqual([]);
    expect(figure(model, 'credits').value).toBe(0);
    expect(figure(model, 'active_users').value).toBe(0);
    expect(figure(model, 'stickiness').value).toBeNull();
    expect(figure(model, 'autonomy_mean').value).toBeNull();
    expect(figure(model, 'seat_utilization').value).toBeNull();
    expect(model.weekly.every((w) => w.auto_high === null && w.delegation_spec === null)).toBe(true);
    expect(model.users).toEqual([]);
  });

  it('survives a JSON round trip unchanged (plain JSON)', () => {
    expect(JSON.parse(JSON.stringify(model))).toEqual(model);
  });

  it('lists the missing days under data quality', () => {
    const missing = model.dataQuality.find((f) => f.kind === 'missing_days');
    expect(missing?.count).toBe(28);
  });
});

describe('active users, stickiness, seats and limits', () => {
  const snapshot = buildSnapshot({
    month: '2026-03',
    noComparison: true,
    activity: [
      activityDay('2026-03-02', { daily_active_users: 2 }),
      activityDay('2026-03-03', { daily_active_users: 1 }),
    ],
    userDays: [
      userDay('a', '2026-03-02', { user_email: 'A@Example.test', tool_calls: 1, billable_tokens: 900 }),
      userDay('a', '2026-03-03', { user_email: 'A@Example.test', sessions: 1, billable_tokens: 0 }),
      userDay('b', '2026-03-02', { messages: 2, billable_tokens: 300 }),
      // credits but no tool call, message or session: not active
      userDay('c', '2026-03-02', { billable_tokens: 50 }),
    ],
    orgUsers: [
      { id: 'a', email: 'a@example.test', createdAt: '2026-01-20T00:00:00Z' },
      { id: 'b-other-id', email: 'b@example.test', createdAt: '2026-03-31T23:59:59Z' }, // matched by e-mail
      { id: 'c', email: 'c@example.test', firstName: 'Cy', lastName: null }, // no creation date: a seat
      { id: 'z', email: 'z@example.test', createdAt: '2026-04-01T00:00:00Z' }, // not yet a seat
    ],
  });
  const model = buildReportModel(snapshot, {
    ...OPTIONS,
    pricePerCredit: 0.01,
    currency: 'EUR',
    creditLimits: { 'a@example.test': 1000, 'b@example.test': 300 },
  });

  it('counts distinct users with tool calls, messages or sessions', () => {
    expect(figure(model, 'active_users').value).toBe(2);
    expect(figure(model, 'stickiness').value).toBe(0.75); // mean DAU 1.5 / 2 active users
  });

  it('counts seats existing on the last day, their utilization and dormant seats', () => {
    // Without a month before there is no second idle month: no seat is a candidate to reclaim.
    expect(model.seats).toMatchObject({ seats: 3, active_users: 2, dormant: 1, reclaim_candidates: 0 });
    expect(model.seats.utilization).toBeCloseTo(2 / 3, 12);
    // c has rows but no activity in any fetched day: dormant.
    expect(model.seats.dormant_users).toEqual([
      {
        id: 'c',
        email: 'c@example.test',
        name: 'Cy',
        created_at: null,
        last_active: null,
        last_sign_in: null,
        reclaim: false,
      },
    ]);
  });

  it('names each user by their organization user (by id, else by e-mail in any case)', () => {
    const named = buildReportModel(
      buildSnapshot({
        month: '2026-03',
        noComparison: true,
        userDays: [
          userDay('a', '2026-03-02', { user_email: 'A@Example.test', tool_calls: 1 }),
          userDay('b', '2026-03-02', { user_email: 'b@example.test', tool_calls: 1 }),
          userDay('n', '2026-03-02', { user_email: 'n@example.test', tool_calls: 1 }),
        ],
        orgUsers: [
          { id: 'a', email: 'other@example.test', firstName: 'Amari', lastName: 'Thompson' },
          { id: 'b-other-id', email: 'B@example.test', firstName: ' Bo ', lastName: 'Li' },
          { id: 'n', email: 'n@example.test' },
        ],
      }),
      OPTIONS,
    );
    const name = (id: string) => named.users.find((u) => u.user_id === id)?.name;
    expect([name('a'), name('b'), name('n')]).toEqual(['Amari Thompson', 'Bo Li', null]);
  });

  it('shows credits against limits with 80 % and 100 % flags, and cost only with a price', () => {
    const a = model.users.find((u) => u.user_id === 'a')!;
    expect(a).toMatchObject({
      credits: 900,
      credit_limit: 1000,
      limit_utilization: 0.9,
      over_80: true,
      over_100: false,
      cost: 9,
    });
    const b = model.users.find((u) => u.user_id === 'b')!;
    expect(b).toMatchObject({ credit_limit: 300, limit_utilization: 1, over_100: true });
    const c = model.users.find((u) => u.user_id === 'c')!;
    expect(c).toMatchObject({ credit_limit: null, limit_utilization: null, over_80: false, active_days: 0 });
    expect(model.pricing).toEqual({ pricePerCredit: 0.01, currency: 'EUR' });
    const unpriced = buildReportModel(snapshot, OPTIONS);
    expect(unpriced.pricing).toBeNull();
    expect(unpriced.users.every((u) => u.cost === null)).toBe(true);
    expect(unpriced.credits.cost).toBeNull();
  });
});

describe('seats to reclaim', () => {
  // October 2026 against September: a seat is one to reclaim only when it existed before September
  // began and had no activity in either month.
  const model = buildReportModel(
    buildSnapshot({
      month: '2026-10',
      userDays: [
        userDay('used', '2026-10-05', { tool_calls: 3 }),
        userDay('idle-since-october', '2026-09-20', { tool_calls: 1 }),
      ],
      orgUsers: [
        { id: 'used', email: 'used@example.test', createdAt: '2026-01-20T00:00:00Z' },
        { id: 'idle-since-october', email: 'i@example.test', createdAt: '2026-01-20T00:00:00Z' },
        { id: 'old-idle', email: 'o@example.test', createdAt: '2026-08-31T23:59:59Z' },
        { id: 'no-date', email: 'd@example.test' },
        { id: 'new-in-september', email: 's@example.test', createdAt: '2026-09-01T00:00:00Z' },
        { id: 'new-last-week', email: 'w@example.test', createdAt: '2026-10-29T09:00:00Z' },
      ],
    }),
    OPTIONS,
  );

  it('are the seats idle two whole months, never a seat created since the month before began', () => {
    const reclaim = model.seats.dormant_users.filter((d) => d.reclaim).map((d) => d.id);
    expect(reclaim.sort()).toEqual(['no-date', 'old-idle']);
    expect(model.seats).toMatchObject({ seats: 6, dormant: 5, reclaim_candidates: 2 });
  });
});

describe('data quality', () => {
  it('lists a daily total more than 0.5 % away from the per-user sum, and not one within it', () => {
    const model = buildReportModel(
      buildSnapshot({
        month: '2026-03',
        noComparison: true,
        tools: [toolsDay('2026-03-02', { tool_calls: 1000 }), toolsDay('2026-03-03', { tool_calls: 1000 })],
        userDays: [
          userDay('a', '2026-03-02', { tool_calls: 995 }), // 0.5 %: tolerated
          userDay('a', '2026-03-03', { tool_calls: 994 }), // 0.6 %: listed
        ],
      }),
      OPTIONS,
    );
    const mismatch = model.dataQuality.find((f) => f.kind === 'users_total_mismatch');
    expect(mismatch?.details).toEqual([
      { date: '2026-03-03', metric: 'tool_calls', analytics: 1000, users: 994 },
    ]);
  });

  it('lists days whose autonomy shares are off by more than 1 %', () => {
    const model = buildReportModel(
      buildSnapshot({
        month: '2026-03',
        noComparison: true,
        tools: [
          toolsDay('2026-03-02', {
            tool_calls: 10,
            tool_autonomy_level_ratio: { auto_high: 0.5, auto_medium: 0.505, auto_low: 0, manual: 0 },
          }),
          toolsDay('2026-03-03', {
            tool_calls: 10,
            tool_autonomy_level_ratio: { auto_high: 0.5, auto_medium: 0.52, auto_low: 0, manual: 0 },
          }),
        ],
      }),
      OPTIONS,
    );
    expect(model.dataQuality.find((f) => f.kind === 'autonomy_mix_off')?.details).toEqual([
      { date: '2026-03-03', sum: 1.02 },
    ]);
    const week = model.weekly.find((w) => w.week === '2026-W10')!;
    expect(
      (week.auto_high ?? 0) + (week.auto_medium ?? 0) + (week.auto_low ?? 0) + (week.manual ?? 0),
    ).toBeCloseTo(1, 12);
  });
});

describe('the sample snapshot', () => {
  const model = buildReportModel(sampleSnapshot(), OPTIONS);

  it('builds a model whose weeks add up to the month and whose week shares sum to 1', () => {
    expect(nonFiniteNumbers(model)).toEqual([]);
    for (const id of [
      'credits',
      'tool_calls',
      'sessions',
      'messages',
      'user_messages',
      'git_commits',
    ] as const) {
      const weekSum = model.weekly.reduce((a, w) => a + w[id], 0);
      expect(weekSum).toBe(figure(model, id).value);
    }
    for (const w of model.weekly.filter((x) => x.active_users > 0)) {
      const auto = (w.auto_high ?? 0) + (w.auto_medium ?? 0) + (w.auto_low ?? 0) + (w.manual ?? 0);
      const delegation =
        (w.delegation_auto_high ?? 0) +
        (w.delegation_auto_medium ?? 0) +
        (w.delegation_auto_low ?? 0) +
        (w.delegation_spec ?? 0) +
        (w.delegation_manual ?? 0) +
        (w.delegation_other ?? 0);
      expect(Math.abs(auto - 1)).toBeLessThan(1e-9);
      expect(Math.abs(delegation - 1)).toBeLessThan(1e-9);
    }
  });

  it('reports every planted data-quality case', () => {
    expect(model.dataQuality.map((f) => f.kind).sort()).toEqual([
      'autonomy_mix_off',
      'mcp_case_merged',
      'readiness_invalid',
      'readiness_unmapped',
      'unparseable_tool_names',
      'users_total_mismatch',
    ]);
    expect(model.hookEvents?.total).toBe(4); // one event of February is outside the period
  });
});
