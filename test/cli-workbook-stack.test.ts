/**
 * Issues 16 and 31, workbooks that stack: the demo's workbooks of three months, and two cost-center
 * owners' workbooks of the demo plan, read back by an independent reader (openpyxl) through their
 * Excel tables and stacked as finance does (Power Query's append, by table name): the same sheets,
 * tables and columns in every workbook, each column of one type, nothing outside the tables, money
 * to the cent; the stacked tables add up to their parts, and the months' pivot to each month's own
 * Summary totals and JSON model figures.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli, tempDir } from './helpers.ts';

const MONTHS = ['2026-08', '2026-09', '2026-10'];
/** Two cost centers of the demo directory whose workbooks had different columns before issue 31. */
const COST_CENTERS = ['cc-100-engineering', 'cc-400-operations'];
const PLAN = fileURLToPath(new URL('../examples/distribution/plan.yaml', import.meta.url));

/**
 * Reads every workbook: per sheet its extent and its tables, each with its range, header, rows
 * (dates tagged as {"date": iso}) and the number formats of its cells.
 */
const READ = `
import datetime, json, sys, openpyxl
from openpyxl.utils.cell import range_boundaries

def plain(v):
    return {"date": v.isoformat()} if isinstance(v, (datetime.date, datetime.datetime)) else v

books = []
for path in sys.argv[1:]:
    wb = openpyxl.load_workbook(path, data_only=True)
    sheets = []
    for ws in wb.worksheets:
        tables = []
        for name, ref in ws.tables.items():
            min_col, min_row, max_col, max_row = range_boundaries(ref)
            cells = list(ws.iter_rows(min_row=min_row, max_row=max_row, min_col=min_col, max_col=max_col))
            rows = [[plain(c.value) for c in r] for r in cells[1:] if any(c.value is not None for c in r)]
            formats = [[c.number_format for c in r] for r in cells[1:]]
            tables.append({"name": name, "ref": ref, "lastRow": max_row, "lastColumn": max_col,
                           "header": [c.value for c in cells[0]], "rows": rows, "formats": formats})
        sheets.append({"name": ws.title, "maxRow": ws.max_row, "maxColumn": ws.max_column, "tables": tables})
    books.append(sheets)
print(json.dumps(books))
`;

type Value = string | number | boolean | null | { date: string };

interface Table {
  name: string;
  ref: string;
  lastRow: number;
  lastColumn: number;
  header: string[];
  rows: Value[][];
  formats: string[][];
}

interface Sheet {
  name: string;
  maxRow: number;
  maxColumn: number;
  tables: Table[];
}

interface Model {
  organization: { id: string };
  period: { month: string };
  figures: Array<{ id: string; value: number | null }>;
}

function readBooks(files: string[]): Sheet[][] {
  return JSON.parse(
    execFileSync('/usr/bin/python3', ['-c', READ, ...files], {
      encoding: 'utf8',
      maxBuffer: 256 * 1024 * 1024,
    }),
  ) as Sheet[][];
}

/** The type a stacked column takes in Power Query: date, number, text or logical; null for none. */
function typeOf(value: Value): string | null {
  if (value === null) return null;
  if (typeof value === 'object') return 'date';
  return typeof value;
}

/** Each table's rows as objects keyed by its header, the tables of all books appended by table name. */
function stack(books: Sheet[][]): Map<string, Array<Record<string, Value>>> {
  const stacked = new Map<string, Array<Record<string, Value>>>();
  for (const book of books) {
    for (const table of book.flatMap((s) => s.tables)) {
      const rows = table.rows.map((r) => Object.fromEntries(table.header.map((h, i) => [h, r[i]!])));
      stacked.set(table.name, [...(stacked.get(table.name) ?? []), ...rows]);
    }
  }
  return stacked;
}

/** Sums of every numeric column of `rows`, and their count. */
function sums(rows: Array<Record<string, Value>>): Record<string, number> {
  const out: Record<string, number> = { rows: rows.length };
  for (const row of rows) {
    for (const [key, value] of Object.entries(row)) {
      if (typeof value === 'number') out[key] = (out[key] ?? 0) + value;
    }
  }
  return out;
}

/**
 * What every stack must hold, whatever its workbooks: checks of `books` for one org id, the month of
 * each book and the scope of each (`organization`, `cost-center:<name>`).
 */
