/**
 * Exactly once, as a real process dies: `orgreport distribute` killed with SIGKILL at several points
 * (after some mails went out; while the server holds its reply to a mail it has taken, so the
 * process dies between the server taking it and the ledger saying so) and run again, until done.
 * Counted at a real SMTP server on loopback: every manager ends with exactly one mail by Message-ID,
 * and a mail arrives twice only where a rerun named its delivery unknown (and sent it again with
 * the same Message-ID, which a receiver drops).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RunningEmulator } from '@orgreport/emulator';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cli, envFor, tempDir } from './helpers.ts';
import { startSmtp, type TestSmtp } from './smtp.ts';

const bin = fileURLToPath(new URL('../apps/report-cli/bin/orgreport.js', import.meta.url));
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

let emulator: RunningEmulator;
let smtp: TestSmtp;
/** Releases the reply the server holds, when it holds one. */
let release: (() => void) | undefined;
/** The index (from 1) of the message whose reply the server holds back. */
let holdAt = 0;

beforeAll(async () => {
  const { startEmulator } = await import('@orgreport/emulator');
  emulator = await startEmulator({ seed: 7, users: 60, today: '2026-11-22' });
  smtp = await startSmtp({
    clientsMayDie: true,
    hold: (index) =>
      index === holdAt
        ? new Promise<void>((resolve) => {
            release = resolve;
          })
        : undefined,
  });
});
afterAll(async () => {
  release?.();
  await emulator?.close();
  await smtp?.close();
});

