import { eachDay, isoWeekday } from '@orgreport/api-core/dates';
import { describe, expect, it } from 'vitest';
import { backtestForecast, forecastMonth } from './forecast.ts';

/** Credits per day: `weekday` on Monday to Friday, `weekend` on Saturday and Sunday. */
function pattern(start: string, end: string, weekday: number, weekend: number): Map<string, number> {
  return new Map(eachDay(start, end).map((d) => [d, isoWeekday(d) >= 6 ? weekend : weekday]));
}

describe('forecastMonth', () => {
  // October 2026: the 1st is a Thursday. Days 1-14 hold 10 weekdays and 4 weekend days; days
  // 15-31 hold 12 weekdays and 5 weekend days (22 and 9 in all).
  it('adds to the credits to date each remaining day at the mean of its kind over the trailing 28 days', () => {
    const values = pattern('2026-09-01', '2026-10-14', 10, 2);
    const f = forecastMonth(values, '2026-10-14');
    expect(f).toEqual({
      month: '2026-10',
      lastDay: '2026-10-14',
      toDate: 10 * 10 + 4 * 2, // 108
      daysHeld: 14,
      weekdaysLeft: 12,
      weekendDaysLeft: 5,
      weekdayRate: 10,
      weekendRate: 2,
      forecast: 108 + 12 * 10 + 5 * 2, // 238, the month's whole total (22 x 10 + 9 x 2)
    });
  });

  it('takes the rates from the trailing window only, and estimates a day of the month that is not held', () => {
    // Weekdays were 5 before 2026-09-16 and 10 from then on: the window 2026-09-17..2026-10-14 sees 10 only.
    const values = pattern('2026-08-01', '2026-10-14', 10, 2);
    for (const d of eachDay('2026-08-01', '2026-09-16')) if (isoWeekday(d) < 6) values.set(d, 5);
    // 2026-10-06 (a Tuesday) is missing from the store: estimated like a day still to come.
    values.delete('2026-10-06');
    const f = forecastMonth(values, '2026-10-14');
    expect(f.weekdayRate).toBe(10);
    expect(f.daysHeld).toBe(13);
    expect(f.toDate).toBe(98);
    expect(f.weekdaysLeft).toBe(13);
    expect(f.forecast).toBe(98 + 13 * 10 + 5 * 2);
  });

  it('uses the mean of all days for a kind the window lacks, and the credits to date alone without any day', () => {
    // Only 2026-10-01 (Thu) and 2026-10-02 (Fri) held: no weekend day in the window.
    const f = forecastMonth(
      new Map([
        ['2026-10-01', 4],
        ['2026-10-02', 6],
      ]),
      '2026-10-02',
      28,
    );
    expect(f.weekendRate).toBe(5);
    expect(f.forecast).toBe(10 + 20 * 5 + 9 * 5);
    const none = forecastMonth(new Map(), '2026-10-02');
    expect(none.forecast).toBe(0);
    expect(none.weekdayRate).toBeNull();
  });
});

describe('backtestForecast', () => {
  it('finds no error on a history whose weekdays and weekends never change', () => {
    const b = backtestForecast(pattern('2026-01-14', '2026-10-31', 10, 2));
    // February to October are whole (January's data starts on the 14th).
    expect(b.months.map((m) => m.month)).toEqual([
      '2026-02',
      '2026-03',
      '2026-04',
      '2026-05',
      '2026-06',
      '2026-07',
      '2026-08',
      '2026-09',
      '2026-10',
    ]);
    expect(b.overall.mape).toBeCloseTo(0, 12);
    expect(b.byDay[0]).toMatchObject({ day: 1, months: 9 });
    expect(b.byDay.at(-1)).toMatchObject({ day: 30, months: 5 }); // months of 31 days have a 30th cutoff
  });

  it('measures the error of each cutoff against the month total', () => {
    // September weekdays 10, weekends 2; October doubles (20 and 4). October's total: 22 x 20 + 9 x 4 = 476.
    const values = pattern('2026-08-01', '2026-09-30', 10, 2);
    for (const [d, v] of pattern('2026-10-01', '2026-10-31', 20, 4)) values.set(d, v);
    const b = backtestForecast(values);
    const october = b.months.find((m) => m.month === '2026-10')!;
    expect(october.actual).toBe(476);
    // Cutoff 2026-10-01 (Thu): window 2026-09-04..2026-10-01 holds 19 weekdays at 10 and one at 20
    // (mean 10.5) and 8 weekend days at 2. Forecast: 20 + 21 x 10.5 + 9 x 2 = 258.5.
    expect(october.errors[0]).toBeCloseTo((258.5 - 476) / 476, 12);
    const september = b.months.find((m) => m.month === '2026-09')!;
    expect(september.mape).toBeCloseTo(0, 12);
    expect(b.byDay[0]!.mape).toBeCloseTo((476 - 258.5) / 476 / 2, 12);
    expect(b.byDay[0]!.bias).toBeCloseTo((258.5 - 476) / 476 / 2, 12);
  });
});
