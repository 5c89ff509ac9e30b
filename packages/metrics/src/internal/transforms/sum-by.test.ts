import * as aq from 'arquero';
import { describe, expect, it } from 'vitest';
import { columnValues, rowsWhere, sumBy, withRatios } from './sum-by.ts';

describe('sumBy', () => {
  const table = aq.table({
    a: [0, 1, 0, 1, 0],
    b: [5, 5, 6, 5, 5],
    x: [1, 2, 3, null, 10],
  });

  it('sums by composite integer keys in order of first appearance, with a row count', () => {
    expect(sumBy(table, ['a', 'b'], ['x'], 'n').objects()).toEqual([
      { a: 0, b: 5, x: 11, n: 2 },
      { a: 1, b: 5, x: 2, n: 2 }, // null counts as 0
      { a: 0, b: 6, x: 3, n: 1 },
    ]);
  });

  it('respects the table’s filter', () => {
    const filtered = table.filter((d: { x: number | null }) => d.x !== null && d.x < 10);
    expect(sumBy(filtered, ['a'], ['x']).objects()).toEqual([
      { a: 0, x: 4 },
      { a: 1, x: 2 },
    ]);
  });

  it('handles key spaces too large for a dense lookup', () => {
    const wide = aq.table({ k: [0, 3_000_000_000, 0], v: [1, 2, 3] });
    expect(sumBy(wide, ['k'], ['v']).objects()).toEqual([
      { k: 0, v: 4 },
      { k: 3_000_000_000, v: 2 },
    ]);
  });

  it('returns an empty table for no rows', () => {
    expect(
      sumBy(
        table.filter(() => false),
        ['a'],
        ['x'],
      ).numRows(),
    ).toBe(0);
  });

  it('reads columns without copying when the table is not filtered', () => {
    expect(columnValues(table, 'b')).toBe(table.column('b'));
    expect(
      Array.from(
        columnValues(
          table.filter((d: { a: number }) => d.a === 1),
          'x',
        ),
      ),
    ).toEqual([2, null]);
  });

  it('keeps the rows whose value passes a test, within the table’s filter', () => {
    const big = rowsWhere(table, 'b', (v) => v > 5);
    expect(big.objects()).toEqual([{ a: 0, b: 6, x: 3 }]);
    const odd = table.filter((d: { a: number }) => d.a === 1);
    expect(rowsWhere(odd, 'b', (v) => v === 5).objects()).toEqual([
      { a: 1, b: 5, x: 2 },
      { a: 1, b: 5, x: null },
    ]);
    expect(rowsWhere(odd, 'b', (v) => v === 6).numRows()).toBe(0);
  });

  it('gives the autonomy ratio of the rows with user messages', () => {
    const sums = aq.table({ uid: [0, 1, 2], tool_calls: [3, 4, 0], user_messages: [2, 0, 5] });
    expect(withRatios(sums).objects()).toEqual([
      { uid: 0, tool_calls: 3, user_messages: 2, ratio: 1.5 },
      { uid: 2, tool_calls: 0, user_messages: 5, ratio: 0 },
    ]);
  });
});
