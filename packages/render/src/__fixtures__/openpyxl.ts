/** Reads a workbook back with openpyxl (Debian's python3-openpyxl), an independent reader for tests. */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const SCRIPT = fileURLToPath(new URL('./read_workbook.py', import.meta.url));

/** One cell as openpyxl sees it. */
export interface PyCell {
  value: unknown;
  result: unknown;
  type: string;
  format: string;
  isDate: boolean;
  /** The cell's quotePrefix style (text that is not a formula, as Excel marks it). */
  quotePrefix: boolean;
  /** Python's formatting of a numeric result under the cell's format (null for other formats). */
  text: string | null;
}

/** One sheet as openpyxl sees it. */
export interface PySheet {
  name: string;
  maxRow: number;
  maxColumn: number;
  freeze: string | null;
  autoFilter: string | null;
  /** The sheet's Excel tables: range by table name. */
  tables: Record<string, string>;
  merged: string[];
  widths: Record<string, number>;
  rows: PyCell[][];
}

/** The document properties as openpyxl reads them (dates as ISO text without a zone, in UTC). */
export interface PyProperties {
  title: string | null;
  subject: string | null;
  creator: string | null;
  lastModifiedBy: string | null;
  description: string | null;
  keywords: string | null;
  category: string | null;
  created: string | null;
  modified: string | null;
}

/** Reads `file` with `/usr/bin/python3` and openpyxl: its properties and sheets (first `maxRows` rows of each). */
export function readBookWithOpenpyxl(
  file: string,
  maxRows = 200,
): { properties: PyProperties; sheets: PySheet[] } {
  const out = execFileSync('/usr/bin/python3', [SCRIPT, file, String(maxRows)], {
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  return JSON.parse(out) as { properties: PyProperties; sheets: PySheet[] };
}

/** The sheets of `file` as openpyxl reads them (first `maxRows` rows of each). */
export function readWithOpenpyxl(file: string, maxRows = 200): PySheet[] {
  return readBookWithOpenpyxl(file, maxRows).sheets;
}

/** The sheet named `name`; throws when it is missing. */
export function sheet(sheets: PySheet[], name: string): PySheet {
  const found = sheets.find((s) => s.name === name);
  if (!found) throw new Error(`no sheet ${name} in ${sheets.map((s) => s.name).join(', ')}`);
  return found;
}

/** The data rows of a sheet's (first) table, or of the whole sheet without one: its last row number. */
function lastTableRow(s: PySheet): number {
  const ref = Object.values(s.tables)[0];
  return ref ? Number(/(\d+)$/.exec(ref)![1]) : s.rows.length;
}

/**
 * Rows of a sheet's table as objects keyed by the header row (what is under the table, such as a
 * note, is not a row of it). An empty table's one empty row is no record.
 */
export function records(s: PySheet): Array<Record<string, PyCell>> {
  const [header, ...rows] = s.rows.slice(0, lastTableRow(s));
  const keys = (header ?? []).map((c) => String(c.value));
  return rows
    .filter((r) => r.some((c) => c.value !== null))
    .map((r) => Object.fromEntries(keys.map((k, i) => [k, r[i]!])));
}

/** The text under a sheet's table (a note), or null. */
export function noteUnder(s: PySheet): string | null {
  const below = s.rows.slice(lastTableRow(s)).flat();
  const text = below.find((c) => typeof c.value === 'string');
  return text ? String(text.value) : null;
}
