/**
 * Crashes: a child process delivers 8 reports to 8 recipients through a real SMTP server on
 * loopback and is killed with SIGKILL at several points (before anything is sent; after the ledger
 * said 'sending' and before the server had anything; right after the server took the 3rd message;
 * while the server holds its reply to the 5th, so the process dies between the server taking the
 * message and the ledger saying so), then a rerun finishes the job. Counted at the server: every
 * recipient ends with exactly one message by distinct Message-ID; raw repeats only for deliveries
 * the rerun reported as unknown, and with `unknown: 'skip'` none at all.
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type DeliverResult, deliveryKey, messageIdOf, readLedgers } from './index.ts';
import { type ScriptChild, spawnScript } from './testing/child.ts';
import { CRASH_HOST, CRASH_RECIPIENTS, type CrashChildArgs } from './testing/crash-plan.ts';
import { removeScratch, scratchDir } from './testing/fixtures.ts';
import { startTestSmtp, type TestSmtp, type TestSmtpOptions } from './testing/smtp-server.ts';

afterAll(removeScratch);

const keyOf = (recipient: string) =>
  deliveryKey({ month: '2026-10', recipient, scope: 'org', formats: ['pdf'], target: recipient });

/** A scenario: a server whose hooks may kill the running child, a folder, and the child of the moment. */
async function scenario(hooks: (kill: () => Promise<void>) => TestSmtpOptions) {
  const dir = scratchDir();
  let current: ScriptChild | undefined;
  const kill = async () => {
    const child = current!;
    child.process.kill('SIGKILL');
    await child.exited;
  };
  const smtp = await startTestSmtp({ ...hooks(kill), clientsMayDie: true });
  const start = (unknown: CrashChildArgs['unknown'], pause = false) => {
    const args: CrashChildArgs = {
      smtpUrl: smtp.url(),
      ledger: join(dir, 'ledger.jsonl'),
      dir,
      unknown,
      pause,
    };
    current = spawnScript('./crash-child.ts', [JSON.stringify(args)]);
    return current;
  };
  /** Runs the child to its end; its result. */
  const rerun = async (unknown: CrashChildArgs['unknown']): Promise<DeliverResult> => {
    const child = start(unknown);
    const exit = await child.exited;
    expect(exit.stderr).toBe('');
    expect(exit.code).toBe(0);
    return child.lines.find((l) => l.type === 'result')!.result as DeliverResult;
  };
  return { smtp, dir, start, kill, rerun };
}

/** Every recipient has exactly one message by Message-ID; raw repeats only for those the rerun found unknown. */
function expectEachOnce(smtp: TestSmtp, rerun: DeliverResult): Map<string, number> {
  const unknown = rerun.unknown.filter((u) => u.action === 'resent').map((u) => u.recipient);
  const raw = new Map<string, number>();
  for (const recipient of CRASH_RECIPIENTS) {
    const ids = smtp
      .taken()
      .filter((m) => m.recipients.includes(recipient))
      .map((m) => m.messageId);
    expect(new Set(ids), recipient).toEqual(new Set([messageIdOf(keyOf(recipient), CRASH_HOST)]));
    if (ids.length > 1) expect(unknown, `${recipient} came ${ids.length} times`).toContain(recipient);
    raw.set(recipient, ids.length);
  }
  expect(smtp.taken().every((m) => m.recipients.length === 1)).toBe(true);
  return raw;
}

async function statuses(dir: string): Promise<Record<string, string>> {
  const { index } = await readLedgers([join(dir, 'ledger.jsonl')]);
  return Object.fromEntries(CRASH_RECIPIENTS.map((r) => [r, index.status(keyOf(r))]));
}

const allSent = Object.fromEntries(CRASH_RECIPIENTS.map((r) => [r, 'sent']));

