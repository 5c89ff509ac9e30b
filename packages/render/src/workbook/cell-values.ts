/**
 * Values as they go into workbook cells. Text from the data is always a string cell and can never
 * run as a formula: a leading `=`, `+`, `-`, `@`, tab or carriage return gets an apostrophe in front,
 * the prefix Excel and LibreOffice themselves use for "this is text" (and that survives a CSV export).
 */

import { excelPrecision } from '../format.ts';

const FORMULA_TRIGGER = /^[=+\-@\t\r]/;

/** Longest text a cell holds (Excel's limit is 32,767 characters). */
export const MAX_CELL_TEXT = 32_767;

/** True when a spreadsheet would treat the text as the start of a formula. */
export function looksLikeFormula(text: string): boolean {
  return FORMULA_TRIGGER.test(text);
}

/** Makes text from the data inert and short enough for a cell. */
export function inertText(value: unknown): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (looksLikeFormula(text)) text = `'${text}`;
  if (text.length > MAX_CELL_TEXT) text = text.slice(0, MAX_CELL_TEXT - 1) + '…';
  return text;
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
