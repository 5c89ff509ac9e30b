import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PySheet, readWithOpenpyxl, records, sheet } from '../__fixtures__/openpyxl.ts';
import { HOSTILE_STRINGS, makeFixtureModel } from '../__fixtures__/report-model.ts';
import { formatFigure } from '../format.ts';
import { readLimitsWorkbook, writeLimitsTemplate } from './limits.ts';
import { writeWorkbook } from './workbook.ts';

const scratch = mkdtempSync(join(tmpdir(), 'render-xlsx-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const SHEETS = [
  'Summary',
  'Daily',
  'Weekly',
  'Users',
  'Dormant seats',
  'Models',
  'Tools',
  'Readiness',
  'Criteria',
  'Controls',
  'Definitions',
  'Data quality',
];

describe('writeWorkbook read back by openpyxl', () => {
  const model = makeFixtureModel({ hostile: true });
  let sheets: PySheet[];
  beforeAll(async () => {
    const file = join(scratch, 'report.xlsx');
    await writeWorkbook(model, file, { pricePerCredit: 0.0001, currency: 'EUR' });
    sheets = readWithOpenpyxl(file);
  });

  it('has the sheets of the issue, each with one frozen, filtered header row and no merged cells', () => {
    expect(sheets.map((s) => s.name)).toEqual(SHEETS);
    for (const s of sheets) {
      expect(s.freeze, s.name).toBe('A2');
      expect(s.autoFilter, s.name).toMatch(/^A1:[A-Z]+\d+$/);
      expect(s.merged, s.name).toEqual([]);
      expect(
        s.rows[0]!.every((c) => c.type === 's' && typeof c.value === 'string'),
        s.name,
      ).toBe(true);
    }
  });

  it('writes the Summary ids of docs/metrics.md with typed values, formats and formulas carrying results', () => {
    const rows = records(sheet(sheets, 'Summary'));
    expect(Object.keys(rows[0]!)).toEqual(['id', 'label', 'value', 'previous', 'change']);
    const byId = new Map(rows.map((r) => [r.id!.value, r]));
    for (const f of model.figures) expect(byId.has(f.id), f.id).toBe(true);

    const credits = byId.get('credits')!;
    expect(credits.value!.type).toBe('f');
    expect(credits.value!.value).toBe("=SUM('Daily'!C2:C32)");
    expect(credits.value!.result).toBe(model.daily.reduce((a, d) => a + d.credits, 0));
    expect(credits.value!.format).toBe('#,##0');
    // Python's own thousands formatting gives the same text as the report's formatter.
    expect(credits.value!.text).toBe(formatFigure(model.figures.find((f) => f.id === 'credits')!));

    const stickiness = byId.get('stickiness')!;
    expect(stickiness.value!.value).toMatch(/^=IF\(C\d+=0,"",C\d+\/C\d+\)$/);
    expect(stickiness.value!.format).toBe('#,##0.0%');
    expect(stickiness.value!.text).toBe(formatFigure(model.figures.find((f) => f.id === 'stickiness')!));

    const sessions = byId.get('sessions')!; // previous equals value: change 0 recomputed by formula
    expect(sessions.change!.value).toMatch(/^=IF\(OR\(D\d+="",D\d+=0\),"",\(C\d+-D\d+\)\/ABS\(D\d+\)\)$/);
    expect(sessions.change!.result).toBe(0);

    const messages = byId.get('messages')!; // previous 0: change n/a, an empty cell
    expect(messages.previous!.result).toBe(0);
    expect(messages.change!.result).toBeNull();
    expect(byId.get('output_tokens')!.previous!.result).toBeNull();

    const cost = byId.get('cost')!;
    expect(cost.value!.format).toBe('#,##0.00 "EUR"');
    expect(cost.value!.result).toBeCloseTo((credits.value!.result as number) * 0.0001, 6);
  });

  it('formats every Summary figure by its unit, as the report text does', () => {
    const byUnit: Record<string, string> = {
      count: '#,##0',
      credits: '#,##0',
      tokens: '#,##0',
      ratio: '#,##0.00',
      share: '#,##0.0%',
      score: '#,##0.0%',
      level: '0',
    };
    const byId = new Map(records(sheet(sheets, 'Summary')).map((r) => [r.id!.value, r]));
    for (const f of model.figures) {
      const cell = byId.get(f.id)!.value!;
      expect(cell.format, f.id).toBe(byUnit[f.unit]);
      if (cell.text !== null) expect(cell.text, f.id).toBe(formatFigure(f));
    }
    expect(model.figures.find((f) => f.id === 'avg_dau')?.unit).toBe('ratio');
    expect(formatFigure(model.figures.find((f) => f.id === 'avg_dau')!)).toMatch(/\.\d\d$/);
  });

  it('writes days as Excel dates and shares as percentages on Daily and Weekly', () => {
    const daily = records(sheet(sheets, 'Daily'));
    expect(daily).toHaveLength(31);
    expect(daily[0]!.date!.isDate).toBe(true);
    expect(daily[0]!.date!.value).toBe('2026-03-01T00:00:00');
    expect(daily[0]!.date!.format).toBe('yyyy-mm-dd');
    expect(daily[0]!.credits!.type).toBe('n');
    expect(daily[0]!.auto_high!.format).toBe('#,##0.0%');
    expect(daily[9]!.has_data!.value).toBe(false);
    const weekly = records(sheet(sheets, 'Weekly'));
    const header = Object.keys(weekly[0]!);
    for (const column of [
      'week',
      'days_in_period',
      'partial',
      'credits',
      'tool_calls',
      'sessions',
      'messages',
      'avg_dau',
      'max_dau',
      'wau',
      'autonomy_mean',
      'autonomy_p50',
      'autonomy_p90',
      'auto_high',
      'auto_medium',
      'auto_low',
      'manual',
      'delegation_auto_high',
      'delegation_auto_medium',
      'delegation_auto_low',
      'delegation_spec',
      'delegation_manual',
    ]) {
      expect(header, column).toContain(column);
    }
    expect(weekly[0]!.week!.value).toBe('2026-W09');
    expect(weekly[0]!.partial!.value).toBe(true);
    expect(weekly[0]!.delegation_spec!.format).toBe('#,##0.0%');
    expect(weekly[0]!.delegation_spec!.value).toBe(0.125);
  });

  it('holds hostile text as inert strings, never formulas', () => {
    const all = sheets.flatMap((s) => s.rows.slice(1).flat());
    const strings = all.filter((c) => typeof c.value === 'string' && !c.isDate && c.type !== 'f');
    const formulas = sheets
      .filter((s) => s.name !== 'Summary')
      .flatMap((s) => s.rows.flat())
      .filter((c) => c.type === 'f');
    expect(formulas).toEqual([]);
    for (const c of strings) {
      expect(c.type).toBe('s');
      expect(String(c.value)).not.toMatch(/^[=+\-@\t\r]/);
    }
    const values = strings.map((c) => c.value);
    expect(values).toContain(`'${HOSTILE_STRINGS.hyperlink}`);
    expect(values).toContain(`'${HOSTILE_STRINGS.cmd}`);
    expect(values).toContain(`'${HOSTILE_STRINGS.sum}`);
    expect(values).toContain(HOSTILE_STRINGS.rtl);
    expect(values).toContain(HOSTILE_STRINGS.script);
    expect(values).toContain(HOSTILE_STRINGS.long);
    const users = records(sheet(sheets, 'Users'));
    expect(users.some((u) => u.email!.value === null || u.email!.value === '')).toBe(true);
    expect(users[0]!.cost!.format).toBe('#,##0.00 "EUR"');
    expect(users[0]!.credits!.format).toBe('#,##0');
  });

  it('lists every dormant seat with e-mail, name and creation instant', () => {
    const dormant = records(sheet(sheets, 'Dormant seats'));
    expect(Object.keys(dormant[0]!)).toEqual(['user_id', 'email', 'name', 'created_at']);
    expect(dormant).toHaveLength(model.seats.dormant_users.length);
    expect(dormant[0]!.email!.value).toBe(`'${HOSTILE_STRINGS.sum}`); // inert, not a formula
    expect(dormant[0]!.name!.value).toBe(HOSTILE_STRINGS.script);
    expect(dormant[0]!.created_at!.isDate).toBe(true);
    expect(dormant[0]!.created_at!.value).toBe('2026-01-20T09:30:00');
    expect(dormant[1]!.created_at!.value).toBeNull();
  });

  it('holds readiness trends in percentage points with a "pp" format, and no trend as an empty cell', () => {
    const repos = records(sheet(sheets, 'Readiness'));
    const withTrend = model.readiness.repos.findIndex((r) => r.trend === 0.125);
    const withoutTrend = model.readiness.repos.findIndex((r) => r.trend === null);
    expect(repos[withTrend]!.trend!.type).toBe('n');
    expect(repos[withTrend]!.trend!.value).toBe(12.5);
    expect(repos[withTrend]!.trend!.format).toBe('+#,##0.0 "pp";-#,##0.0 "pp";0.0 "pp"');
    expect(repos[withTrend]!.score!.format).toBe('#,##0.0%');
    expect(repos[withoutTrend]!.trend!.value).toBeNull();
  });

  it('fits column widths between a minimum and a maximum', () => {
    const users = sheet(sheets, 'Users');
    expect(users.widths.B).toBe(60); // the 10,000-character e-mail is capped
    expect(users.widths.A).toBeGreaterThanOrEqual(10);
    expect(users.widths.A).toBeLessThan(20);
  });
});

describe('sheets longer than the row limit', () => {
  it('continue on numbered sheets, each with its own header', async () => {
    const file = join(scratch, 'split.xlsx');
    const model = makeFixtureModel({ users: 25 });
    await writeWorkbook(model, file, { maxRowsPerSheet: 11 });
    const sheets = readWithOpenpyxl(file);
    const users = sheets.filter((s) => s.name.startsWith('Users'));
    expect(users.map((s) => s.name)).toEqual(['Users', 'Users (2)', 'Users (3)']);
    expect(users.map((s) => s.maxRow)).toEqual([11, 11, 6]);
    for (const s of users) expect(s.rows[0]![0]!.value).toBe('user_id');
    const ids = users.flatMap((s) => records(s).map((r) => r.user_id!.value));
    expect(ids).toEqual(model.users.map((u) => u.user_id));
  });
});

describe('limits workbook', () => {
  it('writes a template finance fills in, and reads email and raw limit per row', async () => {
    const file = join(scratch, 'limits.xlsx');
    await writeLimitsTemplate(
      [
        { email: 'a@example.com', name: 'Ann', credits: 1200 },
        { email: '=evil()', credits: 5 },
        { email: 'c@example.com', credits: 0 },
      ],
      file,
      { month: '2026-03' },
    );
    const [limits] = readWithOpenpyxl(file);
    expect(limits!.name).toBe('Limits');
    expect(limits!.rows[0]!.map((c) => c.value)).toEqual(['email', 'name', 'credits_2026-03', 'limit']);
    expect(limits!.rows[2]![0]!.value).toBe("'=evil()");
    expect(limits!.rows[1]![3]!.value).toBeNull();

    // Finance fills in limits: a number, a text, a formula, and leaves one empty.
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(file);
    const ws = wb.getWorksheet('Limits')!;
    ws.getCell('D2').value = 5000;
    ws.getCell('D3').value = 'lots';
    ws.getCell('D4').value = { formula: '2*50', result: 100 };
    await wb.xlsx.writeFile(file);

    expect(await readLimitsWorkbook(file)).toEqual([
      { row: 2, email: 'a@example.com', limit: 5000 },
      { row: 3, email: "'=evil()", limit: 'lots' },
      { row: 4, email: 'c@example.com', limit: 100 },
    ]);
  });

  it('rejects a workbook without email and limit headers', async () => {
    const file = join(scratch, 'bad-limits.xlsx');
    const wb = new ExcelJS.Workbook();
    wb.addWorksheet('Limits').addRow(['mail', 'cap']);
    await wb.xlsx.writeFile(file);
    await expect(readLimitsWorkbook(file)).rejects.toThrow(/"email" and "limit"/);
  });
});

describe('a model without data', () => {
  it('writes every sheet with its header and empty cells for missing figures', async () => {
    const full = makeFixtureModel();
    const empty = {
      ...full,
      figures: full.figures.map((f) => ({ ...f, value: null, previous: null, change: null })),
      daily: [],
      weekly: [],
      users: [],
      dataQuality: [],
      credits: { total: 0, cost: null, byModel: [], byTier: [] },
      controls: { changes: [], current_revision: null, security: [] },
    };
    const file = join(scratch, 'empty.xlsx');
    await writeWorkbook(empty, file);
    const sheets = readWithOpenpyxl(file);
    expect(sheets.map((s) => s.name)).toEqual(SHEETS);
    expect(sheet(sheets, 'Daily').maxRow).toBe(1);
    const summary = records(sheet(sheets, 'Summary'));
    expect(summary.every((r) => r.value!.result === null && r.value!.type !== 'f')).toBe(true);
  });
});
