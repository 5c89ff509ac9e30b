import { describe, expect, it } from 'vitest';
import {
  cellText,
  cellValue,
  excelDate,
  finiteOrNull,
  looksLikeFormula,
  MAX_CELL_TEXT,
} from './cell-values.ts';

describe('cellText', () => {
  it.each([
    ['=HYPERLINK("http://x","y")'],
    ["+cmd|' /C calc'!A0"],
    ['-2+3'],
    ['@SUM(1+1)'],
    ['\t=1'],
    ['\r=1'],
  ])('keeps %j as it is, which looks like a formula (its cell style makes it inert)', (text) => {
    expect(looksLikeFormula(text)).toBe(true);
    expect(cellText(text)).toBe(text);
  });

  it('leaves ordinary text, emoji and RTL marks alone, and gives no text for null, undefined and ""', () => {
    expect(looksLikeFormula('alice@example.com')).toBe(false);
    expect(cellText('alice@example.com')).toBe('alice@example.com');
    expect(cellText('🚀 a=b')).toBe('🚀 a=b');
    expect(cellText('\u200Fשלום')).toBe('\u200Fשלום');
    expect(cellText(null)).toBeNull();
    expect(cellText(undefined)).toBeNull();
    expect(cellText('')).toBeNull();
    expect(cellValue('', 'text')).toBeNull();
  });

  it('cuts text to the cell limit', () => {
    expect(cellText('x'.repeat(40_000))).toHaveLength(MAX_CELL_TEXT);
  });
});

describe('cell numbers and dates', () => {
  it('turns a UTC day into midnight UTC and rejects non-days', () => {
    expect(excelDate('2026-03-01')?.toISOString()).toBe('2026-03-01T00:00:00.000Z');
    expect(excelDate('March')).toBeNull();
  });

  it('keeps NaN and infinities out of cells', () => {
    expect(finiteOrNull(Number.NaN)).toBeNull();
    expect(finiteOrNull(Number.NEGATIVE_INFINITY)).toBeNull();
    expect(finiteOrNull('3')).toBeNull();
    expect(finiteOrNull(3)).toBe(3);
  });
});
