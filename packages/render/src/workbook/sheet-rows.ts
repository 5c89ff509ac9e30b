/**
 * The data rows of a sheet as worksheet XML (`<row>` elements), as ExcelJS's streaming writer would
 * write them, its styles and shared strings taken from the workbook's own registries (see
 * {@link SheetRowSink}), so the styles and shared-strings parts stay ExcelJS's: text as a shared
 * string, numbers as they print in JavaScript, booleans as 1 and 0, dates as Excel serial days, and
 * an empty cell written only when its style is not the default one.
 *
 * The XML is ASCII (text is in the shared strings) and is written as bytes into buffers handed to
 * the sheet's part as they fill, once: no string is built per row or per cell. A cell repeating a
 * value of its column (the org id and month of every row, a user's e-mail on each of their
 * languages, a model's name, a small count) reuses the bytes of that cell but for its reference,
 * without converting, styling or looking up its shared string again: each column remembers its last
 * value and up to {@link DISTINCT_VALUES} distinct ones (a column with more, such as e-mails or
 * credits, stops remembering).
 */
import type { CellValue } from 'exceljs';
import { columnLetter } from './cell-refs.ts';
import { cellValue, INERT_TEXT_STYLE, looksLikeFormula } from './cell-values.ts';
import type { WorkbookColumn } from './table-columns.ts';
import type { CellStyle, SheetRowSink } from './xlsx-package.ts';

/** Milliseconds of a day, and the Excel serial day of 1970-01-01 (ExcelJS's `dateToExcel`). */
const DAY_MS = 24 * 3600 * 1000;
const EXCEL_UNIX_EPOCH = 25569;

/** Distinct values a column remembers the cells of; past them, it stops remembering. */
const DISTINCT_VALUES = 256;
/** Bytes handed to the sheet's part at once. */
const CHUNK_BYTES = 64 * 1024;
/** No value seen yet in a column. */
const NONE = Symbol('none');

const ascii = (text: string) => Buffer.from(text, 'latin1');
const ROW_END = ascii('</row>');
const VALUE_END = ascii('</v></c>');

/**
 * A cell as a column remembers it: the bytes after its reference (`"` closing `r`, style, type,
 * value), null for no cell; and whether it holds a value.
 */
interface Cell {
  tail: Uint8Array | null;
  isValue: boolean;
}

/** The cell of a value written as it comes (its shared string's index, or its number's text). */
const DIRECT: Cell = { tail: null, isValue: true };

/** How the current row writes a column's cell: no cell, remembered bytes, a shared string's index, a number. */
enum Out {
  None,
  Tail,
  Shared,
  Number,
}

/**
 * Writes rows of a table's columns in fixed styles as `<row>` elements. A text that looks like a
 * formula takes the inert text style instead of its column's (see cell-values.ts).
 */
export class SheetRows<Row> {
  /** Whether each column has held a value in some row written. */
  readonly filled: boolean[];
  /** `<c r="` and each column's letters. */
  private readonly heads: Uint8Array[];
  /** Each column's style attribute (` s="3"`, or '' for the default style), found at its first cell. */
  private readonly attrs: Array<string | undefined>;
  private inertAttr: string | undefined;
  private readonly rowStart = ascii('<row r="');
  private readonly rowAttrs: Uint8Array;
  /** Per column: the last value read and its cell, and the cells of its distinct values (null: too many). */
  private readonly lastRaw: unknown[];
  private readonly lastCell: Cell[];
  private readonly cells: Array<Map<unknown, Cell> | null>;
  /** The current row's cells, reused from row to row: how each is written, its bytes or index. */
  private readonly outs: Out[];
  private readonly tails: Array<Uint8Array | null>;
  private readonly indexes: number[];
  private readonly texts: string[];
  /** Per column: its empty cell, and the bytes of a number's cell before its text. */
  private readonly emptyCells: Array<Cell | undefined>;
  private readonly numberHeads: Array<Uint8Array | undefined>;
  /** Per column, the bytes of a shared string's cell before its index, by style (column's, inert). */
  private readonly sharedHeads: Array<Uint8Array | undefined>;
  private readonly inertSharedHeads: Array<Uint8Array | undefined>;
  private buffer = Buffer.allocUnsafe(CHUNK_BYTES);
  private at = 0;

  constructor(
    private readonly sink: SheetRowSink,
    private readonly columns: ReadonlyArray<WorkbookColumn<Row>>,
    private readonly styles: ReadonlyArray<CellStyle>,
  ) {
    const none = () => columns.map(() => undefined);
    this.heads = columns.map((_, j) => ascii(`<c r="${columnLetter(j + 1)}`));
    this.attrs = none();
    this.rowAttrs = ascii(`" spans="1:${columns.length}" x14ac:dyDescent="0.25">`);
    this.filled = columns.map(() => false);
    this.lastRaw = columns.map(() => NONE);
    this.lastCell = columns.map(() => ({ tail: null, isValue: false }));
    this.cells = columns.map(() => new Map());
    this.outs = columns.map(() => Out.None);
    this.tails = columns.map(() => null);
    this.indexes = columns.map(() => 0);
    this.texts = columns.map(() => '');
    this.emptyCells = none();
    this.numberHeads = none();
    this.sharedHeads = none();
    this.inertSharedHeads = none();
  }

