/**
 * Property test of @orgreport/metrics over organizations from @orgreport/emulator: for several
 * seeds and months, the weekly rollup adds up to the month's figures and every share column of a
 * week with activity sums to 1.
 */
import {
  comparisonPeriod,
  eachDay,
  monthPeriod,
  SNAPSHOT_FORMAT_VERSION,
  type Snapshot,
  userDayColumnsFromRows,
} from '@orgreport/api-core';
import { createOrganization } from '@orgreport/emulator';
import { buildReportModel, type ReportModel, type WeeklyRow } from '@orgreport/metrics';
import { describe, expect, it } from 'vitest';

/** A snapshot of one month straight from the emulated organization (what the fetcher would store). */
function snapshotOf(seed: number, users: number, month: string, today: string): Snapshot {
  const org = createOrganization({ seed, users, today });
  const now = () => new Date(`${today}T12:00:00Z`);
  const period = monthPeriod(month, { now, allowPartial: true });
  const comparison = comparisonPeriod(period);
  const fetchedRange = { start: comparison?.start ?? period.start, end: period.end };
  const days = eachDay(fetchedRange.start, fetchedRange.end);
  return {
    manifest: {
      formatVersion: SNAPSHOT_FORMAT_VERSION,
      organization: { id: org.orgId, name: org.orgName },
      period,
      comparison,
      fetchedRange,
      fetchedAt: `${today}T06:00:00.000Z`,
      toolVersion: 'property-test',
      source: { baseUrl: 'http://127.0.0.1:0', appUrl: 'http://127.0.0.1:0' },
      counts: {},
      checksums: {},
      notes: [],
    },
    tokens: days.map((d) => org.tokensDay(d)),
    tools: days.map((d) => org.toolsDay(d)),
    activity: days.map((d) => org.activityDay(d)),
    productivity: days.map((d) => org.productivityDay(d)),
    userDays: userDayColumnsFromRows(org.userDays(fetchedRange)),
    orgUsers: [...org.users()],
    readiness: [...org.readinessReports],
    controls: [...org.controlHistory],
  };
}

/** Deterministic "random" seeds (a linear congruential sequence), so a failure reproduces. */
function seeds(count: number): number[] {
  const out: number[] = [];
  let x = 20260301;
  for (let i = 0; i < count; i++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    out.push(x % 100000);
  }
  return out;
}

const ADDITIVE = [
  'credits',
  'input_tokens',
  'output_tokens',
  'cache_read_tokens',
  'cache_write_tokens',
  'tool_calls',
  'sessions',
  'messages',
  'user_messages',
  'files_created',
  'files_edited',
  'git_commits',
  'git_prs_created',
] as const;

const AUTONOMY_SHARES = ['auto_high', 'auto_medium', 'auto_low', 'manual'] as const;
const DELEGATION_SHARES = [
  'delegation_auto_high',
  'delegation_auto_medium',
  'delegation_auto_low',
  'delegation_spec',
  'delegation_manual',
  'delegation_other',
] as const;

function sumOf(week: WeeklyRow, columns: ReadonlyArray<keyof WeeklyRow>): number {
  return columns.reduce((total, c) => total + ((week[c] as number | null) ?? 0), 0);
}

function checkModel(model: ReportModel): void {
  const figure = (id: string) => model.figures.find((f) => f.id === id)?.value;
  for (const id of ADDITIVE) {
    const weeks = model.weekly.reduce((total, w) => total + (w[id] ?? 0), 0);
    expect(weeks, `${id}: weeks vs month`).toBe(figure(id));
  }
  expect(model.weekly.reduce((days, w) => days + w.days_in_period, 0)).toBe(model.period.days);
  const activeUsers = figure('active_users') ?? 0;
  for (const week of model.weekly) {
    expect(week.active_users).toBeLessThanOrEqual(activeUsers);
    if (week.tool_calls > 0 && week.auto_high !== null) {
      expect(Math.abs(sumOf(week, AUTONOMY_SHARES) - 1), `${week.week} autonomy shares`).toBeLessThan(1e-9);
    }
    if (week.active_users > 0) {
      expect(Math.abs(sumOf(week, DELEGATION_SHARES) - 1), `${week.week} delegation shares`).toBeLessThan(
        1e-9,
      );
      for (const c of [...AUTONOMY_SHARES, ...DELEGATION_SHARES]) {
        const share = week[c];
        if (share !== null) {
          expect(share).toBeGreaterThanOrEqual(0);
          expect(share).toBeLessThanOrEqual(1);
        }
      }
    }
  }
  const month = model.behaviour.month;
  if (month.delegation.active_users > 0) {
    const total = Object.values(month.delegation.shares).reduce<number>((a, b) => a + (b ?? 0), 0);
    expect(Math.abs(total - 1)).toBeLessThan(1e-9);
  }
}

describe('metrics over emulated organizations', () => {
  const cases = seeds(4).flatMap((seed, i) => [
    { seed, users: 20 + 15 * i, month: '2026-03', today: '2026-04-02' },
    { seed, users: 12, month: '2026-01', today: '2026-02-10' }, // clamped at 2026-01-14
  ]);
  it.each(cases)(
    'seed $seed, $users users, $month: weeks add up and shares sum to 1',
    ({ seed, users, month, today }) => {
      const model = buildReportModel(snapshotOf(seed, users, month, today), {
        generatedAt: `${today}T07:00:00.000Z`,
      });
      checkModel(model);
    },
  );

  it('holds for a partial month ending mid-week', () => {
    const model = buildReportModel(snapshotOf(7, 25, '2026-04', '2026-04-16'), {
      generatedAt: '2026-04-16T07:00:00.000Z',
    });
    expect(model.partial).toBe(true);
    expect(model.weekly.at(-1)?.end).toBe('2026-04-15');
    checkModel(model);
  });
});
