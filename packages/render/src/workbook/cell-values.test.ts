import { describe, expect, it } from 'vitest';
import { excelDate, finiteOrNull, inertText, looksLikeFormula, MAX_CELL_TEXT } from './cell-values.ts';

describe('inertText', () => {
  it.each([
    ['=HYPERLINK("http://x","y")'],
    ["+cmd|' /C calc'!A0"],
    ['-2+3'],
    ['@SUM(1+1)'],
    ['\t=1'],
    ['\r=1'],
  ])('prefixes %j with an apostrophe', (text) => {
    expect(looksLikeFormula(text)).toBe(true);
    expect(inertText(text)).toBe(`'${text}`);
  });

  it('leaves ordinary text, emoji and RTL marks alone and empties null', () => {
    expect(inertText('alice@example.com')).toBe('alice@example.com');
    expect(inertText('🚀 a=b')).toBe('🚀 a=b');
    expect(inertText('\u200Fשלום')).toBe('\u200Fשלום');
    expect(inertText(null)).toBe('');
    expect(inertText('')).toBe('');
  });

  it('cuts text to the cell limit', () => {
    expect(inertText('x'.repeat(40_000))).toHaveLength(MAX_CELL_TEXT);
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
