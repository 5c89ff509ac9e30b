/**
 * Writes one table of the workbook as data sheets through ExcelJS's streaming writer, the data rows
 * as XML (sheet-rows.ts): an Excel table at A1 (one bold header row, frozen), fitted column widths,
 * typed cells with number formats and no merged cells, nothing under the table. A table longer than
 * a sheet continues on numbered sheets (`Users (2)`, ...), each part a table of its own (`tbl_users_2`).
 */
import { setImmediate } from 'node:timers/promises';
import type { SheetColumnKind } from '@orgreport/metrics';
import type ExcelJS from 'exceljs';
import { currencyExcelFormat, EXCEL_DATE_FORMAT, EXCEL_DATETIME_FORMAT, EXCEL_FORMATS } from '../format.ts';
import { cellValue } from './cell-values.ts';
import type { SheetNames } from './sheet-names.ts';
import { SheetRows } from './sheet-rows.ts';
import type { WorkbookColumn } from './table-columns.ts';
import type { TableNames } from './table-names.ts';
import type { CellStyle, XlsxPackage } from './xlsx-package.ts';

/** The most rows an Excel sheet holds, header included. */
export const EXCEL_MAX_ROWS = 1_048_576;

/** One sheet of a table: its sheet and table names and its rows `start` to `end` (exclusive). */
export interface DataSheetPart {
  sheet: string;
  table: string;
  start: number;
  end: number;
}

/** Options of {@link writeDataSheet}. */
export interface DataSheetOptions {
  /** Currency code of `currency` columns. */
  currency?: string;
}

const HEADER_FONT = { bold: true };
// Not 9: ExcelJS leaves out columns of width 9 (its default), and Excel would show them narrower.
const MIN_WIDTH = 10;
const MAX_WIDTH = 60;
/** Rows written between two pauses of the writer (a few milliseconds of work). */
const YIELD_EVERY_ROWS = 500;
/** Rows looked at to fit column widths: enough to be representative, cheap for a million rows. */
const WIDTH_SAMPLE = 2_000;

/** Excel number format of a column kind, or undefined for text and booleans. */
export function numberFormatOf(kind: SheetColumnKind, currency = 'EUR'): string | undefined {
  switch (kind) {
    case 'text':
    case 'boolean':
      return undefined;
    case 'date':
      return EXCEL_DATE_FORMAT;
    case 'datetime':
      return EXCEL_DATETIME_FORMAT;
    case 'currency':
      return currencyExcelFormat(currency);
    default:
      return EXCEL_FORMATS[kind];
  }
}

function displayLength(value: ExcelJS.CellValue, kind: SheetColumnKind): number {
  if (value === null || value === undefined) return 0;
  if (kind === 'date') return 10;
  if (kind === 'datetime') return 16;
  if (typeof value === 'number') {
    // Separators, decimals and the percent sign add a few characters to the digits.
    return String(Math.round(Math.abs(value))).length + 5;
  }
  return String(value).length;
}

function fittedWidths<Row>(columns: ReadonlyArray<WorkbookColumn<Row>>, rows: ReadonlyArray<Row>): number[] {
  const widths = columns.map((c) => c.header.length + 2);
  const step = Math.max(1, Math.floor(rows.length / WIDTH_SAMPLE));
  for (let i = 0; i < rows.length; i += step) {
    const row = rows[i]!;
    columns.forEach((c, j) => {
      const len = displayLength(cellValue(c.value(row), c.kind), c.kind) + 2;
      if (len > widths[j]!) widths[j] = len;
    });
  }
  return widths.map((w) => Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, w)));
}

/**
 * The parts of a table of `rows` rows under `title`, their sheet and table names claimed in order:
 * one, or more when the rows do not fit one sheet. An empty table still has its part.
 */
export function sheetParts(
  title: string,
  rows: number,
  names: { sheets: SheetNames; tables: TableNames },
  maxRowsPerSheet = EXCEL_MAX_ROWS,
): DataSheetPart[] {
  const perSheet = Math.min(maxRowsPerSheet, EXCEL_MAX_ROWS) - 1;
  if (perSheet < 1) throw new RangeError('maxRowsPerSheet must leave room for at least one data row');
  const parts: DataSheetPart[] = [];
  let start = 0;
  do {
    const end = Math.min(rows, start + perSheet);
    const sheet = names.sheets.claim(parts.length === 0 ? title : `${title} (${parts.length + 1})`);
    parts.push({ sheet, table: names.tables.claim(sheet), start, end });
    start = end;
  } while (start < rows);
  return parts;
}

/**
 * Writes `rows` in `columns` onto the sheets of `parts` (see {@link sheetParts}); returns, per
 * column, whether some row has a value in it.
 */
export async function writeDataSheet<Row>(
  xlsx: XlsxPackage,
  parts: ReadonlyArray<DataSheetPart>,
  columns: ReadonlyArray<WorkbookColumn<Row>>,
  rows: ReadonlyArray<Row>,
  options: DataSheetOptions = {},
): Promise<boolean[]> {
  const widths = fittedWidths(columns, rows);
  const formats = columns.map((c) => c.numFmt ?? numberFormatOf(c.kind, options.currency));
  const filled = columns.map(() => false);
  // One style object per column, registered once with ExcelJS (see sheet-rows.ts).
  const styles = formats.map((numFmt): CellStyle => (numFmt ? { numFmt } : {}));
  for (const part of parts) {
    const sheet = xlsx.workbook.addWorksheet(part.sheet, { views: [{ state: 'frozen', ySplit: 1 }] });
    sheet.columns = columns.map((c, j) => ({
      header: c.header,
      key: `c${j}`,
      width: widths[j]!,
      ...(formats[j] ? { style: { numFmt: formats[j] } } : {}),
    }));
    const header = sheet.getRow(1);
    header.font = HEADER_FONT;
    header.commit();
    // The data rows as XML bytes, in chunks, after the header ExcelJS wrote.
    const sink = xlsx.rowSink(sheet);
    const sheetRows = new SheetRows(sink, columns, styles);
    for (let i = part.start; i < part.end; i++) {
      // The rows are written in one go otherwise: a pause now and then lets the rest of the process
      // (Chromium's messages while it prints the PDF) go on meanwhile.
      if ((i - part.start) % YIELD_EVERY_ROWS === YIELD_EVERY_ROWS - 1) await setImmediate();
      sheetRows.row(i - part.start + 2, rows[i]!);
    }
    sheetRows.flush();
    sink.end(part.end - part.start + 2);
    sheetRows.filled.forEach((f, j) => {
      if (f) filled[j] = true;
    });
    const table = { name: part.table, columns: columns.map((c) => c.header), rows: part.end - part.start };
    xlsx.addTable(sheet, table);
    await sheet.commit();
  }
  return filled;
}