function checkStacks(books: Sheet[][], org: string, months: string[], scopes: string[]): void {
  // The same sheets, tables and columns in every workbook.
  const shape = (book: Sheet[]) =>
    book.map((s) => ({ sheet: s.name, tables: s.tables.map((t) => ({ name: t.name, header: t.header })) }));
  for (const book of books.slice(1)) expect(shape(book)).toEqual(shape(books[0]!));

  let money = 0;
  for (const [b, book] of books.entries()) {
    for (const sheet of book) {
      // One table per sheet at A1, and nothing beside or under it (notes are on the Notes sheet).
      expect(sheet.tables, sheet.name).toHaveLength(1);
      const table = sheet.tables[0]!;
      expect(table.ref.startsWith('A1:'), sheet.name).toBe(true);
      expect([sheet.maxRow, sheet.maxColumn], sheet.name).toEqual([table.lastRow, table.lastColumn]);
      // Every sheet, Summary, Rates and Notes included, keyed by org_id, the month's first day and
      // the report's scope.
      expect(table.header.slice(0, 3), sheet.name).toEqual(['org_id', 'month', 'scope']);
      for (const row of table.rows) {
        expect(row[0], sheet.name).toBe(org);
        expect(row[1], sheet.name).toEqual({ date: `${months[b]}-01T00:00:00` });
        expect(row[2], sheet.name).toBe(scopes[b]);
      }
      // Money to the cent: every cell shown in a currency holds whole cents.
      for (const [r, formats] of table.formats.entries()) {
        for (const [c, format] of formats.entries()) {
          const value = table.rows[r]?.[c];
          if (!/"[A-Z]{3}"/.test(format) || typeof value !== 'number') continue;
          money++;
          expect(Math.round(value * 100) / 100, `${sheet.name} ${table.header[c]}`).toBe(value);
        }
      }
    }
  }
  expect(money).toBeGreaterThan(0);

  // Each column of a stacked table holds one type of value, in every workbook.
  const types = new Map<string, Set<string>>();
  for (const table of books.flatMap((book) => book.flatMap((s) => s.tables))) {
    table.header.forEach((header, c) => {
      const key = `${table.name}.${header}`;
      const seen = types.get(key) ?? new Set<string>();
      for (const row of table.rows) {
        const type = typeOf(row[c]!);
        if (type) seen.add(type);
      }
      types.set(key, seen);
    });
  }
  const mixed = [...types].filter(([, seen]) => seen.size > 1).map(([key, seen]) => `${key}: ${[...seen]}`);
  expect(mixed).toEqual([]);
  expect(types.get('tbl_definitions.month')).toEqual(new Set(['date']));
  expect(types.get('tbl_definitions.scope')).toEqual(new Set(['string']));

  // The stacked tables add up to their parts, column by column.
  const stacked = stack(books);
  for (const [name, rows] of stacked) {
    const parts = books.map((book) => stack([book]).get(name) ?? []);
    const added: Record<string, number> = {};
    for (const part of parts) {
      for (const [key, value] of Object.entries(sums(part))) added[key] = (added[key] ?? 0) + value;
    }
    const whole = sums(rows);
    expect(Object.keys(whole).sort(), name).toEqual(Object.keys(added).sort());
    for (const key of Object.keys(whole)) {
      // Equal but for the order floating-point additions are made in.
      const tolerance = 1e-12 * Math.max(1, Math.abs(added[key]!));
      expect(Math.abs(whole[key]! - added[key]!), `${name}.${key}`).toBeLessThanOrEqual(tolerance);
    }
  }
}

/** The only rule of the demo plan that gives each cost-center owner their workbook. */
function costCenterPlan(dir: string): string {
  const text = readFileSync(PLAN, 'utf8');
  const [head, ...rules] = text.split(/\n(?= {2}- )/);
  const costCenter = rules.filter((r) => /^ {2}- each: cost-center\b/m.test(r));
  expect(costCenter).toHaveLength(1);
  const file = join(dir, 'plan.yaml');
  writeFileSync(file, `${head}\n${costCenter[0]}\n`);
  return file;
}

