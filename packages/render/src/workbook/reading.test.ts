/**
 * The 10,000-user workbook as an independent reader sees it, against the reading kept in
 * `__fixtures__/bench-10k-reading.json`: openpyxl's view of every cell (value, cached result, type,
 * number format, bold, italic, quotePrefix), every table's range and style, the frozen panes, the
 * column widths and the document properties, digested per sheet and per column. A change of the
 * writer that a reader can see fails here, whatever it was made for (speed, refactoring).
 *
 * When the workbook's format changes on purpose, write the new reading and commit it with the
 * change that made it, saying what changed:
 * `ORGREPORT_WRITE_READING=1 pnpm vitest run src/workbook/reading.test.ts` (from packages/render).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { makeFixtureModel } from '../__fixtures__/report-model.ts';
import { writeWorkbook } from './workbook.ts';

const READER = fileURLToPath(new URL('../__fixtures__/workbook_reading.py', import.meta.url));
const KEPT = fileURLToPath(new URL('../__fixtures__/bench-10k-reading.json', import.meta.url));

const scratch = mkdtempSync(join(tmpdir(), 'render-reading-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

interface SheetReading {
  name: string;
  rows: number;
  freeze: string | null;
  tables: Record<string, [string, string | null, boolean | null]>;
  merged: string[];
  widths: Record<string, number>;
  cells: string;
  columns: Record<string, string>;
}

interface Reading {
  properties: Record<string, string | null>;
  sheets: SheetReading[];
}

/** Where two readings differ: each sheet's differing parts, and the columns whose cells differ. */
function differences(kept: Reading, now: Reading): string[] {
  const out: string[] = [];
  if (JSON.stringify(kept.properties) !== JSON.stringify(now.properties)) out.push('document properties');
  const names = (r: Reading) => r.sheets.map((s) => s.name).join(', ');
  if (names(kept) !== names(now)) out.push(`sheets: ${names(kept)} -> ${names(now)}`);
  for (const sheet of now.sheets) {
    const before = kept.sheets.find((s) => s.name === sheet.name);
    if (!before) continue;
    for (const key of ['rows', 'freeze', 'tables', 'merged', 'widths'] as const) {
      if (JSON.stringify(before[key]) !== JSON.stringify(sheet[key])) {
        out.push(`${sheet.name} ${key}: ${JSON.stringify(before[key])} -> ${JSON.stringify(sheet[key])}`);
      }
    }
    const columns = new Set([...Object.keys(before.columns), ...Object.keys(sheet.columns)]);
    const changed = [...columns].filter((c) => before.columns[c] !== sheet.columns[c]);
    if (changed.length > 0) out.push(`${sheet.name} cells of columns ${changed.join(', ')}`);
    else if (before.cells !== sheet.cells) out.push(`${sheet.name} cells (their order)`);
  }
  return out;
}

describe('the 10,000-user workbook as openpyxl reads it', () => {
  it('is the reading kept in __fixtures__/bench-10k-reading.json, cell by cell', async () => {
    const model = makeFixtureModel({ users: 10_000, pricing: { pricePerCredit: 0.0001, currency: 'EUR' } });
    const file = join(scratch, 'bench-10k.xlsx');
    await writeWorkbook(model, file);
    const text = execFileSync('/usr/bin/python3', [READER, file], {
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    const now = JSON.parse(text) as Reading;
    if (process.env.ORGREPORT_WRITE_READING === '1') writeFileSync(KEPT, `${text}\n`);
    const kept = JSON.parse(readFileSync(KEPT, 'utf8')) as Reading;
    // A reading worth comparing: every sheet with its table, the user rows all there.
    expect(now.sheets.length).toBeGreaterThan(15);
    expect(now.sheets.find((s) => s.name === 'Users')?.rows).toBe(model.users.length + 1);
    expect(differences(kept, now)).toEqual([]);
    expect(now).toEqual(kept);
  }, 180_000);
});
