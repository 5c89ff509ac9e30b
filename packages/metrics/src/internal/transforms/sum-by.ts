/**
 * `sumBy`: a grouped sum over integer-coded key columns, the hot path of the per-user-day work.
 * arquero's `groupby().rollup()` keeps a state object per group and aggregate, which on a 10k-user
 * month (hundreds of thousands of groups) spends most of its time collecting garbage; this verb
 * reads the table's columns and filter directly and accumulates into typed arrays.
 */

import type { ColumnTable } from 'arquero';
import * as aq from 'arquero';

type NumberColumn = ArrayLike<number | null | undefined>;

/** Largest dense key space looked up through an array rather than a Map. */
const DENSE_LIMIT = 1 << 23;

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
  const keyCols = keys.map((k) => table.column(k) as unknown as NumberColumn);
  // Mixed-radix composite key over each key column's range of values, built one column at a time
  // (each loop reads a single column type, which keeps it fast).
  const composite = new Float64Array(n);
  let space = 1;
  for (const col of keyCols) {
    let min = Number.POSITIVE_INFINITY;
    let max = Number.NEGATIVE_INFINITY;
    for (let r = 0; r < n; r++) {
      const v = Number(col[rows[r]!] ?? 0);
      if (v < min) min = v;
      if (v > max) max = v;
    }
    if (n === 0) min = max = 0;
    const radix = max - min + 1;
    for (let r = 0; r < n; r++) composite[r] = composite[r]! * radix + (Number(col[rows[r]!] ?? 0) - min);
    space *= radix;
  }
  const group = new Int32Array(n);
  const firstRow: number[] = [];
  if (space <= DENSE_LIMIT) {
    const dense = new Int32Array(space).fill(-1);
    for (let r = 0; r < n; r++) {
      const key = composite[r]!;
      let g = dense[key]!;
      if (g < 0) {
        g = firstRow.length;
        dense[key] = g;
        firstRow.push(rows[r]!);
      }
      group[r] = g;
    }
  } else {
    const ids = new Map<number, number>();
    for (let r = 0; r < n; r++) {
      const key = composite[r]!;
      let g = ids.get(key);
      if (g === undefined) {
        g = firstRow.length;
        ids.set(key, g);
        firstRow.push(rows[r]!);
      }
      group[r] = g;
    }
  }
  const groups = firstRow.length;
  const out: Record<string, ArrayLike<number>> = {};
  keys.forEach((k, c) => {
    const values = new Float64Array(groups);
    for (let g = 0; g < groups; g++) values[g] = Number(keyCols[c]![firstRow[g]!] ?? 0);
    out[k] = values;
  });
  for (const name of sums) {
    const col = table.column(name) as unknown as NumberColumn;
    const acc = new Float64Array(groups);
    for (let r = 0; r < n; r++) {
      const v = col[rows[r]!];
      if (v != null) acc[group[r]!] = acc[group[r]!]! + v;
    }
    out[name] = acc;
  }
  if (count) {
    const acc = new Float64Array(groups);
    for (let r = 0; r < n; r++) acc[group[r]!] = acc[group[r]!]! + 1;
    out[count] = acc;
  }
  return aq.table(out);
}
