/**
 * Values as they go into workbook cells. Text from the data is stored as it is, always as a string
 * cell; text a spreadsheet would take for a formula (a leading `=`, `+`, `-`, `@`, tab or carriage
 * return) is kept inert by its cell's style, not by changing it: the text format `@` and Excel's
 * quotePrefix (see xlsx-package.ts), what Excel itself sets for text typed after an apostrophe. A
 * blank is an empty cell, never an empty string.
 */
import type { SheetColumnKind } from '@orgreport/metrics';
import type ExcelJS from 'exceljs';
import { excelPrecision } from '../format.ts';

const FORMULA_TRIGGER = /^[=+\-@\t\r]/;

/** Longest text a cell holds (Excel's limit is 32,767 characters). */
export const MAX_CELL_TEXT = 32_767;

/** Excel's text number format; a cell in it is written with the quotePrefix style too. */
export const TEXT_FORMAT = '@';

/** True when a spreadsheet would treat the text as the start of a formula. */
export function looksLikeFormula(text: string): boolean {
  return FORMULA_TRIGGER.test(text);
}

/** Text from the data as a cell holds it, cut to the cell limit; null (an empty cell) for null, undefined and ''. */
export function cellText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  const text = String(value);
  if (text === '') return null;
  return text.length > MAX_CELL_TEXT ? `${text.slice(0, MAX_CELL_TEXT - 1)}…` : text;
}

/**
 * The style of a cell whose text looks like a formula: the text format (and so the quotePrefix
 * style). One object shared by such cells: never change it.
 */
export const INERT_TEXT_STYLE: Partial<ExcelJS.Style> = { numFmt: TEXT_FORMAT };

/** Gives a cell whose text looks like a formula the text format (and so the quotePrefix style). */
export function keepInert(cell: ExcelJS.Cell): void {
  if (typeof cell.value === 'string' && looksLikeFormula(cell.value)) cell.numFmt = TEXT_FORMAT;
}

/** A UTC calendar day (`YYYY-MM-DD`) as the Date ExcelJS stores as an Excel date; null when not a day. */
export function excelDate(day: string | null | undefined): Date | null {
  if (!day || !/^\d{4}-\d{2}-\d{2}/.test(day)) return null;
  const d = new Date(`${day.slice(0, 10)}T00:00:00Z`);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** A finite number or null (an empty cell): NaN and infinities never reach a cell. */
export function finiteOrNull(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/** A difference of shares (0.05) in percentage points (5), rounded off the binary noise of x100. */
export function excelPoints(fraction: number): number {
  return excelPrecision(fraction * 100);
}

/** An ISO 8601 instant as the Date ExcelJS stores as an Excel date-time (UTC); null when not an instant. */
export function excelDateTime(instant: string | null | undefined): Date | null {
  if (!instant) return null;
  const d = new Date(instant);
  return Number.isNaN(d.getTime()) ? null : d;
}

/**
 * An amount of money rounded to the cent, half a cent away from zero (as the chargeback's cents
 * are): the cell holds the amount it shows, so sums over the column add up to what is shown.
 */
export function excelCents(amount: number): number {
  return (Math.sign(amount) * Math.round(excelPrecision(Math.abs(amount) * 100))) / 100;
}

/**
 * The value stored in a cell of the given kind (text as it is, numbers finite, money to the cent,
 * days as dates; null for none).
 */
export function cellValue(raw: unknown, kind: SheetColumnKind): ExcelJS.CellValue {
  switch (kind) {
    case 'text':
      return cellText(raw);
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
    case 'currency': {
      const amount = finiteOrNull(raw);
      return amount === null ? null : excelCents(amount);
    }
    default:
      return finiteOrNull(raw);
  }
}
