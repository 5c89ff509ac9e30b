/**
 * Bad input: every case of `bad-input-cases.ts` gets its message and exit code, and
 * the manual's Bad input page (docs/bad-input.md) holds exactly the table of those cases (so the documentation cannot drift).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunningEmulator } from '@orgreport/emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { smallOrg } from '../helpers.ts';
import { BAD_INPUT_CASES, type BadInputCase, badInputRows, markdownTableRows } from './bad-input-cases.ts';
import { runBadInput } from './bad-input-run.ts';

let emulator: RunningEmulator;
beforeAll(async () => {
  emulator = await smallOrg({ users: 20 });
});
afterAll(() => emulator?.close());

describe('bad input', () => {
  it.each(BAD_INPUT_CASES.map((c) => [`${c.kind}: ${c.input}`, c] as [string, BadInputCase]))(
    '%s',
    async (_name, c) => {
      const result = await runBadInput(c, emulator);
      expect(result.code, result.err).toBe(c.exitCode);
      expect(`${result.err}\n${result.out}`).toContain(c.message);
      // Every failure is reported on stderr after "orgreport: ", never as a stack trace.
      expect(result.err).toMatch(/^orgreport: /m);
      expect(result.err).not.toMatch(/^\s+at .+\(.+:\d+:\d+\)$/m);
    },
  );

  it("the manual's Bad input page holds the table of exactly these cases", () => {
    const page = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'bad-input.md'), 'utf8');
    const section = page.split(/^## /m).find((s) => s.startsWith('Bad input from you\n'));
    expect(section, 'docs/bad-input.md has a "## Bad input from you" section').toBeDefined();
    expect(markdownTableRows(section ?? '')).toEqual(badInputRows());
  });
});
