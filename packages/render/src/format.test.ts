import { describe, expect, it } from 'vitest';
import {
  currencyExcelFormat,
  EXCEL_FORMATS,
  formatCurrency,
  formatFigure,
  formatFigureChange,
  formatInstant,
  formatPointsBetween,
  formatValue,
  kindOfUnit,
} from './format.ts';

describe('formatValue', () => {
  it('shows integers with thousands separators, rounding half away from zero like Excel', () => {
    expect(formatValue(1234567, 'integer')).toBe('1,234,567');
    expect(formatValue(1234567.5, 'integer')).toBe('1,234,568');
    expect(formatValue(-2.5, 'integer')).toBe('-3');
    expect(formatValue(0, 'integer')).toBe('0');
  });

  it('rounds the value as Excel stores it (15 significant digits), not the binary double', () => {
    // 1.005 is 1.00499999999999989... in binary; Excel shows 1.01 under 0.00.
    expect(formatValue(1.005, 'decimal')).toBe('1.01');
    expect(formatValue(1234.5678, 'decimal')).toBe('1,234.57');
  });

  it('shows shares as percentages with one decimal', () => {
    expect(formatValue(0.1234, 'share')).toBe('12.3%');
    expect(formatValue(0.71875, 'share')).toBe('71.9%');
    expect(formatValue(1, 'share')).toBe('100.0%');
    expect(formatValue(12.345, 'share')).toBe('1,234.5%');
  });

  it('signs changes and deltas, zero without sign', () => {
    expect(formatValue(0.25, 'change')).toBe('+25.0%');
    expect(formatValue(-0.005, 'change')).toBe('-0.5%');
    expect(formatValue(0, 'change')).toBe('0.0%');
    expect(formatValue(3, 'delta')).toBe('+3');
    expect(formatValue(-12, 'delta')).toBe('-12');
    expect(formatValue(0.05, 'deltaDecimal')).toBe('+0.05');
  });

  it('shows differences of shares in percentage points, not as a relative change', () => {
    expect(formatValue(0.7 - 0.65, 'points')).toBe('+5.0 pp');
    expect(formatValue(-0.0125, 'points')).toBe('-1.3 pp');
    expect(formatValue(0, 'points')).toBe('0.0 pp');
    expect(EXCEL_FORMATS.points).toBe('+#,##0.0 "pp";-#,##0.0 "pp";0.0 "pp"');
  });

  it('reads n/a for null, undefined and non-finite values, never 0 or Infinity', () => {
    for (const kind of Object.keys(EXCEL_FORMATS) as Array<keyof typeof EXCEL_FORMATS>) {
      expect(formatValue(null, kind)).toBe('n/a');
      expect(formatValue(undefined, kind)).toBe('n/a');
      expect(formatValue(Number.POSITIVE_INFINITY, kind)).toBe('n/a');
      expect(formatValue(Number.NaN, kind)).toBe('n/a');
    }
  });
});

describe('figures', () => {
  it('formats by unit: credits and counts as integers, ratios with decimals, shares and scores as percent', () => {
    expect(kindOfUnit('credits')).toBe('integer');
    expect(kindOfUnit('tokens')).toBe('integer');
    expect(kindOfUnit('ratio')).toBe('decimal');
    expect(kindOfUnit('score')).toBe('share');
    expect(formatFigure({ value: 1957064, unit: 'credits' })).toBe('1,957,064');
    expect(formatFigure({ value: 0.718, unit: 'share' })).toBe('71.8%');
    expect(formatFigure({ value: 2, unit: 'level' })).toBe('2');
    // The unit decides, whatever the id: a mean has the ratio unit and keeps two decimals.
    expect(formatFigure({ id: 'avg_dau', value: 3, unit: 'ratio' })).toBe('3.00');
    expect(formatFigure({ id: 'avg_dau', value: 3, unit: 'count' })).toBe('3');
    expect(formatFigure({ id: 'peak_dau', value: 3, unit: 'count' })).toBe('3');
    expect(formatFigure({ id: 'credits', value: 2.5, unit: 'ratio' })).toBe('2.50');
    expect(formatFigureChange({ change: null, changeKind: 'relative' })).toBe('n/a');
    expect(formatFigureChange({ change: 0.1111, changeKind: 'relative' })).toBe('\u25B2 +11.1%');
    expect(formatFigureChange({ change: -0.25, changeKind: 'relative' })).toBe('\u25BC -25.0%');
    // Shares move in percentage points (38.8% -> 38.5% is -0.3 pp, not -0.9%); levels by a difference.
    expect(formatFigureChange({ change: 0.385 - 0.388, changeKind: 'points' })).toBe('\u25BC -0.3 pp');
    expect(formatFigureChange({ change: 1, changeKind: 'difference' })).toBe('\u25B2 +1');
    expect(formatFigureChange({ change: 0.0001, changeKind: 'points' })).toBe('0.0 pp');
  });

  it("gives a share's change in points as the difference of the shares shown, so the page adds up", () => {
    // 38.349% shows as 38.3%, 32.251% as 32.3%: the page says -6.0 pp, not the -6.098 pp between them.
    const stickiness = {
      value: 0.32251,
      previous: 0.38349,
      change: 0.32251 - 0.38349,
      changeKind: 'points',
      unit: 'share',
    } as const;
    expect(formatFigure(stickiness)).toBe('32.3%');
    expect(formatFigureChange(stickiness)).toBe('\u25BC -6.0 pp');
    // 34.94% and 38.45% show as 34.9% and 38.5%: +3.6 pp (3.51 between them).
    expect(
      formatFigureChange({
        value: 0.3845,
        previous: 0.3494,
        change: 0.3845 - 0.3494,
        changeKind: 'points',
        unit: 'share',
      }),
    ).toBe('\u25B2 +3.6 pp');
    // Shown alike, no move, whatever the digits after.
    expect(
      formatFigureChange({
        value: 0.32251,
        previous: 0.32299,
        change: -0.00048,
        changeKind: 'points',
        unit: 'share',
      }),
    ).toBe('0.0 pp');
  });
});

describe('formatPointsBetween', () => {
  it('states the change between two shares as the difference of the two as shown', () => {
    // 99.415% shows as 99.4%, 94.56% as 94.6%: the row reads +4.8 pp, not the exact +4.855.
    expect(formatPointsBetween(0.99415, 0.9456)).toBe('+4.8 pp');
    expect(formatValue(0.99415 - 0.9456, 'points')).toBe('+4.9 pp');
    expect(formatPointsBetween(0.5, 0.5)).toBe('0.0 pp');
    expect(formatPointsBetween(0.9, null)).toBe('n/a');
  });
});

describe('currency and instants', () => {
  it('names the currency and keeps format syntax out of the Excel format', () => {
    expect(formatCurrency(1234.5, 'EUR')).toBe('1,234.50 EUR');
    expect(currencyExcelFormat('EUR')).toBe('#,##0.00 "EUR"');
    expect(currencyExcelFormat('"E;0')).toBe('#,##0.00 "E"');
  });

  it('shows instants in UTC to the minute', () => {
    expect(formatInstant('2026-04-01T06:00:59.000Z')).toBe('2026-04-01 06:00 UTC');
    expect(formatInstant('2026-04-01T08:30:00+02:00')).toBe('2026-04-01 06:30 UTC');
  });
});
