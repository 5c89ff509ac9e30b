import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ReportModel, ReportScope } from '@orgreport/metrics';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  noteUnder,
  type PyProperties,
  type PySheet,
  readBookWithOpenpyxl,
  readWithOpenpyxl,
  records,
  sheet,
} from '../__fixtures__/openpyxl.ts';
import { HOSTILE_STRINGS, makeFixtureModel } from '../__fixtures__/report-model.ts';
import { formatFigure } from '../format.ts';
import { readLimitsWorkbook, writeLimitsTemplate } from './limits.ts';
import { writeWorkbook } from './workbook.ts';

const scratch = mkdtempSync(join(tmpdir(), 'render-xlsx-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const SHEETS = [
  'Summary',
  // Sections without figures in the fixture (no store, no rollup, no directory): empty tables.
  'Organizations',
  'Trend',
  'Daily',
  'Weekly',
  'Users',
  'User languages',
  'Dormant seats',
  'Models',
  'Tools',
  'MCP spellings',
  'Readiness',
  'Criteria',
  'Teams',
  'Chargeback',
  'Controls',
  'Definitions',
  'Data quality',
  'Data quality details',
  'Rates',
  'Notes',
];

/** The sheets of sections without figures in the fixture. */
const EMPTY_SECTIONS = ['Organizations', 'Trend', 'Teams', 'Chargeback'];

/** The table name of each sheet (the README lists them). */
const TABLES: Record<string, string> = {
  Summary: 'tbl_summary',
  Organizations: 'tbl_organizations',
  Trend: 'tbl_trend',
  Daily: 'tbl_daily',
  Weekly: 'tbl_weekly',
  Users: 'tbl_users',
  'User languages': 'tbl_user_languages',
  'Dormant seats': 'tbl_dormant_seats',
  Models: 'tbl_models',
  Tools: 'tbl_tools',
  'MCP spellings': 'tbl_mcp_spellings',
  Readiness: 'tbl_readiness',
  Criteria: 'tbl_criteria',
  Teams: 'tbl_teams',
  Chargeback: 'tbl_chargeback',
  Controls: 'tbl_controls',
  Definitions: 'tbl_definitions',
  'Data quality': 'tbl_data_quality',
  'Data quality details': 'tbl_data_quality_details',
  Rates: 'tbl_rates',
  Notes: 'tbl_notes',
};

/** The letters of the n-th column (1 -> A), computed here rather than taken from the writer. */
const letter = (n: number): string =>
  (n > 26 ? letter(Math.floor((n - 1) / 26)) : '') + 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'[(n - 1) % 26];

/** Column letter of a header in a sheet's header row. */
function columnOf(s: PySheet, header: string): string {
  const i = s.rows[0]!.findIndex((c) => c.value === header);
  if (i < 0) throw new Error(`no column ${header} in ${s.name}`);
  return letter(i + 1);
}

describe('writeWorkbook read back by openpyxl', () => {
  const model = makeFixtureModel({ hostile: true });
  // Stickiness's change unrounded, as the metrics give it (the fixture rounds its changes).
  const stickinessFigure = model.figures.find((f) => f.id === 'stickiness')!;
  stickinessFigure.change = stickinessFigure.value! - stickinessFigure.previous!;
  // A change the formula would not reproduce from the value and the previous one shown.
  model.figures.find((f) => f.id === 'readiness_org_score')!.change = 0.07;
  let sheets: PySheet[];
  let properties: PyProperties;
  beforeAll(async () => {
    const file = join(scratch, 'report.xlsx');
    await writeWorkbook(model, file, { pricePerCredit: 0.0001, currency: 'EUR' });
    ({ sheets, properties } = readBookWithOpenpyxl(file));
  });

  it('has the sheets of the issue, each one frozen header row over an Excel table named after it, no merged cells', () => {
    expect(sheets.map((s) => s.name)).toEqual(SHEETS);
    for (const s of sheets) {
      expect(s.freeze, s.name).toBe('A2');
      expect(s.merged, s.name).toEqual([]);
      // The table's own filter replaces the sheet's.
      expect(s.autoFilter, s.name).toBeNull();
      // An empty table spans one empty row, as a new table in Excel does.
      const rows = Math.max(1, records(s).length);
      expect(s.tables, s.name).toEqual({ [TABLES[s.name]!]: `A1:${letter(s.rows[0]!.length)}${rows + 1}` });
      expect(
        s.rows[0]!.every((c) => c.type === 's' && typeof c.value === 'string'),
        s.name,
      ).toBe(true);
    }
  });

  it('starts every sheet, Summary, Rates and Notes included, with org_id, month (a date shown yyyy-mm) and scope, the same on every row', () => {
    for (const s of sheets) {
      expect(
        s.rows[0]!.slice(0, 3).map((c) => c.value),
        s.name,
      ).toEqual(['org_id', 'month', 'scope']);
      const rows = records(s);
      if (EMPTY_SECTIONS.includes(s.name)) expect(rows, s.name).toEqual([]);
      else expect(rows.length, s.name).toBeGreaterThan(0);
      for (const r of rows) {
        expect(r.org_id!.value, s.name).toBe(model.organization.id);
        expect(r.org_id!.type, s.name).toBe('s');
        expect(r.month!.value, s.name).toBe('2026-03-01T00:00:00');
        expect(r.month!.isDate, s.name).toBe(true);
        expect(r.month!.format, s.name).toBe('yyyy-mm');
        // The organization's report: not a scope's.
        expect(r.scope!.value, s.name).toBe('organization');
        expect(r.scope!.type, s.name).toBe('s');
      }
    }
  });

  it('writes the sheets of sections without figures as empty tables, each named on the Notes sheet', () => {
    for (const name of EMPTY_SECTIONS) {
      const s = sheet(sheets, name);
      expect(s.maxRow, name).toBe(1);
      expect(s.rows[0]!.length, name).toBeGreaterThan(3);
    }
    expect(
      sheet(sheets, 'Trend')
        .rows[0]!.map((c) => c.value)
        .slice(0, 5),
    ).toEqual(['org_id', 'month', 'scope', 'trend_month', 'partial']);
    const notes = records(sheet(sheets, 'Notes')).map((r) => [r.sheet!.value, r.note!.value]);
    expect(notes.filter(([name]) => EMPTY_SECTIONS.includes(String(name)))).toEqual([
      [
        'Organizations',
        'No rows: the section "Organizations" has no figures in this report (only a rollup of several organizations has them).',
      ],
      [
        'Trend',
        'No rows: the section "Trend" has no figures in this report (a trend is read from a store, with orgreport monthly --store).',
      ],
      [
        'Teams',
        'No rows: the section "Teams" has no figures in this report (teams come from a people directory, given with --directory).',
      ],
      [
        'Chargeback',
        'No rows: the section "Chargeback by cost center" has no figures in this report (cost centers come from a people directory, given with --directory).',
      ],
    ]);
  });

  it('states the price per credit, the price per seat and the currency on the Rates sheet', () => {
    const rates = records(sheet(sheets, 'Rates'));
    expect(rates.map((r) => [r.rate!.value, r.price!.value, r.currency!.value])).toEqual([
      ['price_per_credit', 0.0001, 'EUR'],
      // No chargeback (no directory): no seat price.
      ['price_per_seat', null, null],
    ]);
    expect(rates[0]!.price!.format).toBe('#,##0.00##########');
  });

  it('sets the document properties', () => {
    expect(properties).toEqual({
      title: `orgreport — ${model.organization.name} — 2026-03`,
      subject: `${model.organization.name} — AI coding agent report 2026-03`,
      creator: 'orgreport',
      lastModifiedBy: 'orgreport',
      description: `Organization ${model.organization.id}, ${model.period.start} to ${model.period.end}.`,
      keywords: `orgreport ${model.organization.id} 2026-03`,
      category: 'Monthly report',
      created: model.generatedAt.replace('.000Z', ''),
      modified: model.generatedAt.replace('.000Z', ''),
    });
  });

  it('writes the Summary ids of docs/metrics.md with typed values, formats and formulas carrying results', () => {
    const rows = records(sheet(sheets, 'Summary'));
    expect(Object.keys(rows[0]!)).toEqual([
      'org_id',
      'month',
      'scope',
      'id',
      'label',
      'value',
      'previous',
      'change',
      'change_kind',
    ]);
    const byId = new Map(rows.map((r) => [r.id!.value, r]));
    // Each change says what it is, for a program that reads the values without their formats.
    for (const f of model.figures)
      expect(byId.get(f.id)!.change_kind!.value ?? null, f.id).toBe(f.change === null ? null : f.changeKind);
    for (const f of model.figures) expect(byId.has(f.id), f.id).toBe(true);

    const credits = byId.get('credits')!;
    const daily = sheet(sheets, 'Daily');
    expect(columnOf(daily, 'credits')).toBe('F'); // after org_id, month, scope, date, has_data
    expect(credits.value!.type).toBe('f');
    expect(credits.value!.value).toBe("=SUM('Daily'!F2:F32)");
    expect(credits.value!.result).toBe(model.daily.reduce((a, d) => a + d.credits, 0));
    expect(credits.value!.format).toBe('#,##0');
    // Python's own thousands formatting gives the same text as the report's formatter.
    expect(credits.value!.text).toBe(formatFigure(model.figures.find((f) => f.id === 'credits')!));

    const stickiness = byId.get('stickiness')!;
    // The Summary's value is column F, its previous G.
    expect(columnOf(sheet(sheets, 'Summary'), 'value')).toBe('F');
    expect(columnOf(sheet(sheets, 'Summary'), 'previous')).toBe('G');
    expect(stickiness.value!.value).toMatch(/^=IF\(F\d+=0,"",F\d+\/F\d+\)$/);
    expect(stickiness.value!.format).toBe('#,##0.0%');
    expect(stickiness.value!.text).toBe(formatFigure(model.figures.find((f) => f.id === 'stickiness')!));

    const sessions = byId.get('sessions')!; // previous equals value: change 0 recomputed by formula
    expect(sessions.change!.value).toMatch(/^=IF\(OR\(G\d+="",G\d+=0\),"",\(F\d+-G\d+\)\/ABS\(G\d+\)\)$/);
    expect(sessions.change!.result).toBe(0);

    // A change in percentage points is in points, and its formula shows the scale: (value - previous) * 100.
    expect(stickiness.change!.value).toMatch(/^=IF\(OR\(F\d+="",G\d+=""\),"",\(F\d+-G\d+\)\*100\)$/);
    expect(stickiness.change!.result).toBeCloseTo(stickinessFigure.change! * 100, 9);
    expect(stickiness.change!.format).toBe('+#,##0.0 "pp";-#,##0.0 "pp";0.0 "pp"');
    // One the formula would not reproduce stays a number, in points.
    const readiness = byId.get('readiness_org_score')!;
    expect(readiness.change!.type).toBe('n');
    expect(readiness.change!.result).toBeCloseTo(
      model.figures.find((f) => f.id === 'readiness_org_score')!.change! * 100,
      9,
    );

    const messages = byId.get('messages')!; // previous 0: change n/a, an empty cell
    expect(messages.previous!.result).toBe(0);
    expect(messages.change!.result).toBeNull();
    expect(byId.get('output_tokens')!.previous!.result).toBeNull();

    const cost = byId.get('cost')!;
    const creditsRow = rows.indexOf(credits) + 2;
    expect(cost.value!.format).toBe('#,##0.00 "EUR"');
    expect(cost.value!.value).toBe(`=ROUND(F${creditsRow}*0.0001,2)`);
    // Money to the cent: the fixture's 3,133,039 credits at 0.0001 are 313.3039, stored 313.30.
    expect(credits.value!.result).toBe(3_133_039);
    expect(cost.value!.result).toBe(313.3);
  });

  it('caches, for every formula over the Daily sheet, what the formula computes from the Daily cells', () => {
    const daily = sheet(sheets, 'Daily');
    const header = daily.rows[0]!.map((c) => c.value);
    const overDaily = records(sheet(sheets, 'Summary')).filter((r) =>
      String(r.value!.value).includes("'Daily'!"),
    );
    // Every sum of DAILY_SUMS, the average and the peak DAU.
    expect(overDaily.map((r) => r.id!.value)).toEqual(
      expect.arrayContaining(['credits', 'tool_calls', 'sessions', 'avg_dau', 'peak_dau']),
    );
    for (const r of overDaily) {
      const [, fn, col, first, last] = /^=(SUM|AVERAGE|MAX)\('Daily'!([A-Z]+)(\d+):\2(\d+)\)$/.exec(
        String(r.value!.value),
      )!;
      expect([Number(first), Number(last)], String(r.id!.value)).toEqual([2, model.daily.length + 1]);
      const values = records(daily).map((d) => d[header[letterIndex(col!)] as string]!.value as number);
      const computed =
        fn === 'SUM'
          ? values.reduce((a, b) => a + b, 0)
          : fn === 'AVERAGE'
            ? values.reduce((a, b) => a + b, 0) / values.length
            : Math.max(...values);
      expect(header[letterIndex(col!)], String(r.id!.value)).toBe(fn === 'SUM' ? r.id!.value : 'dau');
      expect(r.value!.result as number, String(r.id!.value)).toBeCloseTo(computed, 9);
      const figure = model.figures.find((f) => f.id === r.id!.value)!;
      expect(r.value!.result as number, String(r.id!.value)).toBeCloseTo(figure.value!, 9);
    }
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
    expect(daily[9]!.has_data!.type).toBe('b');
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

  it('holds hostile text as it is, in string cells made inert by the quotePrefix style, never formulas', () => {
    const all = sheets.flatMap((s) => s.rows.slice(1).flat());
    const strings = all.filter((c) => typeof c.value === 'string' && !c.isDate && c.type !== 'f');
    const formulas = sheets
      .filter((s) => s.name !== 'Summary')
      .flatMap((s) => s.rows.flat())
      .filter((c) => c.type === 'f');
    expect(formulas).toEqual([]);
    const formulaLike = strings.filter((c) => /^[=+\-@\t\r]/.test(String(c.value)));
    for (const c of strings) {
      expect(c.type).toBe('s');
      expect(String(c.value)).not.toMatch(/^'/); // no apostrophe put in front
    }
    for (const c of formulaLike) {
      expect(c.quotePrefix, String(c.value)).toBe(true);
      expect(c.format, String(c.value)).toBe('@');
    }
    // Ordinary text has neither.
    expect(strings.filter((c) => c.quotePrefix).length).toBe(formulaLike.length);
    const values = formulaLike.map((c) => c.value);
    for (const h of ['hyperlink', 'cmd', 'sum', 'minus', 'tab', 'cr'] as const) {
      expect(values, h).toContain(HOSTILE_STRINGS[h]);
    }
    const texts = strings.map((c) => c.value);
    expect(texts).toContain(HOSTILE_STRINGS.rtl);
    expect(texts).toContain(HOSTILE_STRINGS.script);
    expect(texts).toContain(HOSTILE_STRINGS.long);
    const users = records(sheet(sheets, 'Users'));
    expect(users[0]!.credit_cost!.format).toBe('#,##0.00 "EUR"');
    expect(users[0]!.credits!.format).toBe('#,##0');
  });

  it('leaves blanks as empty cells: no cell holds an empty string', () => {
    const empty = sheets.flatMap((s) =>
      s.rows
        .flat()
        .filter((c) => c.value === '')
        .map(() => s.name),
    );
    expect(empty).toEqual([]);
    // The user whose e-mail is '' and the hook without a matcher.
    const users = records(sheet(sheets, 'Users'));
    const blankEmail = users.filter((u) => u.email!.value === null);
    expect(blankEmail.map((u) => u.email!.type)).toEqual(['n']);
    const tools = records(sheet(sheets, 'Tools'));
    expect(tools.find((t) => t.command!.value === 'scripts/log.sh')!.matcher!.value).toBeNull();
    expect(tools.find((t) => t.category!.value === 'tool')!.command!.value).toBeNull();
  });

  it('writes lists as long tables, one row per item, never joined into one cell', () => {
    const users = records(sheet(sheets, 'Users'));
    expect(Object.keys(users[0]!)).not.toContain('languages');
    const languages = records(sheet(sheets, 'User languages'));
    expect(Object.keys(languages[0]!)).toEqual([
      'org_id',
      'month',
      'scope',
      'user_id',
      'email',
      'rank',
      'language',
    ]);
    expect(languages.map((l) => [l.user_id!.value, l.rank!.value, l.language!.value])).toEqual(
      model.users.flatMap((u) => u.languages.map((l, i) => [u.user_id, i + 1, l])),
    );
    expect(languages[0]!.rank!.type).toBe('n');

    const tools = records(sheet(sheets, 'Tools'));
    expect(Object.keys(tools[0]!)).toEqual([
      'org_id',
      'month',
      'scope',
      'category',
      'name',
      'matcher',
      'command',
      'count',
      'share',
    ]);
    const spellings = records(sheet(sheets, 'MCP spellings'));
    expect(spellings.map((s) => [s.server!.value, s.spelling!.value, s.count!.value])).toEqual([
      ['github', 'github', 280],
      ['github', 'GitHub', 20],
      [HOSTILE_STRINGS.emoji, HOSTILE_STRINGS.emoji, 200],
    ]);

    const findings = records(sheet(sheets, 'Data quality'));
    expect(Object.keys(findings[0]!)).toEqual(['org_id', 'month', 'scope', 'kind', 'message', 'count']);
    const details = records(sheet(sheets, 'Data quality details'));
    expect(details.map((d) => [d.kind!.value, d.detail!.value])).toEqual([
      ['missing_days', '2026-03-10'],
      ['mcp_case_merged', JSON.stringify(model.dataQuality[1]!.details![0])],
    ]);
  });

  it('lists every dormant seat with e-mail, name, creation instant, last activity and sign-in, and whether to reclaim it', () => {
    const dormant = records(sheet(sheets, 'Dormant seats'));
    expect(Object.keys(dormant[0]!)).toEqual([
      'org_id',
      'month',
      'scope',
      'user_id',
      'email',
      'name',
      'created_at',
      'last_active',
      'last_sign_in',
      'reclaim',
    ]);
    expect(dormant[0]!.last_active!.isDate).toBe(true);
    expect(dormant[0]!.last_active!.value).toBe('2026-02-17T00:00:00');
    expect(dormant[0]!.reclaim!.value).toBe(false);
    expect(dormant[1]!.reclaim!.value).toBe(true);
    expect(dormant[1]!.last_active!.value).toBeNull();
    expect(dormant).toHaveLength(model.seats.dormant_users.length);
    expect(dormant[0]!.email!.value).toBe(HOSTILE_STRINGS.sum); // as it is, inert by its style
    expect(dormant[0]!.email!.quotePrefix).toBe(true);
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
    expect(columnOf(users, 'email')).toBe('E');
    expect(users.widths.E).toBe(60); // the 10,000-character e-mail is capped
    // The scope column as wide as its text ('organization').
    expect(users.widths.C).toBe(14);
    // openpyxl reads neighbours of the same width as one (user_id's D under month's B, say).
    for (const [col, width] of Object.entries(users.widths)) {
      expect(width, col).toBeGreaterThanOrEqual(10);
      expect(width, col).toBeLessThanOrEqual(60);
    }
    expect(users.widths.A).toBeLessThan(20);
  });
});

describe('writeWorkbook read back by ExcelJS', () => {
  it('holds typed cells, the tables, formulas with results, inert text as it is and the properties', async () => {
    const model = makeFixtureModel({ hostile: true });
    const file = join(scratch, 'exceljs.xlsx');
    await writeWorkbook(model, file);
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile(file);
    expect(book.worksheets.map((w) => w.name)).toEqual(SHEETS);
    expect(book.title).toBe(`orgreport — ${model.organization.name} — 2026-03`);
    expect(book.company).toBe(model.organization.name);
    expect(book.creator).toBe('orgreport');
    expect(book.created.toISOString()).toBe(model.generatedAt);
    for (const ws of book.worksheets) {
      const tables = ws.getTables() as unknown as Array<{ table: { name: string; tableRef: string } }>;
      expect(
        tables.map((t) => t.table.name),
        ws.name,
      ).toEqual([TABLES[ws.name]]);
    }

    const daily = book.getWorksheet('Daily')!;
    expect(daily.getCell('C2').value).toBe('organization');
    expect(daily.getCell('D2').value).toEqual(new Date('2026-03-01T00:00:00Z'));
    expect(daily.getCell('D2').numFmt).toBe('yyyy-mm-dd');
    expect(daily.getCell('E2').value).toBe(model.daily[0]!.hasData);
    expect(daily.getCell('F2').value).toBe(model.daily[0]!.credits);
    expect(daily.getCell('F2').numFmt).toBe('#,##0');

    const summary = book.getWorksheet('Summary')!;
    expect(summary.getCell('C2').value).toBe('organization');
    const credits = summary.getColumn(4).values.indexOf('credits');
    expect(summary.getCell(credits, 6).value).toEqual({
      formula: "SUM('Daily'!F2:F32)",
      result: model.credits.total,
    });

    const dormant = book.getWorksheet('Dormant seats')!;
    expect(dormant.getCell('E2').value).toBe(HOSTILE_STRINGS.sum);
    expect(dormant.getCell('E2').numFmt).toBe('@');
    expect(dormant.getCell('F2').numFmt).toBeUndefined();
    expect(dormant.getCell('E3').value).toBeNull(); // no e-mail: an empty cell
  });
});

/** Index in a header row of a column's letters (A -> 0). */
function letterIndex(col: string): number {
  return [...col].reduce((n, ch) => n * 26 + ch.charCodeAt(0) - 64, 0) - 1;
}

describe('columns without any value', () => {
  it('stay in the table, empty, and a row of the Notes sheet names them with the reason', async () => {
    const full = makeFixtureModel();
    const noLimits = {
      ...full,
      users: full.users.map((u) => ({
        ...u,
        credit_limit: null,
        limit_utilization: null,
        over_80: false,
        over_100: false,
      })),
    };
    const file = join(scratch, 'no-limits.xlsx');
    await writeWorkbook(noLimits, file);
    const sheets = readWithOpenpyxl(file);
    const withLimits = join(scratch, 'with-limits.xlsx');
    await writeWorkbook(full, withLimits);
    const users = sheet(sheets, 'Users');
    const header = users.rows[0]!.map((c) => c.value);
    // The same columns as the workbook of a month with limits: the tables stack.
    expect(header).toEqual(sheet(readWithOpenpyxl(withLimits), 'Users').rows[0]!.map((c) => c.value));
    for (const column of ['credit_limit', 'limit_utilization', 'over_80', 'over_100']) {
      expect(header).toContain(column);
      expect(records(users).every((r) => r[column]!.value === null)).toBe(true);
    }
    expect(users.tables).toEqual({ tbl_users: `A1:${letter(header.length)}${full.users.length + 1}` });
    // Nothing under the table: the sheet ends with its last row.
    expect(users.maxRow).toBe(full.users.length + 1);
    expect(noteUnder(users)).toBeNull();
    // Nor has the fixture a directory (no name, team, cost center) or a price (no cost).
    expect(records(sheet(sheets, 'Notes')).map((r) => [r.sheet!.value, r.note!.value])).toContainEqual([
      'Users',
      'No row has a value in: name, team, cost_center, credit_cost; credit_limit, limit_utilization, over_80, over_100' +
        ' (no credit limit is known for any user: the report was built without credit limits).',
    ]);
  });

  it('hold a value where a row has one; a flag of a user without a limit is an empty cell', async () => {
    const file = join(scratch, 'limits-known.xlsx');
    const model = makeFixtureModel();
    await writeWorkbook(model, file);
    const sheets = readWithOpenpyxl(file);
    const users = sheet(sheets, 'Users');
    const notes = records(sheet(sheets, 'Notes')).filter((r) => r.sheet!.value === 'Users');
    expect(notes.map((r) => r.note!.value)).toEqual([
      'No row has a value in: name, team, cost_center, credit_cost.',
    ]);
    const rows = records(users);
    const limited = model.users.findIndex((u) => u.credit_limit !== null);
    const unlimited = model.users.findIndex((u) => u.credit_limit === null);
    expect(rows[limited]!.credit_limit!.value).toBe(model.users[limited]!.credit_limit);
    expect(rows[limited]!.over_80!.type).toBe('b');
    expect(rows[unlimited]!.credit_limit!.value).toBeNull();
    expect(rows[unlimited]!.over_80!.value).toBeNull();
  });
});

describe('money', () => {
  it('is stored rounded to the cent, half a cent away from zero', async () => {
    const model = makeFixtureModel({ pricing: { pricePerCredit: 0.000_003_7, currency: 'USD' } });
    const file = join(scratch, 'cents.xlsx');
    await writeWorkbook(model, file);
    const users = records(sheet(readWithOpenpyxl(file), 'Users'));
    expect(users).toHaveLength(model.users.length);
    for (const [i, u] of model.users.entries()) {
      // Worked out in integers, away from floating point: credits x 37 / 100,000 cents, half up.
      const cents = Math.floor((u.credits * 37 + 50_000) / 100_000);
      expect(users[i]!.credit_cost!.value, u.user_id).toBe(cents / 100);
    }
  });
});

describe('sections that compute figures', () => {
  it('write their rows when they have figures, and empty tables otherwise; their own month and org id follow the report’s', async () => {
    const base = makeFixtureModel();
    const trendRow = {
      month: '2026-09',
      partial: false,
      days: 30,
      credits: 1200,
      cost: null,
      active_users: 3,
      avg_dau: 2,
      stickiness: 2 / 3,
      seats: 4,
      seat_utilization: 0.75,
      readiness_score: null,
      readiness_level: null,
      autonomy_mean: 1.5,
    };
    const rollupRow = { org_id: 'org-eu', organization: 'EU', total: false, cost: null, credits: 7 };
    const model = {
      ...base,
      sections: {
        trend: { months: [trendRow, { ...trendRow, month: base.period.month }] },
        rollup: { rows: [rollupRow, { ...rollupRow, org_id: base.organization.id, total: true }] },
      },
    } as typeof base;
    const file = join(scratch, 'trend-rollup.xlsx');
    await writeWorkbook(model, file);
    const sheets = readWithOpenpyxl(file);
    expect(sheets.map((s) => s.name).slice(0, 3)).toEqual(['Summary', 'Organizations', 'Trend']);
    const header = (s: PySheet[], name: string) => sheet(s, name).rows[0]!.map((c) => c.value);
    expect(header(sheets, 'Trend').slice(0, 5)).toEqual([
      'org_id',
      'month',
      'scope',
      'trend_month',
      'partial',
    ]);
    expect(records(sheet(sheets, 'Trend')).map((r) => [r.month!.value, r.trend_month!.value])).toEqual([
      ['2026-03-01T00:00:00', '2026-09'],
      ['2026-03-01T00:00:00', base.period.month],
    ]);
    expect(header(sheets, 'Organizations').slice(0, 5)).toEqual([
      'org_id',
      'month',
      'scope',
      'organization_id',
      'organization',
    ]);
    expect(records(sheet(sheets, 'Organizations')).map((r) => r.organization_id!.value)).toEqual([
      'org-eu',
      base.organization.id,
    ]);

    const without = join(scratch, 'no-trend.xlsx');
    await writeWorkbook(base, without);
    const bare = readWithOpenpyxl(without);
    // The same sheets and columns, without rows.
    expect(bare.map((s) => s.name)).toEqual(sheets.map((s) => s.name));
    for (const name of ['Trend', 'Organizations']) {
      expect(header(bare, name), name).toEqual(header(sheets, name));
      expect(records(sheet(bare, name)), name).toEqual([]);
    }
  });
});

describe('sheets longer than the row limit', () => {
  it('continue on numbered sheets, each with its own header and table', async () => {
    const file = join(scratch, 'split.xlsx');
    const model = makeFixtureModel({ users: 25 });
    await writeWorkbook(model, file, { maxRowsPerSheet: 11 });
    const sheets = readWithOpenpyxl(file);
    const users = sheets.filter((s) => s.name.startsWith('Users'));
    expect(users.map((s) => s.name)).toEqual(['Users', 'Users (2)', 'Users (3)']);
    expect(users.map((s) => s.maxRow)).toEqual([11, 11, 6]);
    expect(users.map((s) => Object.keys(s.tables))).toEqual([
      ['tbl_users'],
      ['tbl_users_2'],
      ['tbl_users_3'],
    ]);
    for (const s of users)
      expect(s.rows[0]!.slice(0, 4).map((c) => c.value)).toEqual(['org_id', 'month', 'scope', 'user_id']);
    const ids = users.flatMap((s) => records(s).map((r) => r.user_id!.value));
    expect(ids).toEqual(model.users.map((u) => u.user_id));
    // The Daily sheet is split too: a formula over its first part would be wrong, so none is written.
    expect(sheets.map((s) => s.name)).toContain('Daily (3)');
    const credits = records(sheet(sheets, 'Summary')).find((r) => r.id!.value === 'credits')!;
    expect(credits.value!.type).toBe('n');
    expect(credits.value!.value).toBe(model.credits.total);
  });
});

describe('the scope column', () => {
  it("holds the scope's kind and name on every row of every sheet of a scoped report, organization on the organization's", async () => {
    const organization = makeFixtureModel();
    const scope: ReportScope = {
      kind: 'cost-center',
      name: 'CC-300',
      label: 'Cost center CC-300',
      slug: 'cost-center-cc-300',
      people: 2,
      organizationSections: [],
      omittedSections: [],
      organizationOnly: [],
    };
    const costCenter: ReportModel = { ...organization, scope };
    const written: Record<string, PySheet[]> = {};
    for (const [name, model] of Object.entries({ organization, costCenter })) {
      const file = join(scratch, `scope-${name}.xlsx`);
      await writeWorkbook(model, file, { pricePerCredit: 0.0001 });
      written[name] = readWithOpenpyxl(file);
    }
    for (const [name, expected] of [
      ['organization', 'organization'],
      ['costCenter', 'cost-center:CC-300'],
    ] as const) {
      const sheets = written[name]!;
      expect(sheets.map((s) => s.name)).toEqual(SHEETS);
      let rows = 0;
      for (const s of sheets) {
        // The third stacking column, after org_id and month, on every sheet (empty tables included).
        expect(
          s.rows[0]!.slice(0, 3).map((c) => c.value),
          `${name} ${s.name}`,
        ).toEqual(['org_id', 'month', 'scope']);
        for (const r of records(s)) {
          expect(r.scope!.value, `${name} ${s.name}`).toBe(expected);
          expect(r.scope!.type, `${name} ${s.name}`).toBe('s');
          rows++;
        }
      }
      expect(rows, name).toBeGreaterThan(100);
    }
    // Apart from the scope column, the two workbooks' Summary tables are the same: stacked, the
    // scope tells the rows of the two reports apart.
    const summary = (name: string) =>
      records(sheet(written[name]!, 'Summary')).map(({ scope: _, ...rest }) => rest);
    expect(summary('costCenter')).toEqual(summary('organization'));
    // The Summary's scope column as wide as its text.
    expect(sheet(written.costCenter!, 'Summary').widths.C).toBe('cost-center:CC-300'.length + 2);
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
    expect(limits!.rows[2]![0]!.value).toBe('=evil()'); // as it is, inert by its style
    expect(limits!.rows[2]![0]!.quotePrefix).toBe(true);
    expect(limits!.rows[2]![1]!.value).toBeNull(); // no name: an empty cell
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
      { row: 3, email: '=evil()', limit: 'lots' },
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
  it('writes every sheet with its header and table, and empty cells for missing figures', async () => {
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
    const daily = sheet(sheets, 'Daily');
    expect(daily.maxRow).toBe(1);
    // An empty table keeps all its columns and spans one empty row, as a new table in Excel does.
    expect(daily.rows[0]!.length).toBe(30);
    expect(daily.tables).toEqual({ tbl_daily: 'A1:AD2' });
    expect(records(daily)).toEqual([]);
    expect(noteUnder(daily)).toBeNull();
    const summary = records(sheet(sheets, 'Summary'));
    expect(summary.every((r) => r.value!.result === null && r.value!.type !== 'f')).toBe(true);
  });
});
