import { describe, expect, it } from 'vitest';
import { percentileInc } from './totals.ts';

describe('percentileInc (Excel PERCENTILE.INC)', () => {
  it('interpolates between closest ranks', () => {
    // PERCENTILE.INC({1,2,3,4}, 0.5) = 2.5; 0.9 -> position 2.7 -> 3 + 0.7 * 1 = 3.7.
    expect(percentileInc([1, 2, 3, 4], 0.5)).toBe(2.5);
    expect(percentileInc([1, 2, 3, 4], 0.9)).toBeCloseTo(3.7, 12);
    expect(percentileInc([5], 0.9)).toBe(5);
    expect(percentileInc([], 0.5)).toBe(0);
    expect(percentileInc([10, 20, 30], 0.5)).toBe(20);
  });
});