/** Polls until `done` holds (or the child exits). */
async function until(done: () => boolean, child: ChildProcess, what: string): Promise<void> {
  const start = Date.now();
  while (!done()) {
    if (child.exitCode !== null) throw new Error(`the run ended (${child.exitCode}) before ${what}`);
    if (Date.now() - start > 120_000) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The processes whose command line names `text` (Chromium's names its user-data folder). */
function processesNaming(text: string): string[] {
  return readdirSync('/proc').filter((pid) => {
    if (!/^\d+$/.test(pid)) return false;
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(text);
    } catch {
      return false; // gone meanwhile
    }
  });
}

/** Waits up to `ms` for no process to name `text`; the processes that still do. */
async function goneWithin(text: string, ms: number): Promise<string[]> {
  const start = Date.now();
  while (processesNaming(text).length > 0 && Date.now() - start < ms) {
    await new Promise((r) => setTimeout(r, 100));
  }
  return processesNaming(text);
}

/**
 * A distribution to run as a process: its folder, its directory of 60 people, a folder for the
 * run's temporary files (Chromium's profile among them), the managers the plan sends to, and
 * `start()`, which spawns `orgreport distribute` (mailing the loopback server).
 */
async function distribution(name: string) {
  const dir = tempDir(name);
  const people = join(dir, 'people.csv');
  expect((await cli(['emulator', '--seed', '7', '--users', '60', '--directory', people])).code).toBe(0);
  const scratch = join(dir, 'tmp');
  mkdirSync(scratch);
  const out = join(dir, 'out');
  const env = {
    ...process.env,
    ...envFor(emulator),
    ORGREPORT_SMTP_URL: smtp.url,
    ORGREPORT_MAIL_FROM: 'reports@acme.test',
    TMPDIR: scratch,
  };
  const args = [
    bin,
    'distribute',
    '--month',
    '2026-10',
    '--today',
    '2026-11-22',
    '--directory',
    people,
    '--out',
    out,
  ];
  const planned = await cli([...args.slice(1), '--dry-run', '--json'], { env });
  expect(planned.code, planned.err).toBe(0);
  const managers: string[] = JSON.parse(planned.out).deliveries.map(
    (d: { recipient: string }) => d.recipient,
  );
  const start = () => {
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    let err = '';
    child.stderr!.on('data', (c: Buffer) => {
      err += c.toString();
    });
    const ended = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    return { child, err: () => err, ended };
  };
  return { scratch, out, managers, start };
}

describe('distribute killed mid-way', () => {
  it('gives every manager exactly one mail over runs killed with SIGKILL at several points', async () => {
    const { scratch, managers, start } = await distribution('orgreport-crash-');
    expect(managers.length).toBeGreaterThanOrEqual(5);

    const kill = async (run: ReturnType<typeof start>) => {
      expect(processesNaming(scratch).length, 'Chromium runs for the PDFs').toBeGreaterThan(0);
      run.child.kill('SIGKILL');
      await run.ended;
      // Chromium goes with the process that drove it: nothing is left running.
      expect(await goneWithin(scratch, 10_000)).toEqual([]);
    };

    // 1. Killed once the server has taken two mails (the ledger may or may not know of the second).
    const first = start();
    await until(() => smtp.received.length >= 2, first.child, 'two mails');
    await kill(first);
    // 2. Killed while the server holds its reply to a mail it has taken: whether it arrived is unknown.
    holdAt = smtp.received.length + 2;
    const second = start();
    await until(() => smtp.received.length >= holdAt, second.child, 'the held mail');
    await kill(second);
    release?.();
    // 3. Run to the end.
    const third = start();
    const code = await third.ended;
    expect(code, third.err()).toBe(0);
    // The killed runs' Chromium profiles, which they could not remove, are gone with the next run.
    expect(readdirSync(scratch)).toEqual([]);
    const unknown = [second.err(), third.err()].join('\n');
    expect(third.err()).toMatch(/whether it arrived is unknown; sending it again with the same Message-ID/);

    const byRecipient = new Map<string, { ids: Set<string>; raw: number }>();
    for (const m of smtp.received) {
      for (const r of m.recipients) {
        const seen = byRecipient.get(r.toLowerCase()) ?? { ids: new Set(), raw: 0 };
        seen.ids.add(m.parsed.messageId ?? '');
        seen.raw++;
        byRecipient.set(r.toLowerCase(), seen);
      }
    }
    expect([...byRecipient.keys()].sort()).toEqual([...managers].map((m) => m.toLowerCase()).sort());
    for (const [recipient, seen] of byRecipient) {
      expect(seen.ids.size, recipient).toBe(1);
      // A repeat only where a rerun named the delivery unknown.
      if (seen.raw > 1) expect(unknown, recipient).toContain(recipient);
      expect(seen.raw).toBeLessThanOrEqual(2);
    }
    // The server saw the killed runs' connections break (only as resets, nothing else went wrong).
    expect(smtp.broken.map((e) => e.code).filter((c) => c !== 'ECONNRESET' && c !== 'EPIPE')).toEqual([]);
    // The held one went twice, with one Message-ID.
    expect([...byRecipient.values()].some((s) => s.raw === 2)).toBe(true);

    // A fourth run sends nothing.
    const before = smtp.received.length;
    const fourth = start();
    expect(await fourth.ended, fourth.err()).toBe(0);
    expect(smtp.received.length).toBe(before);
  }, 300_000);

  it('stops on SIGTERM or SIGINT at once, leaving nothing behind, and a rerun finishes: one mail each', async () => {
    const { scratch, out, managers, start: run } = await distribution('orgreport-stop-');
    const before = smtp.received.length;
    // Each signal while the server holds its reply to a mail: a send is under way.
    for (const [signal, code] of [
      ['SIGTERM', 143],
      ['SIGINT', 130],
    ] as const) {
      holdAt = smtp.received.length + 1;
      const stopped = run();
      await until(() => smtp.received.length >= holdAt, stopped.child, 'a mail');
      expect(processesNaming(scratch).length, 'Chromium runs for the PDFs').toBeGreaterThan(0);
      stopped.child.kill(signal);
      expect(await stopped.ended, stopped.err()).toBe(code);
      release?.();
      expect(stopped.err()).toContain(`orgreport: stopped by ${signal}`);
      // Nothing left: no browser, no browser profile, no ledger lock, no half-written report.
      expect(await goneWithin(scratch, 10_000)).toEqual([]);
      expect(readdirSync(scratch), `${signal}: ${stopped.err()}`).toEqual([]);
      expect(readdirSync(out).filter((f) => f.endsWith('.lock') || f.includes('.partial-'))).toEqual([]);
    }
    const last = run();
    expect(await last.ended, last.err()).toBe(0);

    const ids = new Map<string, Set<string>>();
    for (const m of smtp.received.slice(before)) {
      for (const r of m.recipients) {
        const seen = ids.get(r.toLowerCase()) ?? new Set();
        seen.add(m.parsed.messageId ?? '');
        ids.set(r.toLowerCase(), seen);
      }
    }
    expect([...ids.keys()].sort()).toEqual(managers.map((m) => m.toLowerCase()).sort());
    for (const [recipient, seen] of ids) expect(seen.size, recipient).toBe(1);
  }, 300_000);
});
