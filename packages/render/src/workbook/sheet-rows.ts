/**
 * The data rows of a sheet as worksheet XML (`<row>` elements), as ExcelJS's streaming writer would
 * write them, its styles and shared strings taken from the workbook's own registries (see
 * {@link SheetRowSink}), so the styles and shared-strings parts stay ExcelJS's: text as a shared
 * string, numbers as they print in JavaScript, booleans as 1 and 0, dates as Excel serial days, and
 * an empty cell written only when its style is not the default one. The XML is ASCII (text is in the
 * shared strings), which the sink writes as such.
 *
 * Its cost is per cell, so a cell repeating a value of its column (the org id and month of every
 * row, a user's e-mail on each of their languages, a model's name, a small count) reuses that
 * cell's XML but for its reference, without converting, styling or looking up its shared string
 * again: each column remembers the XML of its last value and of up to {@link DISTINCT_VALUES}
 * distinct values (a column with more, such as e-mails or credits, stops remembering).
 */
import type { CellValue } from 'exceljs';
import { columnLetter } from './cell-refs.ts';
import { cellValue, INERT_TEXT_STYLE, looksLikeFormula } from './cell-values.ts';
import type { WorkbookColumn } from './table-columns.ts';
import type { CellStyle, SheetRowSink } from './xlsx-package.ts';

/** Milliseconds of a day, and the Excel serial day of 1970-01-01 (ExcelJS's `dateToExcel`). */
const DAY_MS = 24 * 3600 * 1000;
const EXCEL_UNIX_EPOCH = 25569;

/** No value seen yet in a column. */
const NONE = Symbol('none');

/** Distinct values a column remembers the cells of; past them, it stops remembering. */
const DISTINCT_VALUES = 256;

/** A cell's XML after its reference (`"` closing `r`, style, type, value), or null for no cell. */
type Tail = string | null;

/** A cell as a column remembers it: its XML after the reference, and whether it holds a value. */
interface Cell {
  tail: Tail;
  isValue: boolean;
}

/**
 * Writes rows of a table's columns in fixed styles as `<row>` elements. A text that looks like a
 * formula takes the inert text style instead of its column's (see cell-values.ts).
 */
export class SheetRows<Row> {
  /** Whether each column has held a value in some row written. */
  readonly filled: boolean[];
  private readonly refs: string[];
  /** Each column's style attribute (` s="3"`, or '' for the default style), found at its first cell. */
  private readonly attrs: Array<string | undefined>;
  private inertAttr: string | undefined;
  private readonly rowAttrs: string;
  /** Per column: the last value read and its cell, and the cells of its distinct values (null: too many). */
  private readonly lastRaw: unknown[];
  private readonly lastCell: Cell[];
  private readonly cells: Array<Map<unknown, Cell> | null>;
  /** The current row's tails, reused from row to row. */
  private readonly tails: Tail[];

  constructor(
    private readonly sink: SheetRowSink,
    private readonly columns: ReadonlyArray<WorkbookColumn<Row>>,
    private readonly styles: ReadonlyArray<CellStyle>,
  ) {
    const n = columns.length;
    this.refs = columns.map((_, j) => `<c r="${columnLetter(j + 1)}`);
    this.attrs = columns.map(() => undefined);
    this.rowAttrs = `" spans="1:${n}" x14ac:dyDescent="0.25">`;
    this.filled = columns.map(() => false);
    this.lastRaw = columns.map(() => NONE);
    this.lastCell = columns.map(() => ({ tail: null, isValue: false }));
    this.cells = columns.map(() => new Map());
    this.tails = columns.map(() => null);
  }

  /** Row `r` holding `source` as XML; '' when every value is empty, as ExcelJS skips it. */
  row(r: number, source: Row): string {
    const { columns, tails, lastRaw, lastCell, filled } = this;
    let any = false;
    for (let j = 0; j < columns.length; j++) {
      const raw = columns[j]!.value(source);
      // A value is what it converts to: the same text, number or flag gives the same cell.
      const cell = raw === lastRaw[j] ? lastCell[j]! : this.cell(j, raw);
      tails[j] = cell.tail;
      if (cell.isValue) {
        any = true;
        filled[j] = true;
      }
    }
    if (!any) return '';
    const ref = String(r);
    let xml = `<row r="${ref}${this.rowAttrs}`;
    for (let j = 0; j < tails.length; j++) {
      const tail = tails[j];
      if (tail !== null) xml += this.refs[j]! + ref + tail;
    }
    return `${xml}</row>`;
  }

  /** Column `j`'s cell of the value `raw`: remembered, or made (and remembered when it can be). */
  private cell(j: number, raw: unknown): Cell {
    const primitive = typeof raw !== 'object' || raw === null;
    const known = primitive ? this.cells[j] : null;
    let cell = known?.get(raw);
    if (cell === undefined) {
      const value = cellValue(raw, this.columns[j]!.kind);
      cell = { tail: this.tail(j, value), isValue: value !== null && value !== undefined };
      if (known) {
        if (known.size < DISTINCT_VALUES) known.set(raw, cell);
        else this.cells[j] = null;
      }
    }
    if (primitive) {
      this.lastRaw[j] = raw;
      this.lastCell[j] = cell;
    }
    return cell;
  }

  /** The XML of column `j`'s cell holding `value`, after its reference. */
  private tail(j: number, value: CellValue): Tail {
    if (value === null || value === undefined) {
      const s = this.styleAttr(j, null);
      return s ? `"${s}/>` : null;
    }
    if (typeof value === 'string') {
      const s = looksLikeFormula(value) ? this.inertStyleAttr() : this.styleAttr(j, value);
      return `"${s} t="s"><v>${this.sink.sharedString(value)}</v></c>`;
    }
    if (typeof value === 'number') return `"${this.styleAttr(j, value)}><v>${value}</v></c>`;
    if (typeof value === 'boolean') return `"${this.styleAttr(j, value)} t="b"><v>${value ? 1 : 0}</v></c>`;
    if (value instanceof Date) {
      const serial = EXCEL_UNIX_EPOCH + value.getTime() / DAY_MS;
      return `"${this.styleAttr(j, value)}><v>${serial}</v></c>`;
    }
    throw new TypeError(`a data sheet cell holds text, numbers, booleans and dates (got ${typeof value})`);
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
