/** The trend from the store: each month's sums equal that month's report built from a fresh fetch. */
import { comparisonPeriod, monthPeriod } from '@orgreport/api-core';
import { buildReportModel, type ReportModel } from '@orgreport/metrics';
import { fetchSnapshot } from '@orgreport/snapshot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readHistory } from './history.ts';
import { readPeriod } from './read-period.ts';
import { syncStore } from './sync.ts';
import { emulated, now, tempStore } from './testing/emulated.ts';

let env: Awaited<ReturnType<typeof emulated>>;
beforeAll(async () => {
  env = await emulated();
});
afterAll(() => env.emulator.close());

const options = { generatedAt: '2026-11-22T07:00:00.000Z', pricePerCredit: 0.002, currency: 'EUR' };
const figure = (model: ReportModel, id: string) => model.figures.find((f) => f.id === id)?.value ?? null;

interface TrendRow {
  month: string;
  partial: boolean;
  credits: number;
  cost: number | null;
  active_users: number;
  avg_dau: number | null;
  stickiness: number | null;
  seats: number;
  seat_utilization: number | null;
  readiness_score: number | null;
  readiness_level: number | null;
  autonomy_mean: number | null;
}

describe('readHistory', () => {
  it("sums each month as the report of that month does; the trend's rows equal the months' reports", async () => {
    const store = tempStore();
    const { orgId } = await syncStore(store, {
      client: env.client,
      now,
      toolVersion: 't',
      since: '2026-07-10',
    });
    const history = await readHistory(store, orgId, { until: '2026-10' });
    expect(history.map((h) => [h.month, h.days, h.daysInMonth])).toEqual([
      ['2026-07', 22, 31], // synced from the 10th: partial
      ['2026-08', 31, 31],
      ['2026-09', 30, 30],
      ['2026-10', 31, 31],
    ]);
    expect(await readHistory(store, orgId, { until: '2026-10', months: 2 })).toEqual(history.slice(2));

    // October's report from the store, with the history: its trend has July..October.
    const period = monthPeriod('2026-10', { now });
    const october = buildReportModel(await readPeriod(store, orgId, period, comparisonPeriod(period)), {
      ...options,
      inputs: { history },
    });
    const trend = october.sections?.trend as { months: TrendRow[] };
    expect(trend.months.map((m) => [m.month, m.partial])).toEqual([
      ['2026-07', true],
      ['2026-08', false],
      ['2026-09', false],
      ['2026-10', false],
    ]);
    expect(october.definitions.some((d) => d.id === 'trend')).toBe(true);

    // Each complete month's row equals the figures of that month's report from a fresh fetch.
    for (const row of trend.months.slice(1)) {
      expect(row.credits).toBeGreaterThan(0);
      expect(row.readiness_score).not.toBeNull();
      const p = monthPeriod(row.month, { now });
      const fresh = buildReportModel(
        await fetchSnapshot(env.client, {
          period: p,
          comparison: comparisonPeriod(p),
          now,
          toolVersion: 't',
        }),
        options,
      );
      expect(row.credits, row.month).toBe(figure(fresh, 'credits'));
      expect(row.cost, row.month).toBeCloseTo((figure(fresh, 'credits') ?? 0) * 0.002, 9);
      expect(row.active_users, row.month).toBe(figure(fresh, 'active_users'));
      expect(row.avg_dau, row.month).toBeCloseTo(figure(fresh, 'avg_dau')!, 9);
      expect(row.stickiness, row.month).toBeCloseTo(figure(fresh, 'stickiness')!, 9);
      expect(row.seats, row.month).toBe(figure(fresh, 'seats'));
      expect(row.seat_utilization, row.month).toBeCloseTo(figure(fresh, 'seat_utilization')!, 9);
      expect(row.readiness_score, row.month).toBe(figure(fresh, 'readiness_org_score'));
      expect(row.readiness_level, row.month).toBe(figure(fresh, 'readiness_org_level'));
      expect(row.autonomy_mean, row.month).toBeCloseTo(figure(fresh, 'autonomy_mean')!, 9);
    }
    // Without a history, no trend and no trend definition.
    const plain = buildReportModel(await readPeriod(store, orgId, period, comparisonPeriod(period)), options);
    expect(plain.sections?.trend).toBeUndefined();
    expect(plain.definitions.some((d) => d.id === 'trend')).toBe(false);
  });

  it('says when the store holds nothing of the organization', async () => {
    const store = tempStore();
    await syncStore(store, { client: env.client, now, toolVersion: 't', since: '2026-11-01' });
    await expect(readHistory(store, 'org_other', { until: '2026-10' })).rejects.toThrow(
      /holds no data of organization org_other/,
    );
  });
});
