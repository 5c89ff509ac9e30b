/**
 * Exactly once across machines that share no disk: `orgreport distribute --shard K/4` as four
 * processes, each in a temporary folder of its own, sharing only the ledger (S3 with conditional
 * writes, then Postgres) and a loopback SMTP server. Two of them are killed with SIGKILL while the
 * server holds its reply to a mail (the send under way, its outcome never recorded); once their
 * claims' lease has run out, all four run again at once and, on a fifth machine at the same time, a
 * plain run without shards (so every delivery left is contested by two runs, while the server takes
 * its time over each mail); then another plain run. Every manager ends with exactly one mail by
 * Message-ID; a mail arrives twice only where the ledger named its delivery unknown (sent again with
 * the same Message-ID), and the last run sends nothing. With claims that are not conditional (a store
 * that ignores If-None-Match and If-Match) the contested deliveries go twice, and this test fails.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RunningEmulator } from '@orgreport/emulator';
import { startPostgres, type TestPostgres } from '@orgreport/test-servers/postgres';
import { startS3, type TestS3 } from '@orgreport/test-servers/s3';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cli, envFor, tempDir } from './helpers.ts';
import { type ReceivedMail, startSmtp, type TestSmtp } from './smtp.ts';

const bin = fileURLToPath(new URL('../apps/report-cli/bin/orgreport.js', import.meta.url));
const SHARDS = 4;
/** Seconds a claim stands with no outcome: the killed runs' claims run out this long after. */
const LEASE = 3;
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

let emulator: RunningEmulator;
let smtp: TestSmtp;
let s3: TestS3;
let pg: TestPostgres;
let people: string;
let plan: string;
/** Recipients whose first mail the server holds its reply to, and the releases of those held. */
const holdFor = new Set<string>();
const held = new Map<string, () => void>();

beforeAll(async () => {
  const { startEmulator } = await import('@orgreport/emulator');
  [emulator, s3, pg] = await Promise.all([
    startEmulator({ seed: 7, users: 100, today: '2026-11-22' }),
    startS3({ buckets: ['ledger'] }),
    startPostgres(),
  ]);
  const received: ReceivedMail[] = [];
  smtp = await startSmtp({
    clientsMayDie: true,
    hold: (index) => {
      const to = (smtp?.received ?? received)[index - 1]?.recipients[0]?.toLowerCase() ?? '';
      // Every mail takes the server a while: runs over the same deliveries overlap as they send.
      if (!holdFor.has(to) || held.has(to)) return new Promise<void>((resolve) => setTimeout(resolve, 150));
      return new Promise<void>((resolve) => held.set(to, resolve));
    },
  });
  const shared = tempDir('orgreport-shards-input-');
  people = join(shared, 'people.csv');
  expect((await cli(['emulator', '--seed', '7', '--users', '100', '--directory', people])).code).toBe(0);
  // Each manager their people's report as HTML: no browser needed, the delivery path is the same.
  plan = join(shared, 'plan.json');
  writeFileSync(plan, JSON.stringify({ rules: [{ each: 'manager', formats: ['html'], people: 'scope' }] }));
});
afterAll(async () => {
  for (const release of held.values()) release();
  await emulator?.close();
  await smtp?.close();
  await s3?.close();
  await pg?.close();
});

/** A machine: a folder of its own (its inputs copied in, its output, its temporary files). */
function machine(name: string) {
  const dir = tempDir(`orgreport-${name}-`);
  const tmp = join(dir, 'tmp');
  mkdirSync(tmp);
  copyFileSync(people, join(dir, 'people.csv'));
  copyFileSync(plan, join(dir, 'plan.json'));
  return { dir, tmp };
}

interface Run {
  child: ChildProcess;
  ended: Promise<number | null>;
  err: () => string;
}

const baseArgs = (dir: string) => [
  'distribute',
  '--month',
  '2026-10',
  '--today',
  '2026-11-22',
  '--directory',
  join(dir, 'people.csv'),
  '--plan',
  join(dir, 'plan.json'),
  '--out',
  join(dir, 'out'),
];