  /** Writes row `r` holding `source`; nothing when every value is empty, as ExcelJS skips it. */
  row(r: number, source: Row): void {
    const { columns, outs, tails, filled } = this;
    let any = false;
    for (let j = 0; j < columns.length; j++) {
      const raw = columns[j]!.value(source);
      // A value is what it converts to: the same text, number or flag gives the same cell.
      const cell = raw === this.lastRaw[j] ? this.lastCell[j]! : this.cell(j, raw);
      if (cell === DIRECT) {
        // A value this column does not remember: its index or text (set for the row) is written.
        any = true;
        filled[j] = true;
        continue;
      }
      outs[j] = cell.tail === null ? Out.None : Out.Tail;
      tails[j] = cell.tail;
      if (cell.isValue) {
        any = true;
        filled[j] = true;
      }
    }
    if (!any) return;
    this.bytes(this.rowStart);
    this.uint(r);
    this.bytes(this.rowAttrs);
    for (let j = 0; j < outs.length; j++) {
      const out = outs[j];
      if (out === Out.None) continue;
      this.bytes(this.heads[j]!);
      this.uint(r);
      if (out === Out.Tail) this.bytes(tails[j]!);
      else if (out === Out.Shared) {
        this.bytes(this.sharedHead(j, this.indexes[j]! < 0));
        this.uint(Math.abs(this.indexes[j]!) - 1);
        this.bytes(VALUE_END);
      } else {
        this.bytes(this.numberHeads[j]!);
        this.text(this.texts[j]!);
        this.bytes(VALUE_END);
      }
    }
    this.bytes(ROW_END);
  }

  /** Hands the bytes written so far to the sheet's part. */
  flush(): void {
    if (this.at === 0) return;
    this.sink.write(this.buffer.subarray(0, this.at));
    this.buffer = Buffer.allocUnsafe(CHUNK_BYTES);
    this.at = 0;
  }

  /**
   * Column `j`'s cell of the value `raw`: remembered, or made (and remembered when it can be); or
   * {@link DIRECT} for a text or number the column does not remember, whose shared string's index
   * (negative: in the inert style) or number's text is set for the row.
   */
  private cell(j: number, raw: unknown): Cell {
    const primitive = typeof raw !== 'object' || raw === null;
    const known = primitive ? this.cells[j] : null;
    let cell = known?.get(raw);
    if (cell === undefined) {
      const value = cellValue(raw, this.columns[j]!.kind);
      if (value === null || value === undefined) cell = this.emptyCell(j);
      else if (known || typeof value === 'boolean') {
        cell = { tail: ascii(this.tail(j, value)!), isValue: true };
        if (known) {
          if (known.size < DISTINCT_VALUES) known.set(raw, cell);
          else this.cells[j] = null;
        }
      } else if (typeof value === 'string') {
        const inert = looksLikeFormula(value);
        // The style first, then the string: the order ExcelJS registers them in.
        this.sharedHead(j, inert);
        const index = this.sink.sharedString(value) + 1;
        this.indexes[j] = inert ? -index : index;
        this.outs[j] = Out.Shared;
        cell = DIRECT;
      } else if (typeof value === 'number' || value instanceof Date) {
        const number = value instanceof Date ? EXCEL_UNIX_EPOCH + value.getTime() / DAY_MS : value;
        this.numberHead(j, value);
        this.texts[j] = String(number);
        this.outs[j] = Out.Number;
        cell = DIRECT;
      } else cell = { tail: ascii(this.tail(j, value)!), isValue: true };
    }
    if (primitive) {
      this.lastRaw[j] = raw;
      this.lastCell[j] = cell;
    }
    return cell;
  }

  /** Column `j`'s cell without a value: no cell, or an empty one in the column's style. */
  private emptyCell(j: number): Cell {
    let cell = this.emptyCells[j];
    if (cell === undefined) {
      const tail = this.tail(j, null);
      cell = { tail: tail === null ? null : ascii(tail), isValue: false };
      this.emptyCells[j] = cell;
    }
    return cell;
  }

  /** The XML of column `j`'s cell holding `value`, after its reference; null for no cell. */
  private tail(j: number, value: CellValue): string | null {
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

  /** The bytes of column `j`'s number cell before its text (`value` a number or a date: the first one styles the column). */
  private numberHead(j: number, value: number | Date): Uint8Array {
    let head = this.numberHeads[j];
    if (head === undefined) {
      head = ascii(`"${this.styleAttr(j, value)}><v>`);
      this.numberHeads[j] = head;
    }
    return head;
  }

  /** The bytes of column `j`'s shared-string cell before its index, in the inert style or the column's. */
  private sharedHead(j: number, inert: boolean): Uint8Array {
    const heads = inert ? this.inertSharedHeads : this.sharedHeads;
    let head = heads[j];
    if (head === undefined) {
      head = ascii(`"${inert ? this.inertStyleAttr() : this.styleAttr(j, '')} t="s"><v>`);
      heads[j] = head;
    }
    return head;
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

  private bytes(bytes: Uint8Array): void {
    const n = bytes.length;
    if (this.at + n > this.buffer.length) this.flush();
    // Byte by byte: the pieces are a few to a few dozen bytes, where `set`'s call costs more than the copy.
    const { buffer } = this;
    let at = this.at;
    for (let i = 0; i < n; i++) buffer[at++] = bytes[i]!;
    this.at = at;
  }

  /** ASCII text (a number as JavaScript prints it). */
  private text(text: string): void {
    if (this.at + text.length > this.buffer.length) this.flush();
    const { buffer } = this;
    for (let i = 0; i < text.length; i++) buffer[this.at++] = text.charCodeAt(i);
  }

  /** A whole number of at most 15 digits, in decimal. */
  private uint(n: number): void {
    if (this.at + 16 > this.buffer.length) this.flush();
    let digits = 1;
    for (let x = n; x >= 10; x = Math.floor(x / 10)) digits++;
    const { buffer } = this;
    let end = this.at + digits;
    for (let x = n; end > this.at; x = Math.floor(x / 10)) buffer[--end] = 48 + (x % 10);
    this.at += digits;
  }
}

function attribute(styleId: number): string {
  return styleId ? ` s="${styleId}"` : '';
}
