/**
 * Who the monthly report's readers may see, through the CLI: the organization report names everyone
 * (nothing withheld); a scoped report names nobody outside its scope, wherever the model would have
 * named them (the organization's identities are gathered for such a reader only).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunningEmulator } from '@orgreport/emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, envFor, tempDir } from './helpers.ts';

let emulator: RunningEmulator;
beforeAll(async () => {
  const { startEmulator } = await import('@orgreport/emulator');
  emulator = await startEmulator({ seed: 11, users: 40, today: '2026-11-22' });
});
afterAll(async () => {
  await emulator?.close();
});

const EMAIL = /[a-z0-9.]+@acme-robotics\.example\.com/g;
/** Places where someone was withheld; the privacy definition names the word once itself. */
const withheld = (text: string) => text.split('(withheld)').length - 2;

/** The JSON document of a monthly run with `args`, as text. */
async function reportText(args: string[]): Promise<string> {
  const out = tempDir('orgreport-readers-');
  const run = await cli(['monthly', '--month', '2026-10', '--formats', 'json', '--out', out, ...args], {
    env: envFor(emulator),
  });
  expect(run.code, run.err).toBe(0);
  return readFileSync(join(out, readdirSync(out).find((f) => f.endsWith('.json'))!), 'utf8');
}

describe('monthly, its readers', () => {
  it('names everyone in the organization report, and nobody outside the scope in a scoped one', async () => {
    const dir = tempDir('orgreport-readers-');
    const people = join(dir, 'people.csv');
    expect((await cli(['emulator', '--seed', '11', '--users', '40', '--directory', people])).code).toBe(0);
    const rows = readFileSync(people, 'utf8').trim().split('\n').slice(1);
    const inScope = new Set(
      rows.filter((r) => r.split(',')[2] === 'CC-100 Engineering').map((r) => r.split(',')[0]),
    );
    expect(inScope.size).toBe(12);

    const organization = await reportText(['--directory', people]);
    expect(withheld(organization)).toBe(0);
    const named = new Set(organization.match(EMAIL));
    expect([...named].some((e) => !inScope.has(e))).toBe(true);

    const scoped = await reportText(['--directory', people, '--scope', 'cost-center:CC-100 Engineering']);
    expect(withheld(scoped)).toBeGreaterThan(0);
    const outside = [...new Set(scoped.match(EMAIL))].filter((e) => !inScope.has(e));
    expect(outside).toEqual([]);
  }, 60_000);
});