async function until(done: () => boolean, what: string): Promise<void> {
  const start = Date.now();
  while (!done()) {
    if (Date.now() - start > 120_000) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe.each(['S3', 'Postgres'] as const)(
  'distribute in four shards on four machines, the ledger on %s',
  (backend) => {
    it('gives every manager exactly one mail by Message-ID through kills, reruns of all four and a plain run', async () => {
      const ledger = backend === 'S3' ? `s3://ledger/${Date.now()}/` : pg.url;
      // The Postgres URL goes in the variable, as the README says (it holds the password).
      const ledgerEnv = backend === 'S3' ? { ...s3.env } : { ORGREPORT_LEDGER: ledger };
      const ledgerArgs = backend === 'S3' ? ['--ledger', ledger] : [];
      const env = (tmp: string) => ({
        ...process.env,
        ...envFor(emulator),
        ...ledgerEnv,
        ORGREPORT_SMTP_URL: smtp.url,
        ORGREPORT_MAIL_FROM: 'reports@acme.test',
        ORGREPORT_LEDGER_LEASE: String(LEASE),
        TMPDIR: tmp,
      });
      const start = (dir: string, tmp: string, extra: string[]): Run => {
        const child = spawn(process.execPath, [bin, ...baseArgs(dir), ...ledgerArgs, ...extra], {
          env: env(tmp),
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        children.push(child);
        let err = '';
        child.stdout!.on('data', () => {});
        child.stderr!.on('data', (c: Buffer) => {
          err += c.toString();
        });
        const ended = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
        return { child, ended, err: () => err };
      };
      const machines = Array.from({ length: SHARDS }, (_, i) => machine(`${backend}-shard-${i + 1}`));
      // Each shard's managers, from its dry run.
      const shares: string[][] = [];
      for (const [i, m] of machines.entries()) {
        const dry = await cli(
          [...baseArgs(m.dir), ...ledgerArgs, '--shard', `${i + 1}/${SHARDS}`, '--dry-run', '--json'],
          {
            env: env(m.tmp) as Record<string, string>,
          },
        );
        expect(dry.code, dry.err).toBe(0);
        shares.push(
          JSON.parse(dry.out).deliveries.map((d: { recipient: string }) => d.recipient.toLowerCase()),
        );
      }
      const managers = shares.flat().sort();
      expect(managers.length).toBeGreaterThanOrEqual(8);
      // The victims: the two shards with the most managers; the server holds each one's first mail.
      const victims = [0, 1, 2, 3].sort((a, b) => shares[b]!.length - shares[a]!.length).slice(0, 2);
      holdFor.clear();
      held.clear();
      for (const v of victims) for (const r of shares[v]!) holdFor.add(r);
      const before = smtp.received.length;

      const first = machines.map((m, i) => start(m.dir, m.tmp, ['--shard', `${i + 1}/${SHARDS}`]));
      // Each victim is killed once the server holds a mail of its share: taken, never acknowledged.
      for (const v of victims) {
        await until(() => shares[v]!.some((r) => held.has(r)), `a held mail of shard ${v + 1}`);
        first[v]!.child.kill('SIGKILL');
        await first[v]!.ended;
      }
      for (const release of held.values()) release();
      holdFor.clear();
      for (const [i, run] of first.entries()) {
        if (!victims.includes(i)) expect(await run.ended, run.err()).toBe(0);
      }
      // The killed runs' claims stand until their lease runs out.
      await new Promise((r) => setTimeout(r, (LEASE + 0.5) * 1000));

      // All four again, and a plain run on a fifth machine at the same time: two runs per delivery.
      const fifth = machine(`${backend}-plain`);
      const again = [
        ...machines.map((m, i) => start(m.dir, m.tmp, ['--shard', `${i + 1}/${SHARDS}`])),
        start(fifth.dir, fifth.tmp, []),
      ];
      const codes = await Promise.all(again.map((r) => r.ended));
      expect(codes, again.map((r) => r.err()).join('\n')).toEqual([0, 0, 0, 0, 0]);
      const unknown = again.map((r) => r.err()).join('\n');
      expect(unknown).toMatch(/whether it arrived is unknown; sending it again with the same Message-ID/);

      // Then a plain run on a sixth machine: every delivery is known, nothing is sent.
      const sixth = machine(`${backend}-last`);
      const atPlain = smtp.received.length;
      const plain = start(sixth.dir, sixth.tmp, []);
      expect(await plain.ended, plain.err()).toBe(0);
      expect(smtp.received.length).toBe(atPlain);
      expect(plain.err()).toMatch(new RegExp(`0 sent, ${managers.length} already delivered`));

      const byRecipient = new Map<string, { ids: Set<string>; raw: number }>();
      for (const m of smtp.received.slice(before)) {
        for (const r of m.recipients) {
          const seen = byRecipient.get(r.toLowerCase()) ?? { ids: new Set(), raw: 0 };
          seen.ids.add(m.parsed.messageId ?? '');
          seen.raw++;
          byRecipient.set(r.toLowerCase(), seen);
        }
      }
      expect([...byRecipient.keys()].sort()).toEqual(managers);
      let repeats = 0;
      for (const [recipient, seen] of byRecipient) {
        expect(seen.ids.size, recipient).toBe(1);
        expect(seen.raw, recipient).toBeLessThanOrEqual(2);
        // A repeat only where the ledger named the delivery unknown.
        if (seen.raw > 1) {
          repeats++;
          expect(unknown, recipient).toContain(recipient);
        }
      }
      // The two held mails went again, once each, with their Message-IDs.
      expect(repeats).toBe(2);
      if (backend === 'Postgres') {
        for (const text of [...first, ...again, plain].map((r) => r.err()))
          expect(text).not.toContain(pg.password);
      }
    }, 300_000);
  },
);
