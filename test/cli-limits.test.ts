/**
 * `orgreport limits apply` with 250 rows, some invalid: every row accounted for, batches of at most
 * 100; and the round trip from `limits template` through a spreadsheet program back to `limits apply`.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunningEmulator } from '@orgreport/emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, envFor, readWorkbook, smallOrg, tempDir } from './helpers.ts';

let emulator: RunningEmulator;
beforeAll(async () => {
  emulator = await smallOrg({ users: 260, seed: 11 });
});
afterAll(() => emulator?.close());

/**
 * Data rows (1-based, after the header) made invalid on purpose, or left without a limit (199); the
 * CLI names them by line (row + 1).
 */
const INVALID: Record<number, [string, string]> = {
  3: ['not-an-email', '100'],
  50: ['', '100'],
  77: ['@EMAIL@', '-5'],
  120: ['@EMAIL@', 'lots'],
  199: ['@EMAIL@', ''],
  250: ['@DUPLICATE@', '100'],
};

function limitsCsv(): { csv: string; valid: Map<string, number> } {
  const lines = ['email,limit'];
  const valid = new Map<string, number>();
  for (let row = 1; row <= 250; row++) {
    const email = emulator.organization.orgUser(row - 1).email!;
    const bad = INVALID[row];
    if (bad) {
      const cell =
        bad[0] === '@EMAIL@'
          ? email
          : bad[0] === '@DUPLICATE@'
            ? emulator.organization.orgUser(0).email!
            : bad[0];
      lines.push(`${cell},${bad[1]}`);
      continue;
    }
    const limit = 1000 + row;
    valid.set(email.toLowerCase(), limit);
    lines.push(`${email},${limit}`);
  }
  return { csv: `${lines.join('\n')}\n`, valid };
}

