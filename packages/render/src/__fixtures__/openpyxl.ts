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
  merged: string[];
  widths: Record<string, number>;
  rows: PyCell[][];
}

/** Reads `file` with `/usr/bin/python3` and openpyxl (first `maxRows` rows of each sheet). */
export function readWithOpenpyxl(file: string, maxRows = 200): PySheet[] {
  const out = execFileSync('/usr/bin/python3', [SCRIPT, file, String(maxRows)], {
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  return JSON.parse(out) as PySheet[];
}

/** The sheet named `name`; throws when it is missing. */
export function sheet(sheets: PySheet[], name: string): PySheet {
  const found = sheets.find((s) => s.name === name);
  if (!found) throw new Error(`no sheet ${name} in ${sheets.map((s) => s.name).join(', ')}`);
  return found;
}

/** Rows of a sheet as objects keyed by the header row. */
export function records(s: PySheet): Array<Record<string, PyCell>> {
  const [header, ...rows] = s.rows;
  const keys = (header ?? []).map((c) => String(c.value));
  return rows.map((r) => Object.fromEntries(keys.map((k, i) => [k, r[i]!])));
}