describe('a delivery run killed with SIGKILL, then run again', () => {
  it('before anything was sent: the rerun sends all 8, once each', async () => {
    const s = await scenario(() => ({}));
    try {
      const first = s.start('resend', true);
      await first.waitFor((l) => l.type === 'ready');
      await s.kill();
      expect((await first.exited).signal).toBe('SIGKILL');
      expect(s.smtp.connections()).toBe(0);

      const rerun = await s.rerun('resend');
      expect(rerun.sent).toHaveLength(8);
      expect(rerun.unknown).toEqual([]);
      expect([...expectEachOnce(s.smtp, rerun).values()]).toEqual([1, 1, 1, 1, 1, 1, 1, 1]);
      expect(await statuses(s.dir)).toEqual(allSent);
    } finally {
      await s.smtp.close();
    }
  });

  it("after the ledger said 'sending' and before the server had anything: the rerun finds it unknown and sends it once", async () => {
    // The server holds its greeting on the first connection: the child has recorded r1 as sending.
    const s = await scenario((kill) => ({ connect: (n) => (n === 1 ? kill() : undefined) }));
    try {
      const child = s.start('resend');
      expect((await child.exited).signal).toBe('SIGKILL');
      expect(s.smtp.received).toHaveLength(0);
      expect(await statuses(s.dir)).toMatchObject({ 'r1@acme.test': 'unknown', 'r2@acme.test': 'new' });

      const rerun = await s.rerun('resend');
      expect(rerun.unknown).toEqual([
        expect.objectContaining({ recipient: 'r1@acme.test', action: 'resent' }),
      ]);
      expect(rerun.sent).toHaveLength(8);
      expect([...expectEachOnce(s.smtp, rerun).values()]).toEqual([1, 1, 1, 1, 1, 1, 1, 1]);
      expect(await statuses(s.dir)).toEqual(allSent);
    } finally {
      await s.smtp.close();
    }
  });

  it('right after the server took the 3rd message: each recipient once by Message-ID, repeats only where unknown', async () => {
    let first = true;
    const s = await scenario((kill) => ({
      reply: (_mail, n) => {
        if (first && n === 3) {
          first = false;
          // The 250 goes out first; the process dies before or after its ledger line, as it happens.
          setImmediate(() => void kill());
        }
        return undefined;
      },
    }));
    try {
      const child = s.start('resend');
      expect((await child.exited).signal).toBe('SIGKILL');
      const before = s.smtp.taken().length;
      expect(before).toBeGreaterThanOrEqual(3);

      const rerun = await s.rerun('resend');
      expect(rerun.failed).toEqual([]);
      expect(rerun.sent.length + rerun.skipped.length).toBe(8);
      expect(rerun.skipped.map((r) => r.recipient)).toEqual(CRASH_RECIPIENTS.slice(0, rerun.skipped.length));
      // One send is in flight at a time, so at most one delivery can be unknown.
      expect(rerun.unknown.length).toBeLessThanOrEqual(1);
      const raw = expectEachOnce(s.smtp, rerun);
      expect([...raw.values()].every((n) => n === 1 || n === 2)).toBe(true);
      expect(await statuses(s.dir)).toEqual(allSent);
    } finally {
      await s.smtp.close();
    }
  });

  it('while the server holds its reply to the 5th message: the rerun names it unknown and sends it again with the same Message-ID', async () => {
    let first = true;
    const s = await scenario((kill) => ({
      reply: async (_mail, n) => {
        if (first && n === 5) {
          first = false;
          await kill(); // the server has the message; the process never learns it
        }
        return undefined;
      },
    }));
    try {
      const child = s.start('resend');
      expect((await child.exited).signal).toBe('SIGKILL');
      expect(s.smtp.taken().map((m) => m.recipients[0])).toEqual(CRASH_RECIPIENTS.slice(0, 5));
      expect(await statuses(s.dir)).toMatchObject({ 'r4@acme.test': 'sent', 'r5@acme.test': 'unknown' });

      const rerun = await s.rerun('resend');
      expect(rerun.unknown).toEqual([
        expect.objectContaining({ recipient: 'r5@acme.test', action: 'resent' }),
      ]);
      expect(rerun.skipped.map((r) => r.recipient)).toEqual(CRASH_RECIPIENTS.slice(0, 4));
      const raw = expectEachOnce(s.smtp, rerun);
      expect(raw.get('r5@acme.test')).toBe(2);
      expect([...raw.values()].reduce((a, b) => a + b, 0)).toBe(9);
      expect(await statuses(s.dir)).toEqual(allSent);
    } finally {
      await s.smtp.close();
    }
  });

  it("the same with unknown: 'skip': no repeat at all, the unknown delivery named and left", async () => {
    let first = true;
    const s = await scenario((kill) => ({
      reply: async (_mail, n) => {
        if (first && n === 5) {
          first = false;
          await kill();
        }
        return undefined;
      },
    }));
    try {
      const child = s.start('skip');
      expect((await child.exited).signal).toBe('SIGKILL');

      const rerun = await s.rerun('skip');
      expect(rerun.unknown).toEqual([
        expect.objectContaining({ recipient: 'r5@acme.test', action: 'skipped' }),
      ]);
      expect(rerun.sent.map((r) => r.recipient)).toEqual(CRASH_RECIPIENTS.slice(5));
      const raw = expectEachOnce(s.smtp, rerun);
      expect([...raw.values()]).toEqual([1, 1, 1, 1, 1, 1, 1, 1]);
      expect(await statuses(s.dir)).toEqual({ ...allSent, 'r5@acme.test': 'unknown' });
    } finally {
      await s.smtp.close();
    }
  });
});
