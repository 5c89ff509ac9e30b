/**
 * What the CLI records in the store: every `sync` run (good or failed, under the organization's id
 * even when it failed before learning it, the key never in it) and every credit limit `limits
 * apply` set (only what the API accepted, batch by batch, in a file only its owner reads), read
 * back with the store's own readers.
 */
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunningEmulator } from '@orgreport/emulator';
import { readLimits, readSyncRuns } from '@orgreport/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, envFor, smallOrg, TODAY, tempDir } from './helpers.ts';

/** The CLI's clock in the helpers: 09:00 UTC on TODAY. */
const AT = `${TODAY}T09:00:00.000Z`;

function jsonLines(path: string): Array<Record<string, unknown>> {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l));
}

describe('sync runs in the store', () => {
  let good: RunningEmulator;
  let failing: RunningEmulator;
  beforeAll(async () => {
    // The same seed: the same organization, once served well and once failing every request.
    [good, failing] = await Promise.all([
      smallOrg({ users: 14 }),
      smallOrg({ users: 14, faults: { rate: 1, retryAfterSeconds: 1 } }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([good?.close(), failing?.close()]);
  });

  it('a good run is ok with the last day held; a failing one is not, under the same id by its name', async () => {
    const store = join(tempDir(), 'store');
    const orgId = good.organization.orgId;
    const runs = join(store, '_sync', `org_id=${orgId}`, 'runs.jsonl');
    const name = ['--org-name', 'Records Org'];

    const ok = await cli(
      ['sync', '--store', store, '--since', '2026-11-01', '--until', '2026-11-10', ...name],
      {
        env: envFor(good),
      },
    );
    expect(ok.code, ok.err).toBe(0);
    expect(jsonLines(runs)).toEqual([{ at: AT, day: TODAY, ok: true, through: '2026-11-10' }]);

    // Every request fails, the first one too: the run never learns the id from the API, and is
    // recorded under the id the store knows for "Records Org".
    const failed = await cli(['sync', '--store', store, '--max-retries', '0', ...name], {
      env: envFor(failing),
    });
    expect(failed.code).toBe(1);
    const [, record] = jsonLines(runs);
    expect(record).toMatchObject({ at: AT, day: TODAY, ok: false, through: '2026-11-10' });
    expect(record!.error).toMatch(/analytics\.activity failed/);
    expect(JSON.stringify(record)).not.toContain(failing.keys.manager);

    expect(await readSyncRuns(store, orgId, { last: 1 })).toEqual([record]);
    expect(await readSyncRuns(store, orgId)).toHaveLength(2);
  });

  it('a failure before the id is known, of a name the store does not know: under the name as a slug', async () => {
    const store = join(tempDir(), 'store');
    const failed = await cli(
      ['sync', '--store', store, '--max-retries', '0', '--org-name', 'Brand New Org!'],
      {
        env: envFor(failing),
      },
    );
    expect(failed.code).toBe(1);
    const [record] = jsonLines(join(store, '_sync', 'org_id=brand-new-org', 'runs.jsonl'));
    expect(record).toMatchObject({ at: AT, day: TODAY, ok: false, through: null });
    expect(await readSyncRuns(store, 'brand-new-org')).toEqual([record]);
  });

  it('a failure after the id is known (the config file gives it), with the key masked in the error', async () => {
    const dir = tempDir();
    const store = join(dir, 'store');
    const key = 'test-token-records-123';
    const config = join(dir, 'orgreport.config.json');
    // The key in the address's path: the connection error names the address, and so the key.
    writeFileSync(
      config,
      JSON.stringify({
        organizations: [
          {
            name: 'Keyed Org',
            id: 'org_keyed',
            apiKeyEnv: 'KEYED_KEY',
            baseUrl: `http://127.0.0.1:9/${key}/`,
          },
        ],
      }),
    );
    const failed = await cli(
      ['sync', '--store', store, '--config', config, '--max-retries', '0', '--since', '2026-11-20'],
      {
        env: { KEYED_KEY: key },
      },
    );
    expect(failed.code).toBe(1);
    const [record] = jsonLines(join(store, '_sync', 'org_id=org_keyed', 'runs.jsonl'));
    expect(record).toMatchObject({ ok: false, through: null });
    expect(record!.error).toMatch(/127\.0\.0\.1:9/);
    expect(record!.error).not.toContain(key);
    expect(failed.err).not.toContain(key);
  });
});

describe('credit limits in the store', () => {
  let emulator: RunningEmulator;
  beforeAll(async () => {
    emulator = await smallOrg({ users: 130, seed: 11 });
  });
  afterAll(() => emulator?.close());

  const email = (i: number) => emulator.organization.orgUser(i).email!;

  /** 125 rows: 123 valid known users (two batches), one invalid row, one e-mail the API refuses. */
  function limitsFile(): string {
    const lines = ['email,limit'];
    for (let i = 0; i < 123; i++) lines.push(`${email(i)},${1000 + i}`);
    lines.push(`${email(123)},-5`);
    lines.push('nobody@unknown.example,10');
    const file = join(tempDir(), 'limits.csv');
    writeFileSync(file, `${lines.join('\n')}\n`);
    return file;
  }

  it('records every limit the API accepted, only those, in a file only its owner reads', async () => {
    const store = join(tempDir(), 'store');
    const file = limitsFile();
    const orgId = emulator.organization.orgId;
    const records = join(store, '_limits', `org_id=${orgId}`, 'limits.jsonl');

    const dry = await cli(['limits', 'apply', file, '--store', store, '--dry-run'], {
      env: envFor(emulator, 'owner'),
    });
    expect(dry.code).toBe(2);
    expect(() => statSync(records)).toThrow(/ENOENT/);

    const applied = await cli(['limits', 'apply', file, '--store', store], {
      env: envFor(emulator, 'owner'),
    });
    expect(applied.code).toBe(1); // one e-mail refused
    expect(applied.out).toContain('123 set, 0 left as they are (empty limit), 2 failed');
    const lines = jsonLines(records);
    expect(lines).toHaveLength(123);
    expect(lines[0]).toEqual({ day: TODAY, at: AT, email: email(0), limit: 1000 });
    expect(lines.map((l) => l.email)).not.toContain('nobody@unknown.example');
    expect(lines.map((l) => l.email)).not.toContain(email(123));
    expect(statSync(records).mode & 0o777).toBe(0o600);

    // Again through ORGREPORT_STORE, one user's e-mail in capitals with a new limit: the latest wins.
    const again = join(tempDir(), 'limits.csv');
    writeFileSync(again, `email,limit\n${email(5).toUpperCase()},42\n`);
    const second = await cli(['limits', 'apply', again], {
      env: { ...envFor(emulator, 'owner'), ORGREPORT_STORE: store },
    });
    expect(second.code, second.err).toBe(0);
    const limits = await readLimits(store, orgId);
    expect(limits.size).toBe(123);
    expect(limits.get(email(5).toLowerCase())).toEqual({
      day: TODAY,
      at: AT,
      email: email(5).toUpperCase(),
      limit: 42,
    });
    expect(limits.get(email(6).toLowerCase())?.limit).toBe(1006);
    expect(jsonLines(records)).toHaveLength(124);
  });

  it('a key that cannot read the organization id sends nothing (its exit code: 3)', async () => {
    const store = join(tempDir(), 'store');
    const before = emulator.requestLog.filter((r) => r.method === 'PUT').length;
    const run = await cli(['limits', 'apply', limitsFile(), '--store', store], {
      env: envFor(emulator, 'member'),
    });
    expect(run.code).toBe(3);
    expect(run.err).toMatch(/nothing sent: the limits are recorded in the store .* by organization id/);
    expect(emulator.requestLog.filter((r) => r.method === 'PUT').length).toBe(before);
  });

  it('a batch that cannot be recorded stops the sending and says which rows were set', async () => {
    const store = join(tempDir(), 'store');
    // The record file is a folder: the first batch is set, then cannot be recorded.
    mkdirSync(join(store, '_limits', `org_id=${emulator.organization.orgId}`, 'limits.jsonl'), {
      recursive: true,
    });
    const before = emulator.requestLog.filter((r) => r.method === 'PUT').length;
    const run = await cli(['limits', 'apply', limitsFile(), '--store', store], {
      env: envFor(emulator, 'owner'),
    });
    expect(run.code).toBe(1);
    expect(emulator.requestLog.filter((r) => r.method === 'PUT').length - before).toBe(1);
    expect(run.err).toMatch(
      /the limits of row\(s\) 2, 3, .*, 101 were set but could not be recorded in the store/,
    );
    expect(run.out).toMatch(/failed {3}row 102 .*: not sent: an earlier batch failed/);
  });
});
