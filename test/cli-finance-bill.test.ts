/**
 * Finance's one bill: with the demo plan, every cost center's people, seats, credit cost, seat
 * cost and total are the same in the organization's workbook, in its owner's workbook and in the
 * PDF of a manager whose people it holds; the owners' workbooks name their cost center and its
 * teams (the minimum group size protects people, not the budget its owner reads), and with the
 * organization's other rows (Unassigned, what no user row carries) they add up to its total to the
 * cent. Read by openpyxl and poppler.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli, pdfText, readWorkbook, sheetObjects, tempDir } from './helpers.ts';

const PLAN = resolve(import.meta.dirname, '..', 'examples', 'distribution', 'plan.yaml');
type Row = Record<string, unknown>;
const cents = (v: unknown) => Math.round(Number(v ?? 0) * 100);
const bill = (r: Row) => [
  r['people'],
  r['seats'],
  cents(r['credit_cost']),
  cents(r['seat_cost']),
  cents(r['total_cost']),
];

let out: string;
let organization: Row[];
let owners: Map<string, { chargeback: Row[]; teams: Row[] }>;

beforeAll(async () => {
  out = tempDir('orgreport-bill-');
  const run = await cli(['distribute', '--demo', '--plan', PLAN, '--out', out]);
  expect(run.code, run.err).toBe(0);
  const files = readdirSync(out);
  const orgBook = files.find((f) => /^orgreport-acme-robotics-\d{4}-\d\d\.xlsx$/.test(f))!;
  organization = sheetObjects(readWorkbook(join(out, orgBook))['Chargeback']);
  owners = new Map(
    files
      .filter((f) => f.includes('-cost-center-') && f.endsWith('.xlsx'))
      .map((f) => {
        const book = readWorkbook(join(out, f));
        return [f, { chargeback: sheetObjects(book['Chargeback']), teams: sheetObjects(book['Teams']) }];
      }),
  );
}, 300_000);

describe("a cost center's bill", () => {
  it("is the organization's, to the cent, in its owner's workbook, which names it and its teams", () => {
    expect(owners.size).toBe(4);
    for (const [file, book] of owners) {
      expect(book.chargeback, file).toHaveLength(1);
      const own = book.chargeback[0]!;
      const name = String(own['cost_center']);
      expect(file).toContain(
        name
          .toLowerCase()
          .replace(/[^a-z0-9]+/g, '-')
          .replace(/-+$/, ''),
      );
      const inOrganization = organization.find((r) => r['cost_center'] === name)!;
      expect(bill(own), name).toEqual(bill(inOrganization));
      // Its teams by name, none held back, adding up to its bill.
      expect(book.teams.map((t) => String(t['team'])).join(), name).not.toMatch(/held back/);
      expect(
        book.teams.reduce((a, t) => a + cents(t['total_cost']), 0),
        name,
      ).toBe(cents(own['total_cost']));
      expect(
        book.teams.reduce((a, t) => a + Number(t['seats']), 0),
        name,
      ).toBe(own['seats']);
    }
  });

  it("adds up, with the organization's other rows, to the organization's total", () => {
    const ownersTotal = [...owners.values()].reduce((a, b) => a + cents(b.chargeback[0]!['total_cost']), 0);
    const named = new Set([...owners.values()].map((b) => b.chargeback[0]!['cost_center']));
    const rest = organization.filter((r) => !named.has(r['cost_center']));
    // What is left is the money of nobody's cost center: the Unassigned people and seats, and the
    // credits no user row carries. Unassigned has money this month: it must be somewhere.
    expect(rest.map((r) => r['cost_center']).sort()).toEqual(['Not attributed to a user', 'Unassigned']);
    expect(cents(rest.find((r) => r['cost_center'] === 'Unassigned')!['total_cost'])).toBeGreaterThan(0);
    const restTotal = rest.reduce((a, r) => a + cents(r['total_cost']), 0);
    const organizationTotal = organization.reduce((a, r) => a + cents(r['total_cost']), 0);
    expect(ownersTotal + restTotal).toBe(organizationTotal);
  });

  it('reads the same in the PDF of a manager whose people hold the whole cost center', () => {
    // The table's amounts are in the currency its headings name ("Total (USD)").
    const formatted = (v: unknown) =>
      (cents(v) / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    // The head of the organization: everyone but themself is under them.
    const heads = readdirSync(out)
      .filter((f) => f.includes('-manager-') && f.endsWith('.pdf'))
      .map((f) => ({ f, text: pdfText(join(out, f)) }))
      .filter(({ text }) => /Chargeback by cost center/.test(text));
    expect(heads.length).toBeGreaterThan(0);
    const head = heads.sort((a, b) => b.text.length - a.text.length)[0]!;
    const chargeback = head.text.slice(head.text.indexOf('Chargeback by cost center'));
    expect(chargeback.slice(0, 1200)).toContain('(USD)');
    for (const name of ['CC-100 Engineering', 'CC-200 Product']) {
      const row = organization.find((r) => r['cost_center'] === name)!;
      // A long name wraps at its spaces in the table's cell: the row starts with its first word.
      const at = head.text.indexOf(name.split(' ')[0]!);
      expect(at, `${head.f}: ${name}`).toBeGreaterThan(0);
      const line = head.text.slice(at, at + 260);
      expect(line, name).toContain(formatted(row['credit_cost']));
      expect(line, name).toContain(formatted(row['total_cost']));
    }
  });

  it("has an owner for the money no cost center owns: the plan's finance readers get the organization's workbook", async () => {
    const plan = join(out, 'plan-with-finance.yaml');
    writeFileSync(
      plan,
      `${readFileSync(PLAN, 'utf8')}\nfinance:\n  to: [finance@acme-robotics.example.com]\n`,
    );
    const dry = await cli(['distribute', '--demo', '--plan', plan, '--dry-run', '--json']);
    expect(dry.code, dry.err).toBe(0);
    const finance = (JSON.parse(dry.out).deliveries as Array<Record<string, unknown>>).filter(
      (d) => d['recipient'] === 'finance@acme-robotics.example.com',
    );
    // The organization's workbook, every row: its chargeback names who is behind Unassigned.
    expect(finance).toEqual([
      expect.objectContaining({ scope: 'org', formats: ['xlsx'], personRows: 'all' }),
    ]);
  });
});
