/** A1 references: column letters and ranges of a column on another sheet. */

/** The letters of the n-th column (1 -> A, 27 -> AA). */
export function columnLetter(n: number): string {
  let s = '';
  for (let x = n; x > 0; x = Math.floor((x - 1) / 26)) s = String.fromCharCode(65 + ((x - 1) % 26)) + s;
  return s;
}

/** A sheet's name as a formula writes it: in apostrophes, its own apostrophes doubled. */
export function quoteSheet(name: string): string {
  return `'${name.replace(/'/g, "''")}'`;
}

/** The cells `firstRow` to `lastRow` of a column of another sheet (`'Daily'!E2:E32`). */
export function columnRange(sheet: string, column: number, firstRow: number, lastRow: number): string {
  const letter = columnLetter(column);
  return `${quoteSheet(sheet)}!${letter}${firstRow}:${letter}${lastRow}`;
}
