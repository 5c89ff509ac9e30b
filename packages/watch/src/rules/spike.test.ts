import { describe, expect, it } from 'vitest';
import { historyOf, userRows } from '../__fixtures__/history.ts';
import { DEFAULT_RULES } from '../defaults.ts';
import { userSeries } from '../series.ts';
import { judgeDay, median, spikeFindings } from './spike.ts';

const rules = DEFAULT_RULES.spike;
const held = [{ start: '2026-09-01', end: '2026-10-09' }];

/** u works weekdays at 200,000 credits; from 2026-10-07 (a Wednesday) on, `spike` a day. */
function seriesWith(
  spike: Record<string, number>,
  rows = userRows('u@x.example', '2026-09-01', '2026-10-06', 200_000),
) {
  const extra = Object.entries(spike).map(([date, credits]) => ({
    date,
    userId: 'id-u',
    email: 'u@x.example',
    credits,
  }));
  return userSeries(historyOf({ held, userDays: [...rows, ...extra] })).get('u@x.example')!;
}

describe('median', () => {
  it('is the middle value, or the mean of the two middle ones', () => {
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });
});

describe('spike rule', () => {
  it('fires above 3x the median of the days with credits among the 28 before, and not at or below it', () => {
    // 2026-09-09..2026-10-06 hold 20 weekdays at 200,000 (the weekends have no credits and do not count).
    const s = seriesWith({ '2026-10-07': 610_000, '2026-10-08': 600_000 });
    expect(judgeDay(s.values, '2026-10-07', rules)).toEqual({
      value: 610_000,
      median: 200_000,
      historyDays: 20,
      spike: true,
    });
    expect(judgeDay(s.values, '2026-10-08', rules)?.spike).toBe(false); // exactly 3x is not above it
    const found = spikeFindings('org_test', [s], ['2026-10-07'], rules);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({
      rule: 'spike',
      key: 'spike|user:u@x.example|2026-10-07',
      period: '2026-10-07',
      day: '2026-10-07',
      person: true,
      email: 'u@x.example',
      figures: { credits: 610_000, median: 200_000, multiple: 3.05, history_days: 20, trailing_days: 28 },
    });
    expect(found[0]!.sentence).toBe(
      'u@x.example used 610,000 credits on 2026-10-07: 3.1x the median of 200,000 over the 20 days with credits among the 28 before (alert above 3.0x).',
    );
  });

  it('keeps a spike that lasts one alert: the days after it find the key of its first day', () => {
    // 2026-10-08 (2,000,000) is judged with 2026-10-07 (900,000) in its window: median still 200,000.
    const s = seriesWith({ '2026-10-07': 900_000, '2026-10-08': 2_000_000, '2026-10-09': 1_500_000 });
    const found = spikeFindings('org_test', [s], ['2026-10-08', '2026-10-09'], rules);
    expect(found.map((f) => [f.key, f.day])).toEqual([['spike|user:u@x.example|2026-10-07', '2026-10-08']]);
    expect(found[0]!.sentence).toContain('; a spike since 2026-10-07');
    // A quieter day inside the run does not end it (2026-10-08 at 300,000 is under 3x).
    const dip = seriesWith({ '2026-10-07': 900_000, '2026-10-08': 300_000, '2026-10-09': 1_500_000 });
    expect(spikeFindings('org_test', [dip], ['2026-10-09'], rules).map((f) => f.key)).toEqual([
      'spike|user:u@x.example|2026-10-07',
    ]);
    // Enough days without a spike day end it (here one, 2026-10-08): the next spike is a new one.
    expect(
      spikeFindings('org_test', [dip], ['2026-10-09'], { ...rules, quietDays: 1 }).map((f) => f.key),
    ).toEqual(['spike|user:u@x.example|2026-10-09']);
  });

  it('ignores people with too little history and days under the floor', () => {
    // 13 days with credits in the window: too little history, however large the day.
    const few = userRows('u@x.example', '2026-09-18', '2026-10-06', 200_000); // 13 weekdays
    expect(few).toHaveLength(13);
    const s = seriesWith({ '2026-10-07': 5_000_000 }, few);
    expect(judgeDay(s.values, '2026-10-07', rules)).toBeNull();
    expect(spikeFindings('org_test', [s], ['2026-10-07'], rules)).toEqual([]);
    // 14 days are enough.
    const enough = seriesWith(
      { '2026-10-07': 5_000_000 },
      userRows('u@x.example', '2026-09-17', '2026-10-06', 200_000),
    );
    expect(spikeFindings('org_test', [enough], ['2026-10-07'], rules)).toHaveLength(1);
    // A tiny user: 20,000 a day, then 90,000 (4.5x) stays under the 100,000 floor.
    const tiny = seriesWith(
      { '2026-10-07': 90_000 },
      userRows('u@x.example', '2026-09-01', '2026-10-06', 20_000),
    );
    expect(judgeDay(tiny.values, '2026-10-07', rules)).toMatchObject({ median: 20_000, spike: false });
  });

  it('takes its multiple, window and history from the settings', () => {
    const s = seriesWith({ '2026-10-07': 610_000 });
    expect(spikeFindings('org_test', [s], ['2026-10-07'], { ...rules, multiple: 4 })).toEqual([]);
    expect(judgeDay(s.values, '2026-10-07', { ...rules, trailingDays: 7, minHistoryDays: 5 })).toMatchObject({
      historyDays: 5,
      spike: true,
    });
  });
});
