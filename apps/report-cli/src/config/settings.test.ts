import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UsageError } from '@orgreport/pipeline/errors';
import { describe, expect, it } from 'vitest';
import { createProgram } from '../program.ts';
import { memoryIo } from '../testing.ts';
import { resolveConfig } from './config.ts';
import { flagName, flagProperty, SETTINGS, type SettingKey, settingsMarkdown } from './settings.ts';

const KEYS = Object.keys(SETTINGS) as SettingKey[];
const now = () => new Date('2026-11-22T06:00:00Z');
// Values at least one of which every setting refuses (an empty text, a wrong kind, a negative number).
const BAD = ['   ', 'not valid ✗', '-1'];

/** The message of the first refusal of `BAD` by `attempt`, or undefined if every value passed. */
function refusal(attempt: (value: string) => unknown): string | undefined {
  for (const value of BAD) {
    try {
      attempt(value);
    } catch (error) {
      if (error instanceof UsageError) return error.message;
      throw error;
    }
  }
  return undefined;
}

describe('the settings table', () => {
  it("is what the manual's configuration page shows", () => {
    const page = readFileSync(new URL('../../../../docs/configuration.md', import.meta.url), 'utf8');
    // `pnpm --filter @orgreport/cli settings-docs` rewrites it.
    expect(page).toContain(settingsMarkdown());
  });

  it.each(KEYS)('%s: its variable, its flag and its config key are read and named in errors', (key) => {
    const { env } = SETTINGS[key];
    const cwd = mkdtempSync(join(tmpdir(), 'orgreport-settings-'));
    expect(refusal((v) => resolveConfig({}, { env: { [env]: v }, now, cwd }))).toMatch(
      new RegExp(`^${env}: `),
    );
    const property = flagProperty(key);
    if (property) {
      expect(refusal((v) => resolveConfig({ [property]: v }, { env: {}, now, cwd }))).toMatch(
        new RegExp(`^${flagName(key)}: `),
      );
    }
    const file = join(cwd, 'orgreport.config.json');
    expect(
      refusal((v) => {
        writeFileSync(file, JSON.stringify({ [key]: v }));
        return resolveConfig({}, { env: {}, now, cwd });
      }),
    ).toContain(`${file}: ${key}`);
  });

  it('gives every flag of the table to a command, with its variable in the help', () => {
    const program = createProgram({ io: memoryIo(), secrets: new Set(), onStop: () => () => false });
    // A flag's help on every command that has it (`limits template --out` is a file of its own).
    const helps = new Map<string, string[]>();
    const visit = (command: typeof program) => {
      for (const option of command.options) {
        helps.set(option.long ?? '', [...(helps.get(option.long ?? '') ?? []), option.description]);
      }
      for (const sub of command.commands) visit(sub);
    };
    visit(program);
    for (const key of KEYS) {
      const flag = flagName(key);
      if (!flag) continue;
      expect(
        helps.get(flag)?.some((help) => help.includes(SETTINGS[key].env)),
        flag,
      ).toBe(true);
    }
  });
});
