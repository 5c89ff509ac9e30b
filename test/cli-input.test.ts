/**
 * Bad input gets a clear message and the documented exit code (2 usage or input, 3 authentication or
 * permission), through the CLI's public entry `run()` against the emulator.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunningEmulator } from '@orgreport/emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, envFor, smallOrg, tempDir } from './helpers.ts';

let emulator: RunningEmulator;
beforeAll(async () => {
  emulator = await smallOrg();
});
afterAll(() => emulator?.close());

describe('orgreport monthly with bad input', () => {
  it.each([
    ['2026-13', 2, /--month "2026-13" is invalid: expected a month as YYYY-MM with MM from 01 to 12/],
    [
      '2026-11',
      2,
      /the month is not over \(data runs up to 2026-11-21\); ask for a partial report \(--partial\) or choose 2026-10/,
    ],
    ['2025-12', 2, /analytics data starts on 2026-01-14; choose a later month/],
  ])('--month %s exits %i with a message naming the month', async (month, code, message) => {
    const out = tempDir();
    const requestsBefore = emulator.requestLog.length;
    const result = await cli(['monthly', '--month', month, '--out', out], { env: envFor(emulator) });
    expect(result.code).toBe(code);
    expect(result.err).toMatch(message);
    expect(emulator.requestLog.length).toBe(requestsBefore); // refused before any request
  });

  it('a missing key exits 3 and says which setting to set', async () => {
    const { ORGREPORT_API_KEY: _key, ...env } = envFor(emulator);
    const result = await cli(['monthly', '--month', '2026-10', '--out', tempDir()], { env });
    expect(result.code).toBe(3);
    expect(result.err).toMatch(/no API key: set ORGREPORT_API_KEY/);
  });

  it('a key pasted with its line break exits 3, says so before any request, and prints no part of it', async () => {
    const env = envFor(emulator);
    const requestsBefore = emulator.requestLog.length;
    const result = await cli(['monthly', '--month', '2026-10', '--out', tempDir()], {
      env: { ...env, ORGREPORT_API_KEY: `${env.ORGREPORT_API_KEY}\nsecond-line` },
    });
    expect(result.code, result.err).toBe(3);
    expect(result.err).toMatch(/the API key holds a line break, a space or another character no key has/);
    expect(result.err).not.toMatch(/network|Check the base URL/);
    expect(result.err + result.out).not.toContain(env.ORGREPORT_API_KEY!);
    expect(result.err + result.out).not.toContain('second-line');
    expect(emulator.requestLog.length).toBe(requestsBefore);
  });

  it('a member key exits 3 and says which role is needed, without printing the key', async () => {
    const out = tempDir();
    const result = await cli(['monthly', '--month', '2026-10', '--out', out], {
      env: envFor(emulator, 'member'),
    });
    expect(result.code).toBe(3);
    expect(result.err).toMatch(/403/);
    expect(result.err).toMatch(/Manager or Owner role/);
    expect(result.err).not.toContain(emulator.keys.member);
  });

  it('an unknown key exits 3', async () => {
    const env = { ...envFor(emulator), ORGREPORT_API_KEY: 'test-key-unknown' };
    const result = await cli(['api', 'computers', 'list'], { env });
    expect(result.code).toBe(3);
    expect(result.err).toMatch(/401.*Check the API key/);
    expect(result.err).not.toContain('test-key-unknown');
  });

  it('a partial report of the current month is possible when asked for', async () => {
    const out = tempDir();
    const result = await cli(['fetch', '--month', '2026-11', '--partial', '--out', out], {
      env: envFor(emulator),
    });
    expect(result.code).toBe(0);
    expect(result.err).toMatch(/2026-11 \(partial\)/);
  });
});

describe('where a run writes', () => {
  it('refuses, before any request, an output folder that is a file and a snapshot folder holding other files, and deletes neither', async () => {
    const dir = tempDir();
    const file = join(dir, 'precious.txt');
    writeFileSync(file, 'keep me\n');
    const notes = join(dir, 'notes');
    mkdirSync(notes);
    writeFileSync(join(notes, 'thesis.md'), 'keep me too\n');
    const other = join(dir, 'other');
    mkdirSync(join(other, 'snapshot'), { recursive: true });
    writeFileSync(join(other, 'snapshot', 'thesis.md'), 'and me\n');
    const before = emulator.requestLog.length;
    const cases: Array<[string[], RegExp]> = [
      [
        ['fetch', '--month', '2026-10', '--snapshot', file],
        /the snapshot folder .*precious\.txt is a file, not a folder/,
      ],
      [
        ['fetch', '--month', '2026-10', '--snapshot', notes],
        /the snapshot folder .*notes holds files that are not a snapshot \(no manifest\.json\)/,
      ],
      [
        ['monthly', '--month', '2026-10', '--out', file],
        /the output folder .*precious\.txt is a file, not a folder/,
      ],
      [
        ['monthly', '--month', '2026-10', '--out', other],
        /the snapshot folder .*snapshot holds files that are not a snapshot/,
      ],
    ];
    for (const [args, message] of cases) {
      const run = await cli(args, { env: envFor(emulator) });
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.err, args.join(' ')).toMatch(message);
    }
    expect(emulator.requestLog.length).toBe(before);
    expect(readFileSync(file, 'utf8')).toBe('keep me\n');
    expect(readFileSync(join(notes, 'thesis.md'), 'utf8')).toBe('keep me too\n');
    expect(readFileSync(join(other, 'snapshot', 'thesis.md'), 'utf8')).toBe('and me\n');
    // A snapshot folder is replaced by the next run's, as before.
    const out = join(dir, 'report');
    for (let i = 0; i < 2; i++) {
      const run = await cli(['monthly', '--month', '2026-10', '--formats', 'json', '--out', out], {
        env: envFor(emulator),
      });
      expect(run.code, run.err).toBe(0);
    }
    expect(readdirSync(join(out, 'snapshot'))).toContain('manifest.json');
  });

  it('says that --attach-xlsx does nothing in a run that sends nothing', async () => {
    const run = await cli(
      ['monthly', '--month', '2026-10', '--formats', 'json', '--attach-xlsx', '--out', tempDir()],
      {
        env: envFor(emulator),
      },
    );
    expect(run.code, run.err).toBe(0);
    expect(run.err).toContain('--attach-xlsx adds the workbook to what is sent: this run sends nothing');
  });
});

describe('orgreport api', () => {
  it('prints one JSON object per line and follows pages with --all', async () => {
    const firstPage = await cli(['api', 'users', 'list', '--limit', '7'], { env: envFor(emulator) });
    expect(firstPage.code).toBe(0);
    expect(firstPage.out.trim().split('\n')).toHaveLength(7);
    const all = await cli(['api', 'users', 'list', '--limit', '7', '--all'], { env: envFor(emulator) });
    const users = all.out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(users).toHaveLength(30);
    expect(new Set(users.map((u) => u.id)).size).toBe(30);
  });

  it('stops at --max-items', async () => {
    const result = await cli(
      [
        'api',
        'analytics',
        'users',
        '--start-date',
        '2026-10-01',
        '--end-date',
        '2026-10-31',
        '--all',
        '--max-items',
        '5',
      ],
      { env: envFor(emulator) },
    );
    expect(result.code).toBe(0);
    const rows = result.out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(rows).toHaveLength(5);
    expect(rows.every((r) => r.date >= '2026-10-01' && r.date <= '2026-10-31')).toBe(true);
  });

  it('groups analytics rows with --group-by and refuses a value the endpoint does not allow (exit 2)', async () => {
    const args = ['api', 'analytics', 'activity', '--start-date', '2026-10-01', '--end-date', '2026-10-01'];
    const grouped = await cli([...args, '--group-by', 'client'], { env: envFor(emulator) });
    expect(grouped.code).toBe(0);
    const rows = grouped.out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(rows.every((r) => typeof r.group_key === 'string' && r.date === '2026-10-01')).toBe(true);
    const bad = await cli([...args, '--group-by', 'model'], { env: envFor(emulator) });
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/Allowed choices are client/);
  });

  it('creates, reads and updates a session', async () => {
    const env = envFor(emulator, 'owner');
    const computers = (await cli(['api', 'computers', 'list'], { env })).out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(computers.length).toBeGreaterThan(0);
    const created = await cli(
      [
        'api',
        'sessions',
        'create',
        '--computer-id',
        computers[0].id,
        '--cwd',
        '/repo',
        '--settings',
        '{"model":"m1"}',
      ],
      { env },
    );
    expect(created.code).toBe(0);
    const session = JSON.parse(created.out);
    const updated = await cli(
      ['api', 'sessions', 'update', session.sessionId, '--settings', '{"runInWorktree":true}'],
      { env },
    );
    expect(updated.code).toBe(0);
    const got = JSON.parse((await cli(['api', 'sessions', 'get', session.sessionId], { env })).out);
    expect(got.sessionId).toBe(session.sessionId);
    expect(got.sessionSettings?.runInWorktree).toBe(true);
    const badJson = await cli(['api', 'sessions', 'update', session.sessionId, '--settings', '{model'], {
      env,
    });
    expect(badJson.code).toBe(2);
    expect(badJson.err).toMatch(/--settings: not valid JSON/);
  });

  it('limits set --file takes a CSV of email,limit and prints updated and errors as JSON', async () => {
    const file = join(tempDir(), 'limits.csv');
    writeFileSync(
      file,
      `email,limit\n${emulator.organization.orgUser(2).email},700\nnobody@unknown.example,5\n`,
    );
    const result = await cli(['api', 'limits', 'set', '--file', file], { env: envFor(emulator, 'owner') });
    expect(result.code).toBe(1);
    const body = JSON.parse(result.out);
    expect(body.updated).toEqual([{ email: emulator.organization.orgUser(2).email, limit: 700 }]);
    expect(body.errors.map((e: { email: string }) => e.email)).toEqual(['nobody@unknown.example']);
  });

  it('refuses analytics dates that are not real days before today (exit 2)', async () => {
    const result = await cli(
      ['api', 'analytics', 'tokens', '--start-date', '2026-02-30', '--end-date', '2026-03-01'],
      {
        env: envFor(emulator),
      },
    );
    expect(result.code).toBe(2);
    expect(result.err).toMatch(/startDate "2026-02-30" is invalid/);
  });
});