describe('the workbooks of three months stack into one pivot', () => {
  let books: Sheet[][];
  const models = new Map<string, Model>();

  beforeAll(async () => {
    const files: string[] = [];
    for (const month of MONTHS) {
      const out = tempDir();
      const run = await cli([
        'monthly',
        '--demo',
        '--month',
        month,
        '--formats',
        'xlsx,json',
        '--out',
        out,
        '-q',
      ]);
      expect(run.code, run.err).toBe(0);
      const base = join(
        out,
        readdirSync(out)
          .find((f) => f.endsWith('.xlsx'))!
          .replace(/\.xlsx$/, ''),
      );
      files.push(`${base}.xlsx`);
      models.set(month, JSON.parse(readFileSync(`${base}.json`, 'utf8')) as Model);
    }
    books = readBooks(files);
  }, 180_000);

  it('has the same sheets, tables and columns every month, keyed, typed and in cents alike, adding up', () => {
    expect(books[0]!.map((s) => s.tables[0]?.name)).toEqual([
      'tbl_summary',
      // The demo has no store and is no rollup: empty, but there, as every month.
      'tbl_organizations',
      'tbl_trend',
      'tbl_daily',
      'tbl_weekly',
      'tbl_users',
      'tbl_user_languages',
      'tbl_dormant_seats',
      'tbl_models',
      'tbl_tools',
      'tbl_mcp_spellings',
      'tbl_readiness',
      'tbl_criteria',
      // The demo organization comes with its people directory: teams and chargeback.
      'tbl_teams',
      'tbl_chargeback',
      'tbl_controls',
      'tbl_definitions',
      'tbl_data_quality',
      'tbl_data_quality_details',
      'tbl_rates',
      'tbl_notes',
    ]);
    checkStacks(
      books,
      models.get('2026-10')!.organization.id,
      MONTHS,
      MONTHS.map(() => 'organization'),
    );
  });

  it('states the prices the money is computed at on the Rates sheet', () => {
    const rates = stack(books).get('tbl_rates')!;
    expect(rates.map((r) => [r.rate, r.price, r.currency])).toEqual(
      MONTHS.flatMap(() => [
        ['price_per_credit', 0.000004, 'USD'],
        ['price_per_seat', 19, 'USD'],
      ]),
    );
  });

  it('pivots the stacked Daily and Users tables by month to each month’s Summary and JSON figures', () => {
    const stacked = stack(books);
    const byMonth = (table: string, fields: string[]) => {
      const out = new Map<string, Record<string, number>>();
      for (const row of stacked.get(table)!) {
        const month = (row.month as { date: string }).date.slice(0, 7);
        const s = out.get(month) ?? { rows: 0, ...Object.fromEntries(fields.map((f) => [f, 0])) };
        s.rows! += 1;
        for (const f of fields) s[f]! += row[f] as number;
        out.set(month, s);
      }
      return out;
    };
    const summed = ['credits', 'tool_calls', 'sessions', 'messages'];
    const daily = byMonth('tbl_daily', summed);
    const users = byMonth('tbl_users', ['credits', 'tool_calls', 'sessions']);
    const summaries = byMonth('tbl_summary', []);
    expect([...daily.keys()]).toEqual(MONTHS);
    expect([...summaries.keys()]).toEqual(MONTHS);
    MONTHS.forEach((month, i) => {
      const table = books[i]!.find((s) => s.name === 'Summary')!.tables[0]!;
      const [id, value] = [table.header.indexOf('id'), table.header.indexOf('value')];
      const summary = new Map(table.rows.map((r) => [r[id], r[value]]));
      const figures = new Map(models.get(month)!.figures.map((f) => [f.id, f.value]));
      expect(models.get(month)!.period.month).toBe(month);
      expect(daily.get(month)!.rows, month).toBe(month === '2026-09' ? 30 : 31);
      for (const id of summed) {
        expect(daily.get(month)![id], `${month} ${id}`).toBe(summary.get(id));
        expect(daily.get(month)![id], `${month} ${id}`).toBe(figures.get(id));
      }
      // One Users row per active user; their credits add up to the month's.
      expect(users.get(month)!.rows, month).toBe(figures.get('active_users'));
      expect(users.get(month)!.rows, month).toBe(summary.get('active_users'));
      expect(users.get(month)!.credits, month).toBe(figures.get('credits'));
    });
    // The months differ, so the pivot would catch rows of one month labelled as another.
    expect(new Set(MONTHS.map((m) => daily.get(m)!.credits)).size).toBe(3);
  });
});

describe('two cost-center owners’ workbooks of the demo plan stack', () => {
  let books: Sheet[][];

  beforeAll(async () => {
    const dir = tempDir();
    const out = join(dir, 'out');
    const run = await cli(['distribute', '--demo', '--plan', costCenterPlan(dir), '--out', out, '-q'], {
      env: {},
    });
    expect(run.code, run.err).toBe(0);
    const files = COST_CENTERS.map((cc) =>
      join(out, readdirSync(out).find((f) => f.endsWith('.xlsx') && f.includes(`-cost-center-${cc}-`))!),
    );
    books = readBooks(files);
  }, 180_000);

  it('has the same sheets, tables and columns for every cost center, keyed, typed and in cents alike, adding up', () => {
    expect(books[0]!.map((s) => s.name)).toEqual(['Chargeback', 'Teams', 'Definitions', 'Rates', 'Notes']);
    const org = books[0]![0]!.tables[0]!.rows[0]![0] as string;
    expect(org).toMatch(/^org_/);
    // Each workbook's scope is the cost center it bills: stacked, their rows stay apart.
    const scopes = books.map((book) => {
      const chargeback = stack([book]).get('tbl_chargeback')!;
      const names = [...new Set(chargeback.map((r) => r.cost_center))];
      expect(names).toHaveLength(1);
      return `cost-center:${names[0]}`;
    });
    expect(new Set(scopes).size).toBe(2);
    checkStacks(books, org, ['2026-10', '2026-10'], scopes);
  });
});
