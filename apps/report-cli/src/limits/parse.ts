/**
 * Credit-limit input files: a CSV with `email` and `limit` columns or a JSON array of `{email, limit}`.
 * Every row is checked and each problem names its row, so one run reports all bad rows at once.
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

export interface ParsedLimits {
  rows: LimitRow[];
  errors: LimitRowError[];
}

const emailSchema = z.email();

/** Checks one raw row; `email`/`limit` may be strings (CSV, spreadsheet) or numbers (JSON). */
function checkRow(row: number, rawEmail: unknown, rawLimit: unknown): LimitRow | LimitRowError {
  const email = typeof rawEmail === 'string' ? rawEmail.trim() : '';
  if (!email) return { row, message: 'email is empty' };
  if (!emailSchema.safeParse(email).success)
    return { row, email, message: `email ${JSON.stringify(email)} is not an e-mail address` };
  const text =
    typeof rawLimit === 'number' ? String(rawLimit) : typeof rawLimit === 'string' ? rawLimit.trim() : '';
  if (text === '') return { row, email, message: 'limit is empty' };
  // Plain decimal numbers only: "1e3", "0x10", "1,000" or "12 credits" are refused rather than guessed.
  if (!/^\d+(\.\d+)?$/.test(text)) {
    return { row, email, message: `limit ${JSON.stringify(text)} is not a non-negative number` };
  }
  const limit = Number(text);
  if (!Number.isFinite(limit)) return { row, email, message: `limit ${JSON.stringify(text)} is too large` };
  return { row, email, limit };
}

/** Checks raw rows and reports duplicates (the later row of an e-mail is refused). */
export function checkLimitRows(raw: Array<{ row: number; email: unknown; limit: unknown }>): ParsedLimits {
  const rows: LimitRow[] = [];
  const errors: LimitRowError[] = [];
  const seen = new Map<string, number>();
  for (const r of raw) {
    const checked = checkRow(r.row, r.email, r.limit);
    if ('message' in checked) {
      errors.push(checked);
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
  return { rows, errors };
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
