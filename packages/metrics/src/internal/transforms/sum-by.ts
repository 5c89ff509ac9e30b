/**
 * `sumBy`: a grouped sum over integer-coded key columns, the hot path of the per-user-day work.
 * arquero's `groupby().rollup()` keeps a state object per group and aggregate, which on a 10k-user
 * month (hundreds of thousands of groups) spends most of its time collecting garbage; this verb
 * reads the table's columns and filter directly and accumulates into typed arrays.
 */

import type { ColumnTable } from 'arquero';
import * as aq from 'arquero';
import { BitSet } from 'arquero';

/**
 * Key spaces up to this size, or up to {@link DENSE_PER_ROW} slots a row, are looked up through an
 * array rather than a Map: a sparse space (users by set of languages) would spend more on filling
 * and missing the cache of a large array than the Map costs.
 */
const DENSE_MIN = 1 << 16;
const DENSE_PER_ROW = 8;

/**
 * A column's values in row order: the column itself when the table is neither filtered nor
 * ordered (no copy), else the values of its rows.
 *
 * @example
 * columnValues(table, 'uid')[0]
 */
export function columnValues(table: ColumnTable, name: string): ArrayLike<unknown> {
  if (!table.isFiltered() && !table.isOrdered()) return table.column(name) as unknown as ArrayLike<unknown>;
  return table.array(name) as ArrayLike<unknown>;
}

/**
 * The rows of `table` (its filter respected) whose value of `column` passes `test`: the filter's
 * bits set straight from the column, where an arquero expression would be parsed, compiled and
 * called through a column accessor per row.
 *
 * @example
 * rowsWhere(weekLevels, 'active_days', (v) => v > 0) // the rows with active days
 */
export function rowsWhere(table: ColumnTable, column: string, test: (value: number) => boolean): ColumnTable {
  const values = table.column(column) as unknown as ArrayLike<number>;
  const n = table.totalRows();
  const filter = new BitSet(n);
  for (let i = 0; i < n; i++) if (test(values[i]!)) filter.set(i);
  const mask = table.mask();
  return table.create({ filter: mask ? filter.and(mask) : filter });
}

/**
 * The autonomy ratio (tool calls / user messages) of each row of `sums` with user messages, as a
 * table of those rows with a `ratio` column.
 *
 * @example
 * withRatios(sumBy(rows, ['uid'], ['tool_calls', 'user_messages']))
 */
export function withRatios(sums: ColumnTable): ColumnTable {
  // The ratio is computed on every row of the columns (those without user messages are then
  // left out by the filter), so that no column is copied.
  const all = sums.isFiltered() || sums.isOrdered() ? sums.reify() : sums;
  const calls = all.column('tool_calls') as unknown as ArrayLike<number>;
  const messages = all.column('user_messages') as unknown as ArrayLike<number>;
  const ratio = new Float64Array(all.numRows());
  for (let i = 0; i < ratio.length; i++) ratio[i] = calls[i]! / messages[i]!;
  return rowsWhere(all.assign({ ratio }), 'user_messages', (v) => v > 0);
}

/** `column`'s values at `rows` added to their group's sum (one loop per kind of column, see {@link addInto}). */
function addFloat64(
  acc: Float64Array,
  group: Int32Array,
  column: Float64Array,
  rows: ArrayLike<number>,
): void {
  for (let r = 0; r < rows.length; r++) {
    const g = group[r]!;
    acc[g] = acc[g]! + column[rows[r]!]!;
  }
}

function addInt32(acc: Float64Array, group: Int32Array, column: Int32Array, rows: ArrayLike<number>): void {
  for (let r = 0; r < rows.length; r++) {
    const g = group[r]!;
    acc[g] = acc[g]! + column[rows[r]!]!;
  }
}

function addUint8(acc: Float64Array, group: Int32Array, column: Uint8Array, rows: ArrayLike<number>): void {
  for (let r = 0; r < rows.length; r++) {
    const g = group[r]!;
    acc[g] = acc[g]! + column[rows[r]!]!;
  }
}

/** The same for a plain-array column (the snapshot's): null and undefined add nothing. */
function addValues(
  acc: Float64Array,
  group: Int32Array,
  column: ArrayLike<unknown>,
  rows: ArrayLike<number>,
): void {
  for (let r = 0; r < rows.length; r++) {
    const v = column[rows[r]!];
    if (v != null) acc[group[r]!] = acc[group[r]!]! + (v as number);
  }
}

