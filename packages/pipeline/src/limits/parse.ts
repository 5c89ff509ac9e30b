/**
 * Credit-limit input files: a CSV with `email` and `limit` columns or a JSON array of `{email, limit}`.
 * Every row is checked and each problem names its row, so one run reports all bad rows at once. A
 * row whose limit is empty leaves that user as they are: nothing is sent for it (the API sets limits
 * and has no way to remove one), as `limits template` tells whoever fills it in.
 */
import { z } from 'zod';
import { UsageError } from '../errors.ts';
import { parseCsvTable } from '../input/table-file.ts';

/**
 * A valid row of a limits file. `row` is where it is in the file: the line of a CSV or the row of a
 * spreadsheet (the header is row 1), the 1-based position of a JSON array entry.
 */
export interface LimitRow {
  row: number;
  email: string;
  limit: number;
}

/** A row that cannot be sent, with the reason. */
export interface LimitRowError {
  row: number;
  email?: string;
  message: string;
}

/** A row whose limit is empty: its user is left as they are. */
export interface LimitRowLeft {
  row: number;
  email: string;
}

export interface ParsedLimits {
  rows: LimitRow[];
  /** Rows with an e-mail and no limit: nothing is sent for them. */
  left: LimitRowLeft[];
  errors: LimitRowError[];
}

const emailSchema = z.email();

/** The text of a raw limit: numbers as they print, strings trimmed, anything else (null, none) ''. */
function limitText(rawLimit: unknown): string {
  return typeof rawLimit === 'number'
    ? String(rawLimit)
    : typeof rawLimit === 'string'
      ? rawLimit.trim()
      : '';
}

/**
 * Checks one raw row; `email`/`limit` may be strings (CSV, spreadsheet) or numbers (JSON). The
 * e-mail of a row without a limit is checked too: a mistyped one is worth knowing about.
 */
function checkRow(
  row: number,
  rawEmail: unknown,
  rawLimit: unknown,
): LimitRow | (LimitRowLeft & { left: true }) | LimitRowError {
  const email = typeof rawEmail === 'string' ? rawEmail.trim() : '';
  if (!email) return { row, message: 'email is empty' };
  if (!emailSchema.safeParse(email).success)
    return { row, email, message: `email ${JSON.stringify(email)} is not an e-mail address` };
  const text = limitText(rawLimit);
  if (text === '') return { row, email, left: true };
  // Plain decimal numbers only: "1e3", "0x10", "1,000" or "12 credits" are refused rather than guessed.
  if (!/^\d+(\.\d+)?$/.test(text)) {
    return { row, email, message: `limit ${JSON.stringify(text)} is not a non-negative number` };
  }
  const limit = Number(text);
  if (!Number.isFinite(limit)) return { row, email, message: `limit ${JSON.stringify(text)} is too large` };
  return { row, email, limit };
}

/** An empty cell: an empty or blank text, or null (a JSON entry's missing member is not one). */
const emptyCell = (v: unknown) => v === null || (typeof v === 'string' && v.trim() === '');

/**
 * Checks raw rows and reports duplicates (the later row of an e-mail with a limit is refused); rows
 * whose e-mail and limit cells are both empty are no rows.
 */
export function checkLimitRows(raw: Array<{ row: number; email: unknown; limit: unknown }>): ParsedLimits {
  const rows: LimitRow[] = [];
  const left: LimitRowLeft[] = [];
  const errors: LimitRowError[] = [];
  const seen = new Map<string, number>();
  for (const r of raw) {
    if (emptyCell(r.email) && emptyCell(r.limit)) continue;
    const checked = checkRow(r.row, r.email, r.limit);
    if ('message' in checked) {
      errors.push(checked);
      continue;
    }
    if ('left' in checked) {
      left.push({ row: checked.row, email: checked.email });
      continue;
    }
    const key = checked.email.toLowerCase();
    const first = seen.get(key);
    if (first !== undefined) {
      errors.push({ row: r.row, email: checked.email, message: `duplicate of row ${first}` });
      continue;
    }
    seen.set(key, r.row);
    rows.push(checked);
  }
  return { rows, left, errors };
}

/** Parses a CSV limits file; the header must name `email` and `limit` columns (any order, any case). */
export function parseLimitsCsv(text: string, source: string): ParsedLimits {
  const table = parseCsvTable(text, source);
  const header = table.header.map((h) => h.toLowerCase());
  const emailCol = header.indexOf('email');
  const limitCol = header.indexOf('limit');
  if (emailCol < 0 || limitCol < 0) {
    throw new UsageError(
      `${source}: the first line must name the columns "email" and "limit" (got ${JSON.stringify(table.header)})`,
    );
  }
  return checkLimitRows(
    table.rows.map(({ row, cells }) => ({ row, email: cells[emailCol], limit: cells[limitCol] })),
  );
}

/** Parses a JSON limits file: an array of `{email, limit}` objects. */
export function parseLimitsJson(text: string, source: string): ParsedLimits {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${source}: not valid JSON (${(error as Error).message})`);
  }
  if (!Array.isArray(json))
    throw new UsageError(`${source}: expected a JSON array of {"email", "limit"} objects`);
  return checkLimitRows(
    json.map((item, i) => {
      const o = item && typeof item === 'object' ? (item as Record<string, unknown>) : {};
      return { row: i + 1, email: o.email, limit: o.limit };
    }),
  );
}

/** Parses limits text by the file's extension (`.json`, else CSV). */
export function parseLimitsText(text: string, source: string): ParsedLimits {
  return /\.json$/i.test(source) || /^\s*\[/.test(text)
    ? parseLimitsJson(text, source)
    : parseLimitsCsv(text, source);
}
