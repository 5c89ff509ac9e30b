/** `orgreport limits apply` with 250 rows, some invalid: every row accounted for, batches of at most 100. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunningEmulator } from '@orgreport/emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, envFor, smallOrg, tempDir } from './helpers.ts';

let emulator: RunningEmulator;
beforeAll(async () => {
  emulator = await smallOrg({ users: 260, seed: 11 });
});
afterAll(() => emulator?.close());

/** Data rows (1-based, after the header) made invalid on purpose; the CLI names them by line (row + 1). */
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

    // Only rows of the file were wrong: input error.
    expect(result.code).toBe(2);
    const failed = result.out.split('\n').filter((l) => l.startsWith('failed'));
    expect(failed.map((l) => Number(/row (\d+)/.exec(l)?.[1]))).toEqual([4, 51, 78, 121, 200, 251]);
    expect(failed.find((l) => l.includes('row 251'))).toMatch(/duplicate of row 2/);
    expect(failed.find((l) => l.includes('row 78'))).toMatch(/limit "-5" is not a non-negative number/);
    expect(result.out.split('\n').filter((l) => l.startsWith('updated'))).toHaveLength(244);
    expect(result.out).toContain('244 updated, 6 failed');

    const puts = emulator.requestLog.slice(before).filter((r) => r.method === 'PUT');
    expect(puts.map((r) => r.status)).toEqual([200, 200, 200]); // 244 entries: 100 + 100 + 44
    for (const [email, limit] of valid) expect(emulator.creditLimits.get(email)).toBe(limit);
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
    expect(result.out).toContain('1 updated, 1 failed');
  });

  it('sends nothing with --dry-run', async () => {
    const file = join(tempDir(), 'limits.csv');
    writeFileSync(file, `email,limit\n${emulator.organization.orgUser(9).email},5\n`);
    const before = emulator.requestLog.length;
    const result = await cli(['limits', 'apply', file, '--dry-run'], { env: envFor(emulator, 'owner') });
    expect(result.code).toBe(0);
    expect(result.out).toContain('dry run: 1 valid, 0 invalid; nothing sent');
    expect(emulator.requestLog.length).toBe(before);
  });

  it('refuses a file without email and limit columns (exit 2)', async () => {
    const file = join(tempDir(), 'limits.csv');
    writeFileSync(file, 'user,amount\na@example.com,5\n');
    const result = await cli(['limits', 'apply', file], { env: envFor(emulator, 'owner') });
    expect(result.code).toBe(2);
    expect(result.err).toMatch(/the first line must name the columns "email" and "limit"/);
  });
});
