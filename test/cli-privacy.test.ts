/**
 * Pseudonyms and file access through the CLI: `--pseudonymize` leaves no real e-mail, user id or
 * name in any file of two months' reports (snapshots included) or in anything printed, nor the key;
 * the same person has the same pseudonym in both months, so they join. Files a run creates are
 * readable by their owner only, or by the group with `--file-access group`.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { RunningEmulator } from '@orgreport/emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, documentText, envFor, tempDir } from './helpers.ts';

const KEY = 'a-test-key-that-is-long-enough';

let emulator: RunningEmulator;
beforeAll(async () => {
  const { startEmulator } = await import('@orgreport/emulator');
  emulator = await startEmulator({ seed: 11, users: 40, today: '2026-11-22' });
});
afterAll(async () => {
  await emulator?.close();
});

/** Every file under `dir`, recursively. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(join(dir, e.name)) : [join(dir, e.name)],
  );
}

describe('--pseudonymize', () => {
  it('leaves no e-mail, user id, name or key in any output of two months, and the months join', async () => {
    const listed = await cli(['api', 'users', 'list', '--all'], { env: envFor(emulator) });
    const users = listed.out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { id: string; email: string; firstName?: string; lastName?: string });
    expect(users.length).toBe(40);
    const dir = tempDir('orgreport-pseudonyms-');
    const people = join(dir, 'people.csv');
    expect((await cli(['emulator', '--seed', '11', '--users', '40', '--directory', people])).code).toBe(0);
    const env = { ...envFor(emulator), ORGREPORT_PSEUDONYM_KEY: KEY };
    const months = ['2026-09', '2026-10'];
    const printed: string[] = [];
    for (const month of months) {
      const run = await cli(
        [
          'monthly',
          '--month',
          month,
          '--pseudonymize',
          '--directory',
          people,
          '--out',
          join(dir, month),
          '-v',
        ],
        { env },
      );
      expect(run.code, run.err).toBe(0);
      printed.push(run.out, run.err);
    }
    const texts = [
      ...printed,
      ...months.flatMap((m) => filesUnder(join(dir, m))).map((f) => `${f}\n${documentText(f)}`),
    ];
    for (const text of texts) {
      const lower = text.toLowerCase();
      const where = text.slice(0, text.indexOf('\n'));
      expect(lower.includes(KEY), `the key in ${where}`).toBe(false);
      for (const u of users) {
        expect(lower.includes(u.email.toLowerCase()), `${u.email} in ${where}`).toBe(false);
        expect(lower.includes(u.id.toLowerCase()), `${u.id} in ${where}`).toBe(false);
        const name = `${u.firstName ?? ''} ${u.lastName ?? ''}`.trim();
        if (name.includes(' ')) expect(text.includes(name), `${name} in ${where}`).toBe(false);
      }
    }
    // The months join on the pseudonyms: the users of both months are the same people by pseudonym
    // as by their real ids in the same months' plain reports.
    const model = (sub: string) =>
      JSON.parse(
        readFileSync(
          filesUnder(join(dir, sub)).find((f) => f.endsWith('.json') && !f.includes('snapshot'))!,
          'utf8',
        ),
      ) as {
        users: Array<{ user_id: string; email: string }>;
      };
    const [september, october] = months.map((m) => model(m));
    const both = september!.users.filter((u) => october!.users.some((o) => o.user_id === u.user_id));
    for (const month of months) {
      const run = await cli(
        ['monthly', '--month', month, '--formats', 'json', '--out', join(dir, `plain-${month}`)],
        {
          env: envFor(emulator),
        },
      );
      expect(run.code, run.err).toBe(0);
    }
    const [plainSeptember, plainOctober] = months.map((m) => model(`plain-${m}`));
    const plainBoth = plainSeptember!.users.filter((u) =>
      plainOctober!.users.some((o) => o.user_id === u.user_id),
    );
    expect(both.length).toBe(plainBoth.length);
    expect(both.length).toBeGreaterThan(5);
    for (const u of both) expect(u.user_id).toMatch(/^u-[a-z2-7]{12}$/);
  }, 180_000);

  it('refuses --pseudonymize without a key of 16 characters, naming the variable and not the value', async () => {
    const run = await cli(['monthly', '--pseudonymize', '--out', tempDir()], {
      env: { ...envFor(emulator), ORGREPORT_PSEUDONYM_KEY: 'short-key' },
    });
    expect(run.code).toBe(2);
    expect(run.err).toContain('ORGREPORT_PSEUDONYM_KEY');
    expect(run.err).not.toContain('short-key');
  });
});

describe('--scope', () => {
  it('refuses a scope the directory does not know, or one under the minimum group size, before any request', async () => {
    const dir = tempDir('orgreport-scope-');
    const people = join(dir, 'people.csv');
    expect((await cli(['emulator', '--seed', '11', '--users', '40', '--directory', people])).code).toBe(0);
    const before = emulator.requestLog.length;
    const unknown = await cli(['monthly', '--directory', people, '--scope', 'team:Nope', '--out', dir], {
      env: envFor(emulator),
    });
    expect(unknown.code).toBe(2);
    expect(unknown.err).toMatch(
      /--scope team:Nope: .*no team "Nope" in the directory; it knows .*Leadership/,
    );
    const small = await cli(['monthly', '--directory', people, '--scope', 'team:Leadership', '--out', dir], {
      env: envFor(emulator),
    });
    expect(small.code).toBe(2);
    expect(small.err).toContain('3 people on 2026-10-31, fewer than the minimum group size of 5');
    const manager = await cli(
      ['monthly', '--directory', people, '--scope', 'manager:nobody@x.test', '--out', dir],
      { env: envFor(emulator) },
    );
    expect(manager.code).toBe(2);
    expect(manager.err).toMatch(/no manager "nobody@x.test"/);
    expect(emulator.requestLog.length).toBe(before);
  });

  it('names a report without person rows -groups, as distribute does', async () => {
    const out = tempDir('orgreport-groups-');
    const run = await cli(
      [
        'monthly',
        '--demo',
        '--scope',
        'team:Payments',
        '--person-rows',
        'none',
        '--formats',
        'json',
        '--out',
        out,
      ],
      { env: {} },
    );
    expect(run.code, run.err).toBe(0);
    expect(readdirSync(out).filter((f) => f.endsWith('.json'))).toEqual([
      'orgreport-acme-robotics-2026-10-team-payments-groups.json',
    ]);
  });
});

describe('file access', () => {
  it('creates reports, snapshots and the store readable by their owner only, or by the group when asked', async () => {
    const dir = tempDir('orgreport-access-');
    const mode = (f: string) => statSync(f).mode & 0o777;
    const owner = await cli(['monthly', '--formats', 'json,xlsx', '--out', join(dir, 'owner')], {
      env: envFor(emulator),
    });
    expect(owner.code, owner.err).toBe(0);
    const ownerFiles = filesUnder(join(dir, 'owner'));
    expect(ownerFiles.length).toBeGreaterThan(3);
    for (const f of ownerFiles) expect(mode(f), f).toBe(0o600);
    expect(mode(join(dir, 'owner', 'snapshot'))).toBe(0o700);
    const synced = await cli(['sync', '--store', join(dir, 'store'), '--since', '2026-10-01'], {
      env: envFor(emulator),
    });
    expect(synced.code, synced.err).toBe(0);
    const stored = filesUnder(join(dir, 'store'));
    expect(stored.some((f) => f.endsWith('.parquet'))).toBe(true);
    for (const f of stored.filter((f) => !f.endsWith('.lock'))) expect(mode(f) & 0o077, f).toBe(0);

    const group = await cli(
      ['monthly', '--formats', 'json', '--out', join(dir, 'group'), '--file-access', 'group'],
      {
        env: envFor(emulator),
      },
    );
    expect(group.code, group.err).toBe(0);
    for (const f of filesUnder(join(dir, 'group'))) expect(mode(f), f).toBe(0o640);
    // The modes as `ls` shows them, for the record.
    expect(execFileSync('stat', ['-c', '%A', ownerFiles[0]!], { encoding: 'utf8' }).trim()).toBe(
      '-rw-------',
    );
  }, 180_000);
});
