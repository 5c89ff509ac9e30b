/**
 * Writes one table of the workbook as a data sheet through ExcelJS's streaming writer: one bold header
 * row, frozen, with an autofilter, fitted column widths, typed cells with number formats and no
 * merged cells. A table longer than a sheet continues on numbered sheets (`Users (2)`, ...).
 */
import type { SheetColumnKind } from '@orgreport/metrics';
import type ExcelJS from 'exceljs';
import {
  currencyExcelFormat,
  EXCEL_DATE_FORMAT,
  EXCEL_DATETIME_FORMAT,
  EXCEL_FORMATS,
  type ValueKind,
} from '../format.ts';
import { excelDate, excelDateTime, excelPoints, finiteOrNull, inertText } from './cell-values.ts';
import type { SheetNames } from './sheet-names.ts';

/** The most rows an Excel sheet holds, header included. */
export const EXCEL_MAX_ROWS = 1_048_576;

/** What a column holds; numeric kinds carry the matching number format (the section API's kinds). */
export type ColumnKind = SheetColumnKind;

/** One column of a data sheet: its header, its kind and how to read its value from a row. */
export interface ColumnSpec<Row> {
  header: string;
  kind: ColumnKind;
  value: (row: Row) => unknown;
}

/** Options of {@link writeDataSheet}. */
export interface DataSheetOptions {
  /** Currency code of `currency` columns. */
  currency?: string;
  /** Rows per sheet including the header (tests lower it; never above {@link EXCEL_MAX_ROWS}). */
  maxRowsPerSheet?: number;
}

const HEADER_FONT = { bold: true };
// Not 9: ExcelJS leaves out columns of width 9 (its default), and Excel would show them narrower.
const MIN_WIDTH = 10;
const MAX_WIDTH = 60;
/** Rows looked at to fit column widths: enough to be representative, cheap for a million rows. */
const WIDTH_SAMPLE = 2_000;

/** Excel number format of a column kind, or undefined for text and booleans. */
export function numberFormatOf(kind: ColumnKind, currency = 'EUR'): string | undefined {
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

/** The value stored in a cell of the given kind (strings made inert, numbers finite, days as dates). */
export function cellValue(raw: unknown, kind: ColumnKind): ExcelJS.CellValue {
  switch (kind) {
    case 'text':
      return inertText(raw);
    case 'date':
      return typeof raw === 'string' ? excelDate(raw) : null;
    case 'datetime':
      return typeof raw === 'string' ? excelDateTime(raw) : null;
    case 'boolean':
      return typeof raw === 'boolean' ? raw : null;
    case 'points': {
      const fraction = finiteOrNull(raw);
      return fraction === null ? null : excelPoints(fraction);
    }
    default:
      return finiteOrNull(raw);
  }
}

function displayLength(value: ExcelJS.CellValue, kind: ColumnKind): number {
  if (value === null || value === undefined) return 0;
  if (kind === 'date') return 10;
  if (kind === 'datetime') return 16;
  if (typeof value === 'number') {
    // Separators, decimals and the percent sign add a few characters to the digits.
    return String(Math.round(Math.abs(value))).length + 5;
  }
  return String(value).length;
}

function fittedWidths<Row>(columns: ReadonlyArray<ColumnSpec<Row>>, rows: ReadonlyArray<Row>): number[] {
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

/** The letters of the n-th column (1 -> A, 27 -> AA). */
export function columnLetter(n: number): string {
  let s = '';
  for (let x = n; x > 0; x = Math.floor((x - 1) / 26)) s = String.fromCharCode(65 + ((x - 1) % 26)) + s;
  return s;
}

/**
 * Writes `rows` under `title` (made valid and unique by `names`) and returns the names of the sheets
 * written: one, or more when the rows do not fit one sheet. An empty table still gets its header.
 */
export async function writeDataSheet<Row>(
  workbook: ExcelJS.stream.xlsx.WorkbookWriter,
  names: SheetNames,
  title: string,
  columns: ReadonlyArray<ColumnSpec<Row>>,
  rows: ReadonlyArray<Row>,
  options: DataSheetOptions = {},
): Promise<string[]> {
  const perSheet = Math.min(options.maxRowsPerSheet ?? EXCEL_MAX_ROWS, EXCEL_MAX_ROWS) - 1;
  if (perSheet < 1) throw new RangeError('maxRowsPerSheet must leave room for at least one data row');
  const widths = fittedWidths(columns, rows);
  const formats = columns.map((c) => numberFormatOf(c.kind, options.currency));
  const written: string[] = [];
  let start = 0;
  do {
    const end = Math.min(rows.length, start + perSheet);
    const base = written.length === 0 ? title : `${title} (${written.length + 1})`;
    const name = names.claim(base);
    const sheet = workbook.addWorksheet(name, { views: [{ state: 'frozen', ySplit: 1 }] });
    sheet.columns = columns.map((c, j) => ({
      header: c.header,
      key: `c${j}`,
      width: widths[j]!,
      ...(formats[j] ? { style: { numFmt: formats[j] } } : {}),
    }));
    const header = sheet.getRow(1);
    header.font = HEADER_FONT;
    header.commit();
    for (let i = start; i < end; i++) {
      const source = rows[i]!;
      const row = sheet.addRow(columns.map((c) => cellValue(c.value(source), c.kind)));
      row.commit();
    }
    sheet.autoFilter = `A1:${columnLetter(columns.length)}${Math.max(1, end - start + 1)}`;
    await sheet.commit();
    written.push(name);
    start = end;
  } while (start < rows.length);
  return written;
}
