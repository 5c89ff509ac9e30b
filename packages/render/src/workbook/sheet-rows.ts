/**
 * The rows of a data sheet as worksheet XML, written here rather than through ExcelJS's row and cell
 * objects: for the 10k-user workbook those cost about six times the time of the strings themselves.
 * The XML is the one ExcelJS writes for the same values and styles (`<row r spans x14ac:dyDescent>`,
 * `<c r s t>`), its styles and shared strings taken from the workbook's own registries (see
 * {@link SheetRowSink}), so the styles and shared-strings parts stay ExcelJS's: text as a shared
 * string, numbers as they print in JavaScript, booleans as 1 and 0, dates as Excel serial days, and
 * an empty cell written only when its style is not the default one.
 */
import type { CellValue } from 'exceljs';
import { columnLetter } from './cell-refs.ts';
import { INERT_TEXT_STYLE, looksLikeFormula } from './cell-values.ts';
import type { CellStyle, SheetRowSink } from './xlsx-package.ts';

/** Milliseconds of a day, and the Excel serial day of 1970-01-01 (ExcelJS's `dateToExcel`). */
const DAY_MS = 24 * 3600 * 1000;
const EXCEL_UNIX_EPOCH = 25569;

/**
 * Writes rows of values in columns of fixed styles as `<row>` elements. A text that looks like a
 * formula takes the inert text style instead of its column's (see cell-values.ts).
 */
export class SheetRows {
  private readonly letters: string[];
  /** Each column's style attribute (` s="3"`, or '' for the default style), found at its first cell. */
  private readonly attrs: Array<string | undefined>;
  private inertAttr: string | undefined;
  private readonly spans: string;

  constructor(
    private readonly sink: SheetRowSink,
    private readonly styles: ReadonlyArray<CellStyle>,
  ) {
    this.letters = styles.map((_, j) => columnLetter(j + 1));
    this.attrs = styles.map(() => undefined);
    this.spans = `1:${styles.length}`;
  }

  /** Row `r` holding `values` (one per column) as XML; '' when every value is empty, as ExcelJS skips it. */
  row(r: number, values: ReadonlyArray<CellValue>): string {
    let cells = '';
    let filled = false;
    for (let j = 0; j < values.length; j++) {
      const value = values[j];
      const ref = this.letters[j]! + r;
      if (value === null || value === undefined) {
        const s = this.styleAttr(j, null);
        if (s) cells += `<c r="${ref}"${s}/>`;
        continue;
      }
      filled = true;
      if (typeof value === 'string') {
        const s = looksLikeFormula(value) ? this.inertStyleAttr() : this.styleAttr(j, value);
        cells += `<c r="${ref}"${s} t="s"><v>${this.sink.sharedString(value)}</v></c>`;
      } else if (typeof value === 'number') {
        cells += `<c r="${ref}"${this.styleAttr(j, value)}><v>${value}</v></c>`;
      } else if (typeof value === 'boolean') {
        cells += `<c r="${ref}"${this.styleAttr(j, value)} t="b"><v>${value ? 1 : 0}</v></c>`;
      } else if (value instanceof Date) {
        const serial = EXCEL_UNIX_EPOCH + value.getTime() / DAY_MS;
        cells += `<c r="${ref}"${this.styleAttr(j, value)}><v>${serial}</v></c>`;
      } else {
        throw new TypeError(
          `a data sheet cell holds text, numbers, booleans and dates (got ${typeof value})`,
        );
      }
    }
    return filled ? `<row r="${r}" spans="${this.spans}" x14ac:dyDescent="0.25">${cells}</row>` : '';
  }

  /**
   * A column's style attribute. ExcelJS registers a style object once, with the type of the first
   * value it styles (a style without a number format is `General` for numbers and empty cells), and
   * gives every later cell of the same object that id: so does this, column by column.
   */
  private styleAttr(j: number, value: CellValue): string {
    let attr = this.attrs[j];
    if (attr === undefined) {
      attr = attribute(this.sink.styleId(this.styles[j]!, value));
      this.attrs[j] = attr;
    }
    return attr;
  }

  private inertStyleAttr(): string {
    this.inertAttr ??= attribute(this.sink.styleId(INERT_TEXT_STYLE, ''));
    return this.inertAttr;
  }
}

function attribute(styleId: number): string {
  return styleId ? ` s="${styleId}"` : '';
}