/**
 * Adds `column`'s values at `rows` to the sums of their groups. One loop per kind of column (the
 * encoding's typed arrays, the snapshot's plain arrays): a loop that only ever sees one kind of
 * array stays fast, where a single loop over every kind is slowed down by all of them.
 */
function addInto(acc: Float64Array, group: Int32Array, column: unknown, rows: ArrayLike<number>): void {
  if (column instanceof Float64Array) addFloat64(acc, group, column, rows);
  else if (column instanceof Int32Array) addInt32(acc, group, column, rows);
  else if (column instanceof Uint8Array) addUint8(acc, group, column, rows);
  else addValues(acc, group, column as ArrayLike<unknown>, rows);
}

/** The values of a key column at `rows` as numbers (null and undefined as 0). */
function keysAt(column: unknown, rows: ArrayLike<number>): Float64Array {
  const out = new Float64Array(rows.length);
  if (column instanceof Int32Array) {
    for (let r = 0; r < rows.length; r++) out[r] = column[rows[r]!]!;
    return out;
  }
  if (column instanceof Float64Array) {
    for (let r = 0; r < rows.length; r++) out[r] = column[rows[r]!]!;
    return out;
  }
  const values = column as ArrayLike<unknown>;
  for (let r = 0; r < rows.length; r++) out[r] = Number(values[rows[r]!] ?? 0);
  return out;
}

/**
 * Groups the table's rows (its filter respected) by integer key columns and sums the `sums`
 * columns per group (null counts as 0); `count` names an optional column with the number of rows
 * of each group. Groups come out in order of first appearance.
 *
 * @example
 * sumBy(rows, ['uid'], ['tool_calls', 'user_messages'], 'days') // table of uid, tool_calls, user_messages, days
 */
export function sumBy(
  table: ColumnTable,
  keys: readonly string[],
  sums: readonly string[],
  count?: string,
): ColumnTable {
  const rows = table.indices();
  const n = rows.length;
  const keyValues = keys.map((k) => keysAt(table.column(k), rows));
  // Mixed-radix composite key over each key column's range of values, built one column at a time.
  const composite = new Float64Array(n);
  let space = 1;
  for (const values of keyValues) {
    let min = Number.POSITIVE_INFINITY;
    let max = Number.NEGATIVE_INFINITY;
    for (let r = 0; r < n; r++) {
      const v = values[r]!;
      if (v < min) min = v;
      if (v > max) max = v;
    }
    if (n === 0) min = max = 0;
    const radix = max - min + 1;
    for (let r = 0; r < n; r++) composite[r] = composite[r]! * radix + (values[r]! - min);
    space *= radix;
  }
  const group = new Int32Array(n);
  // The position (in `rows`) of each group's first row.
  const first: number[] = [];
  if (space <= Math.max(DENSE_MIN, DENSE_PER_ROW * n)) {
    const dense = new Int32Array(space).fill(-1);
    for (let r = 0; r < n; r++) {
      const key = composite[r]!;
      let g = dense[key]!;
      if (g < 0) {
        g = first.length;
        dense[key] = g;
        first.push(r);
      }
      group[r] = g;
    }
  } else {
    const ids = new Map<number, number>();
    for (let r = 0; r < n; r++) {
      const key = composite[r]!;
      let g = ids.get(key);
      if (g === undefined) {
        g = first.length;
        ids.set(key, g);
        first.push(r);
      }
      group[r] = g;
    }
  }
  const groups = first.length;
  const out: Record<string, ArrayLike<number>> = {};
  keys.forEach((k, c) => {
    const values = new Float64Array(groups);
    const all = keyValues[c]!;
    for (let g = 0; g < groups; g++) values[g] = all[first[g]!]!;
    out[k] = values;
  });
  for (const name of sums) {
    const acc = new Float64Array(groups);
    addInto(acc, group, table.column(name), rows);
    out[name] = acc;
  }
  if (count) {
    const acc = new Float64Array(groups);
    for (let r = 0; r < n; r++) acc[group[r]!] = acc[group[r]!]! + 1;
    out[count] = acc;
  }
  return aq.table(out);
}