describe('orgreport limits apply', () => {
  it('validates 250 rows, names each invalid row, applies the rest in batches of at most 100', async () => {
    const { csv, valid } = limitsCsv();
    const file = join(tempDir(), 'limits.csv');
    writeFileSync(file, csv);
    const before = emulator.requestLog.length;
    const result = await cli(['limits', 'apply', file], { env: envFor(emulator, 'owner') });

    // Only rows of the file were wrong: input error. Row 200's empty limit is none: that user is left.
    expect(result.code).toBe(2);
    const failed = result.out.split('\n').filter((l) => l.startsWith('failed'));
    expect(failed.map((l) => Number(/row (\d+)/.exec(l)?.[1]))).toEqual([4, 51, 78, 121, 251]);
    expect(failed.find((l) => l.includes('row 251'))).toMatch(/duplicate of row 2/);
    expect(failed.find((l) => l.includes('row 78'))).toMatch(/limit "-5" is not a non-negative number/);
    expect(result.out.split('\n').filter((l) => l.startsWith('set'))).toHaveLength(244);
    expect(result.out).toContain('244 set, 1 left as they are (empty limit), 5 failed');

    const puts = emulator.requestLog.slice(before).filter((r) => r.method === 'PUT');
    expect(puts.map((r) => r.status)).toEqual([200, 200, 200]); // 244 entries: 100 + 100 + 44
    for (const [email, limit] of valid) expect(emulator.creditLimits.get(email)).toBe(limit);
    expect(emulator.creditLimits.has(emulator.organization.orgUser(198).email!.toLowerCase())).toBe(false);
    expect(emulator.creditLimits.size).toBe(244);
  });

  it('reports entries the server refuses and exits 1', async () => {
    const file = join(tempDir(), 'limits.json');
    writeFileSync(
      file,
      JSON.stringify([
        { email: emulator.organization.orgUser(5).email, limit: 10 },
        { email: 'nobody@unknown.example', limit: 10 },
      ]),
    );
    const result = await cli(['limits', 'apply', file], { env: envFor(emulator, 'owner') });
    expect(result.code).toBe(1);
    expect(result.out).toMatch(/failed {3}row 2 nobody@unknown\.example: /);
    expect(result.out).toContain('1 set, 0 left as they are (empty limit), 1 failed');
    expect(result.err).toMatch(/1 credit limit\(s\) were not applied\n/);
  });

  it("counts the file's invalid rows in its last line too when the server also refuses some", async () => {
    const file = join(tempDir(), 'limits.csv');
    writeFileSync(file, 'email,limit\nnobody@unknown.example,10\nnot-an-email,10\nx@y.example,-5\n');
    const result = await cli(['limits', 'apply', file], { env: envFor(emulator, 'owner') });
    expect(result.code).toBe(1);
    expect(result.out).toContain('0 set, 0 left as they are (empty limit), 3 failed');
    expect(result.err).toMatch(
      /1 credit limit\(s\) were not applied \(and .*limits\.csv: 2 invalid row\(s\)\)/,
    );
  });

  it('sends nothing with --dry-run', async () => {
    const file = join(tempDir(), 'limits.csv');
    writeFileSync(file, `email,limit\n${emulator.organization.orgUser(9).email},5\n`);
    const before = emulator.requestLog.length;
    const result = await cli(['limits', 'apply', file, '--dry-run'], { env: envFor(emulator, 'owner') });
    expect(result.code).toBe(0);
    expect(result.out).toContain(
      'dry run: 1 to set, 0 left as they are (empty limit), 0 invalid; nothing sent',
    );
    expect(emulator.requestLog.length).toBe(before);
  });

  it('refuses a file without email and limit columns (exit 2)', async () => {
    const file = join(tempDir(), 'limits.csv');
    writeFileSync(file, 'user,amount\na@example.com,5\n');
    const result = await cli(['limits', 'apply', file], { env: envFor(emulator, 'owner') });
    expect(result.code).toBe(2);
    expect(result.err).toMatch(/the first line must name the columns "email" and "limit"/);
  });

  it('applies a template with two limits filled in: sets those two, leaves everyone else, exits 0', async () => {
    const dir = tempDir();
    const file = join(dir, 'limits.xlsx');
    const made = await cli(['limits', 'template', '--month', '2026-10', '--out', file], {
      env: envFor(emulator, 'owner'),
    });
    expect(made.code, made.err).toBe(0);
    // The template says what an empty limit means.
    const instructions = readWorkbook(file).Instructions!.flat().join(' ');
    expect(instructions).toContain('Leave the limit empty to leave that user as they are');
    const users = readWorkbook(file).Limits!.length - 1;
    expect(users).toBe(260);

    // Finance fills in two limits in a spreadsheet program (openpyxl here) and leaves the rest empty.
    const script = `
import sys, openpyxl
wb = openpyxl.load_workbook(sys.argv[1]); ws = wb['Limits']
col = [c.value for c in ws[1]].index('limit') + 1
ws.cell(row=2, column=col, value=1500); ws.cell(row=3, column=col, value=0)
print(ws.cell(row=2, column=1).value); print(ws.cell(row=3, column=1).value)
wb.save(sys.argv[1])`;
    const [first, second] = execFileSync('/usr/bin/python3', ['-c', script, file], { encoding: 'utf8' })
      .trim()
      .split('\n');
    const limitsBefore = new Map(emulator.creditLimits);
    const before = emulator.requestLog.length;
    const applied = await cli(['limits', 'apply', file], { env: envFor(emulator, 'owner') });

    expect(applied.code, applied.err + applied.out).toBe(0);
    expect(applied.out.split('\n').filter((l) => l.length > 0)).toEqual([
      `set      row 2 ${first} 1500`,
      `set      row 3 ${second} 0`,
      `2 set, ${users - 2} left as they are (empty limit), 0 failed`,
    ]);
    const puts = emulator.requestLog.slice(before).filter((r) => r.method === 'PUT');
    expect(puts).toHaveLength(1);
    // Those two changed, nobody else's limit did.
    const changed = [...emulator.creditLimits].filter(([email, limit]) => limitsBefore.get(email) !== limit);
    expect(new Map(changed)).toEqual(
      new Map([
        [first!.toLowerCase(), 1500],
        [second!.toLowerCase(), 0],
      ]),
    );
    expect(emulator.creditLimits.size).toBe(
      limitsBefore.size + changed.filter(([e]) => !limitsBefore.has(e)).length,
    );
  });
});
