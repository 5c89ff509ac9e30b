/** Text laid out in columns for a terminal: `query`'s table, `distribute --dry-run`'s plan. */

export interface ColumnOptions {
  /** Columns whose cells are aligned right (numbers), by index. */
  right?: ReadonlyArray<boolean>;
  /** The first row names the columns: aligned left, and underlined by a line of dashes. */
  header?: boolean;
}

/**
 * Each row's cells in columns as wide as their widest cell, two spaces apart, trailing spaces cut,
 * so that a long e-mail address widens its column instead of pushing its row out of line.
 */
export function alignColumns(
  rows: ReadonlyArray<ReadonlyArray<string>>,
  options: ColumnOptions = {},
): string[] {
  const widths: number[] = [];
  for (const row of rows) {
    for (const [i, cell] of row.entries()) widths[i] = Math.max(widths[i] ?? 0, cell.length);
  }
  const line = (row: ReadonlyArray<string>, header: boolean) =>
    row
      .map((cell, i) => (options.right?.[i] && !header ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  if (!options.header || rows.length === 0) return rows.map((r) => line(r, false));
  return [
    line(rows[0]!, true),
    widths.map((w) => '-'.repeat(w)).join('  '),
    ...rows.slice(1).map((r) => line(r, false)),
  ];
}
