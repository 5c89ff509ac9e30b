import { describe, expect, it } from 'vitest';
import {
  addDays,
  comparisonPeriod,
  DateInputError,
  daysBetween,
  eachDay,
  isIsoDate,
  isoWeekBounds,
  isoWeekday,
  isoWeekLabel,
  isoWeeksOf,
  lastCompleteMonth,
  monthBounds,
  monthPeriod,
  parseIsoMonth,
  previousMonth,
  yesterdayUtc,
} from './dates.ts';

const at = (iso: string) => () => new Date(iso);

describe('calendar days', () => {
  it('accepts only real days written YYYY-MM-DD', () => {
    expect(isIsoDate('2026-02-28')).toBe(true);
    expect(isIsoDate('2028-02-29')).toBe(true);
    expect(isIsoDate('2026-02-29')).toBe(false);
    expect(isIsoDate('2026-13-01')).toBe(false);
    expect(isIsoDate('2026-1-01')).toBe(false);
    expect(isIsoDate('20260101')).toBe(false);
    expect(isIsoDate(20260101)).toBe(false);
  });

  it('adds days across month and year ends', () => {
    expect(addDays('2026-01-31', 1)).toBe('2026-02-01');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(daysBetween('2026-01-14', '2026-02-01')).toBe(18);
    expect(eachDay('2026-02-27', '2026-03-02')).toEqual([
      '2026-02-27',
      '2026-02-28',
      '2026-03-01',
      '2026-03-02',
    ]);
    expect(eachDay('2026-03-02', '2026-03-01')).toEqual([]);
  });

  it('takes yesterday in UTC from the injected clock, not the local day', () => {
    expect(yesterdayUtc(at('2026-11-22T00:30:00Z'))).toBe('2026-11-21');
    expect(yesterdayUtc(at('2026-11-21T23:59:59-05:00'))).toBe('2026-11-21');
    expect(yesterdayUtc(at('2026-03-01T12:00:00Z'))).toBe('2026-02-28');
  });
});

describe('ISO weeks', () => {
  it('labels weeks by the year of their Thursday', () => {
    expect(isoWeekday('2026-01-01')).toBe(4); // a Thursday
    expect(isoWeekLabel('2026-01-01')).toBe('2026-W01');
    expect(isoWeekLabel('2025-12-29')).toBe('2026-W01');
    expect(isoWeekLabel('2026-12-31')).toBe('2026-W53');
    expect(isoWeekLabel('2027-01-03')).toBe('2026-W53');
    expect(isoWeekLabel('2027-01-04')).toBe('2027-W01');
    expect(isoWeekLabel('2024-12-30')).toBe('2025-W01');
    expect(isoWeekLabel('2026-11-22')).toBe('2026-W47');
  });

  it('bounds a week from Monday to Sunday', () => {
    expect(isoWeekBounds('2026-11-22')).toEqual({ start: '2026-11-16', end: '2026-11-22' });
    expect(isoWeekBounds('2026-11-16')).toEqual({ start: '2026-11-16', end: '2026-11-22' });
  });

  it('lists every week that meets a month, with partial weeks at both ends', () => {
    const weeks = isoWeeksOf({ start: '2026-11-01', end: '2026-11-30' });
    expect(weeks.map((w) => w.week)).toEqual([
      '2026-W44',
      '2026-W45',
      '2026-W46',
      '2026-W47',
      '2026-W48',
      '2026-W49',
    ]);
    expect(weeks[0]).toMatchObject({ start: '2026-11-01', end: '2026-11-01', daysInRange: 1, partial: true });
    expect(weeks[1]).toMatchObject({ daysInRange: 7, partial: false });
    expect(weeks[5]).toMatchObject({ start: '2026-11-30', end: '2026-11-30', daysInRange: 1, partial: true });
    expect(weeks.reduce((n, w) => n + w.daysInRange, 0)).toBe(30);
  });
});

describe('month periods', () => {
  const now = at('2026-11-22T08:00:00Z');

  it('bounds months, including leap February', () => {
    expect(monthBounds('2026-02')).toEqual({ start: '2026-02-01', end: '2026-02-28' });
    expect(monthBounds('2028-02')).toEqual({ start: '2028-02-01', end: '2028-02-29' });
    expect(previousMonth('2026-01')).toBe('2025-12');
    expect(lastCompleteMonth(now)).toBe('2026-10');
  });

  it('rejects months that are not months', () => {
    expect(() => parseIsoMonth('2026-13')).toThrow(DateInputError);
    expect(() => parseIsoMonth('2026-00')).toThrow(/MM from 01 to 12/);
    expect(() => parseIsoMonth('26-01')).toThrow(/YYYY-MM/);
  });

  it('gives a complete month in full', () => {
    expect(monthPeriod('2026-10', { now })).toEqual({
      month: '2026-10',
      start: '2026-10-01',
      end: '2026-10-31',
      days: 31,
      partial: false,
      clampedStart: false,
      endsEarly: false,
    });
  });

  it('clamps January 2026 at the first day of data and marks it partial', () => {
    const p = monthPeriod('2026-01', { now });
    expect(p).toMatchObject({
      start: '2026-01-14',
      end: '2026-01-31',
      days: 18,
      partial: true,
      clampedStart: true,
    });
    expect(comparisonPeriod(p)).toBeNull();
  });

  it('clamps the comparison month the same way', () => {
    const c = comparisonPeriod(monthPeriod('2026-02', { now }));
    expect(c).toMatchObject({
      month: '2026-01',
      start: '2026-01-14',
      end: '2026-01-31',
      days: 18,
      partial: true,
    });
  });

  it('refuses the current month unless a partial report is asked for', () => {
    expect(() => monthPeriod('2026-11', { now })).toThrow(/not over.*2026-11-21.*2026-10/);
    const p = monthPeriod('2026-11', { now, allowPartial: true });
    expect(p).toMatchObject({
      start: '2026-11-01',
      end: '2026-11-21',
      days: 21,
      partial: true,
      endsEarly: true,
    });
  });

  it('refuses months with no data', () => {
    expect(() => monthPeriod('2025-12', { now })).toThrow(/starts on 2026-01-14/);
    expect(() => monthPeriod('2026-12', { now, allowPartial: true })).toThrow(/no day of this month is over/);
  });

  it('treats the first day of a month as leaving the previous month complete', () => {
    const first = at('2026-12-01T00:00:01Z');
    expect(monthPeriod('2026-11', { now: first }).partial).toBe(false);
  });
});
