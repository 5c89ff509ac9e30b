import { describe, expect, it } from 'vitest';
import { MAX_SHEET_NAME_LENGTH, SheetNames, validSheetName } from './sheet-names.ts';

describe('validSheetName', () => {
  it('replaces forbidden characters and trims apostrophes at either end', () => {
    expect(validSheetName('a:b\\c/d?e*f[g]h')).toBe('a b c d e f g h');
    expect(validSheetName("'quoted'")).toBe('quoted');
  });

  it('keeps names within 31 characters without splitting surrogate pairs', () => {
    const name = validSheetName(`${'x'.repeat(30)}🚀🚀`);
    expect(Array.from(name)).toHaveLength(MAX_SHEET_NAME_LENGTH);
    expect(name.endsWith('🚀')).toBe(true);
  });

  it('never returns an empty or reserved name', () => {
    expect(validSheetName('')).toBe('Sheet');
    expect(validSheetName('[]')).toBe('Sheet');
    expect(validSheetName('History')).not.toBe('History');
  });
});

describe('SheetNames', () => {
  it('numbers repeated names, ignoring letter case, and stays within the length limit', () => {
    const names = new SheetNames();
    expect(names.claim('Users')).toBe('Users');
    expect(names.claim('users')).toBe('users (2)');
    expect(names.claim('Users')).toBe('Users (3)');
    const long = 'L'.repeat(40);
    expect(names.claim(long)).toBe('L'.repeat(31));
    const second = names.claim(long);
    expect(second).toBe(`${'L'.repeat(27)} (2)`);
    expect(second.length).toBeLessThanOrEqual(31);
  });
});
