/** A people directory: teams and chargeback in the PDF, HTML and workbook; bad files refused before any fetch. */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunningEmulator } from '@orgreport/emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, envFor, pdfText, readWorkbook, sheetObjects, smallOrg, tempDir } from './helpers.ts';

let emulator: RunningEmulator;
beforeAll(async () => {
  emulator = await smallOrg({ users: 40 });
});
afterAll(() => emulator?.close());

describe('--directory', () => {
  it('the emulator writes its people directory; the report shows teams and a chargeback that reconciles', async () => {
    const dir = tempDir();
    const people = join(dir, 'people.csv');
    const made = await cli(['emulator', '--seed', '7', '--users', '40', '--directory', people]);
    expect(made.code, made.err).toBe(0);
    const csv = readFileSync(people, 'utf8');
    expect(csv.split('\r\n')[0]).toBe(
      'email,team,cost_center,manager,location,repositories,cost_center_owner,valid_from',
    );
    const again = join(dir, 'again.csv');
    await cli(['emulator', '--seed', '7', '--users', '40', '--directory', again]);
    expect(readFileSync(again, 'utf8')).toBe(csv); // the same people every time

    const out = join(dir, 'out');
    const run = await cli(['monthly', '--month', '2026-10', '--directory', people, '--out', out, '--json'], {
      env: {
        ...envFor(emulator),
        ORGREPORT_PRICE_PER_CREDIT: '0.0000037',
        ORGREPORT_CURRENCY: 'EUR',
        ORGREPORT_PRICE_PER_SEAT: '12.5',
      },
    });
    expect(run.code, run.err).toBe(0);
    const file = (ext: string) => join(out, readdirSync(out).find((f) => f.endsWith(ext))!);
    const model = JSON.parse(readFileSync(file('.json'), 'utf8'));
    const credits = model.figures.find((f: { id: string }) => f.id === 'credits').value as number;
    const seats = model.figures.find((f: { id: string }) => f.id === 'seats').value as number;

    // The workbook, read back by openpyxl: cost centers plus the unattributed row sum to the
    // organization; the total is not a row of the table (a pivot of it is right as it stands).
    const workbook = readWorkbook(file('.xlsx'));
    const parts = sheetObjects(workbook.Chargeback);
    expect(parts.some((r) => r.kind === 'total')).toBe(false);
    const total = model.sections.chargeback.total;
    expect(parts.reduce((s, r) => s + (r.credits as number), 0)).toBe(credits);
    expect(total.credits).toBe(credits);
    expect(parts.reduce((s, r) => s + (r.seats as number), 0)).toBe(seats);
    // To the cent: the organization's cost rounded once, the rows' cents add up to it.
    const cents = (v: unknown) => Math.round((v as number) * 100);
    expect(parts.reduce((s, r) => s + cents(r.credit_cost), 0)).toBe(Math.round(credits * 0.0000037 * 100));
    expect(parts.reduce((s, r) => s + cents(r.seat_cost), 0)).toBe(Math.round(seats * 12.5 * 100));
    expect(cents(total.total_cost)).toBe(cents(total.credit_cost) + cents(total.seat_cost));
    expect(model.sections.chargeback.reconciles).toBe(true);

    const teams = sheetObjects(workbook.Teams);
    expect(teams.length).toBeGreaterThanOrEqual(3);
    expect(teams.reduce((s, r) => s + (r.seats as number), 0)).toBe(seats);
    expect(teams.at(-1)!.team).toBe('Unassigned');

    const pdf = pdfText(file('.pdf'));
    expect(pdf).toContain('Chargeback by cost center');
    expect(pdf).toContain('Autonomy, delegation and readiness by team');
    const html = readFileSync(file('.html'), 'utf8');
    expect(html).toContain('id="teams"');
    // The teams' changes carry the direction's colour class, as the summary's do.
    expect(html.slice(html.indexOf('id="teams"'))).toMatch(/class="num change-(up|down|flat)"/);
    // People the directory does not list are counted under data quality.
    expect(model.dataQuality.some((f: { kind: string }) => f.kind === 'directory_unassigned')).toBe(true);
  });

  it('refuses a directory with bad rows, naming each, before anything is fetched', async () => {
    const dir = tempDir();
    const bad = join(dir, 'people.csv');
    writeFileSync(
      bad,
      [
        'Email,Team,Cost_Center,Manager,Location',
        'ann@x.test,Platform,CC-1,,Berlin',
        'not-an-email,Platform,CC-1,,Berlin',
        'ANN@x.test,Data,CC-2,,Lisbon',
        'bob@x.test,,CC-2,,Lisbon',
        'cy@x.test,Data,CC-2,,Lisbon,extra',
      ].join('\n'),
    );
    const before = emulator.requestLog.length;
    const run = await cli(['monthly', '--month', '2026-10', '--directory', bad, '--out', join(dir, 'out')], {
      env: envFor(emulator),
    });
    expect(run.code).toBe(2);
    expect(run.err).toContain('4 problems in the people directory (nothing was fetched)');
    expect(run.err).toContain('row 3: email "not-an-email" is not an e-mail address');
    expect(run.err).toContain('row 4: ANN@x.test is listed again (first on row 2)');
    expect(run.err).toContain('row 5: team is empty');
    expect(run.err).toContain('row 6: has 6 values but the header names 5 columns');
    expect(emulator.requestLog.length).toBe(before);
    // A directory that is not there is named by its flag.
    const absent = await cli(['monthly', '--month', '2026-10', '--directory', join(dir, 'nosuch.csv')], {
      env: envFor(emulator),
    });
    expect(absent.code).toBe(2);
    expect(absent.err).toMatch(/^orgreport: --directory \S*nosuch\.csv: cannot be read \(ENOENT\)/m);

    writeFileSync(bad, 'email,team\nann@x.test,Platform\n');
    const missing = await cli(['monthly', '--directory', bad], { env: envFor(emulator) });
    expect(missing.code).toBe(2);
    expect(missing.err).toContain('lacks cost_center, manager');
  });
});
