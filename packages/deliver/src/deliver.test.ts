/**
 * deliverAll over a real SMTP server on loopback: delivered once, reruns, resends, retries of 4xx,
 * 5xx failures that leave the others delivered, the SMTP password nowhere, settings and targets
 * checked before anything is sent; groups, the sending limit and stopping with destinations of the
 * test's own (declared as another team would).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import {
  createDestinations,
  type DeliverOptions,
  type Delivery,
  type DeliveryEvent,
  DeliveryPlanError,
  DestinationError,
  defineDestination,
  deliverAll,
  type Ledger,
  messageIdOf,
  openLedger,
  PermanentDeliveryError,
  RetryableDeliveryError,
  type SendContext,
} from './index.ts';
import {
  removeScratch,
  reportDelivery,
  scratchDir,
  stillTime,
  ticking,
  writeDocument,
} from './testing/fixtures.ts';
import { startTestSmtp, type TestSmtp } from './testing/smtp-server.ts';

afterAll(removeScratch);

const FROM = 'reports@acme.test';
const HOST = 'acme.test';

/** A scratch folder with a PDF and a workbook, and a ledger in it. */
async function setUp() {
  const dir = scratchDir();
  const docs = [
    await writeDocument(dir, 'orgreport-acme-2026-10.pdf', '%PDF-1.7 the report'),
    await writeDocument(
      dir,
      'orgreport-acme-2026-10.xlsx',
      'PK the workbook',
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    ),
  ];
  const ledgerPath = join(dir, 'ledger.jsonl');
  const ledger = await openLedger(ledgerPath, { now: ticking() });
  return { dir, docs, ledgerPath, ledger };
}

/** deliverAll with the test's time (no real waits) and every event kept. */
async function run(
  deliveries: Delivery[],
  ledger: Ledger,
  smtp: TestSmtp | string,
  options: Partial<DeliverOptions> = {},
) {
  const time = stillTime();
  const events: DeliveryEvent[] = [];
  const logs: string[] = [];
  const result = await deliverAll(deliveries, {
    ledger,
    settings: {
      ORGREPORT_SMTP_URL: typeof smtp === 'string' ? smtp : smtp.url(),
      ORGREPORT_MAIL_FROM: FROM,
    },
    messageIdHost: HOST,
    sleep: time.sleep,
    clock: time.clock,
    random: time.random,
    onEvent: (e) => events.push(e),
    log: (l) => logs.push(l),
    ...options,
  });
  return { result, events, logs, sleeps: time.sleeps };
}

/** The Message-IDs the server took, by envelope recipient. */
function takenBy(smtp: TestSmtp): Map<string, string[]> {
  const by = new Map<string, string[]>();
  for (const mail of smtp.taken()) {
    for (const r of mail.recipients) by.set(r, [...(by.get(r) ?? []), mail.messageId ?? '']);
  }
  return by;
}

async function ledgerLines(path: string): Promise<Array<Record<string, unknown>>> {
  return (await readFile(path, 'utf8'))
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l));
}

describe('deliverAll by e-mail', () => {
  it('delivers each message once, with its Message-ID, documents and bodies, over one SMTP connection; records it before and after', async () => {
    const smtp = await startTestSmtp();
    const { docs, ledger, ledgerPath } = await setUp();
    const recipients = ['cto@acme.test', 'cfo@acme.test', 'vp@acme.test'];
    const deliveries = recipients.map((r) => reportDelivery(r, docs));
    try {
      const { result, events } = await run(deliveries, ledger, smtp);
      expect(result.failed).toEqual([]);
      expect(result.sent.map((s) => s.recipient)).toEqual(recipients);
      expect(smtp.received).toHaveLength(3);
      expect(smtp.connections()).toBe(1);
      // The pooled connection is closed when the run ends.
      await vi.waitFor(() => expect(smtp.closedConnections()).toBe(1), { timeout: 2_000 });
      const first = smtp.received[0]!;
      expect(first.recipients).toEqual(['cto@acme.test']);
      expect(first.from).toBe(FROM);
      expect(first.messageId).toBe(messageIdOf(deliveries[0]!.key, HOST));
      expect(first.parsed.subject).toBe('Acme Robotics, October 2026 (for cto@acme.test)');
      expect(first.parsed.text).toContain('The October report of Acme Robotics.');
      expect(first.parsed.html).toContain('<p>The October report of Acme Robotics.</p>');
      expect(first.parsed.attachments.map((a) => [a.filename, a.content.toString()])).toEqual([
        ['orgreport-acme-2026-10.pdf', '%PDF-1.7 the report'],
        ['orgreport-acme-2026-10.xlsx', 'PK the workbook'],
      ]);
      expect(events.filter((e) => e.type === 'sending' || e.type === 'sent').map((e) => e.type)).toEqual([
        'sending',
        'sent',
        'sending',
        'sent',
        'sending',
        'sent',
      ]);
    } finally {
      await ledger.close();
      await smtp.close();
    }
    const lines = await ledgerLines(ledgerPath);
    expect(lines.map((l) => `${l.recipient} ${l.state} ${l.attempt}`)).toEqual([
      'cto@acme.test sending 1',
      'cto@acme.test sent 1',
      'cfo@acme.test sending 1',
      'cfo@acme.test sent 1',
      'vp@acme.test sending 1',
      'vp@acme.test sent 1',
    ]);
    expect(lines[0]).toMatchObject({
      key: deliveries[0]!.key,
      target: 'cto@acme.test',
      messageId: messageIdOf(deliveries[0]!.key, HOST),
      sha256: {
        'orgreport-acme-2026-10.pdf': docs[0]!.sha256,
        'orgreport-acme-2026-10.xlsx': docs[1]!.sha256,
      },
      month: '2026-10',
      scope: 'org',
    });
    expect(lines[1]).toMatchObject({ state: 'sent', id: messageIdOf(deliveries[0]!.key, HOST) });
  });

  it('sends nothing on a rerun (and renders nothing); resend sends again with the same Message-ID', async () => {
    const smtp = await startTestSmtp();
    const { docs, ledger, ledgerPath } = await setUp();
    const rendered = { count: 0 };
    const deliveries = ['cto@acme.test', 'cfo@acme.test'].map((r) => reportDelivery(r, docs, { rendered }));
    try {
      await run(deliveries, ledger, smtp);
      expect(rendered.count).toBe(2);
      await ledger.close();

      const reopened = await openLedger(ledgerPath, { now: ticking() });
      try {
        const rerun = await run(deliveries, reopened, smtp);
        expect(smtp.received).toHaveLength(2);
        expect(rendered.count).toBe(2);
        expect(rerun.result.sent).toEqual([]);
        expect(rerun.result.skipped.map((s) => [s.recipient, s.reason])).toEqual([
          ['cto@acme.test', 'sent'],
          ['cfo@acme.test', 'sent'],
        ]);

        const resent = await run(deliveries, reopened, smtp, { resend: ['CFO@Acme.test'] });
        expect(resent.result.sent.map((s) => s.recipient)).toEqual(['cfo@acme.test']);
        expect(resent.result.sent[0]!.attempts).toBe(1);
        expect(takenBy(smtp).get('cfo@acme.test')).toEqual([
          messageIdOf(deliveries[1]!.key, HOST),
          messageIdOf(deliveries[1]!.key, HOST),
        ]);
        expect(reopened.get(deliveries[1]!.key)?.last).toMatchObject({ state: 'sent', attempt: 2 });

        const all = await run(deliveries, reopened, smtp, { resend: 'all' });
        expect(all.result.sent).toHaveLength(2);
        expect(smtp.received).toHaveLength(5);
      } finally {
        await reopened.close();
      }
    } finally {
      await smtp.close();
    }
  });

  it('retries a server that answers 451 twice, then delivers once, after 1 s and 2 s', async () => {
    let refusals = 0;
    const smtp = await startTestSmtp({
      reply: (mail) =>
        mail.recipients.includes('cfo@acme.test') && refusals++ < 2
          ? { code: 451, message: '4.3.0 Try again later' }
          : undefined,
    });
    const { docs, ledger, ledgerPath } = await setUp();
    const deliveries = ['cto@acme.test', 'cfo@acme.test'].map((r) => reportDelivery(r, docs));
    try {
      const { result, events, sleeps } = await run(deliveries, ledger, smtp);
      expect(result.failed).toEqual([]);
      expect(result.sent.map((s) => [s.recipient, s.attempts])).toEqual([
        ['cto@acme.test', 1],
        ['cfo@acme.test', 3],
      ]);
      expect(sleeps).toEqual([1000, 2000]);
      expect(events.filter((e) => e.type === 'retrying').map((e) => 'delayMs' in e && e.delayMs)).toEqual([
        1000, 2000,
      ]);
      expect(takenBy(smtp).get('cfo@acme.test')).toHaveLength(1);
      expect(smtp.received.filter((m) => m.recipients.includes('cfo@acme.test'))).toHaveLength(3);
    } finally {
      await ledger.close();
      await smtp.close();
    }
    const cfo = (await ledgerLines(ledgerPath)).filter((l) => l.recipient === 'cfo@acme.test');
    expect(cfo.map((l) => `${l.state} ${l.attempt}`)).toEqual([
      'sending 1',
      'failed 1',
      'sending 2',
      'failed 2',
      'sending 3',
      'sent 3',
    ]);
    expect(cfo[1]!.error).toMatch(/451 4\.3\.0 Try again later/);
  });

  it('gives up after the last attempt of a 4xx that does not pass, and goes on', async () => {
    const smtp = await startTestSmtp({
      reply: (mail) =>
        mail.recipients.includes('cto@acme.test') ? { code: 452, message: 'Mailbox full' } : undefined,
    });
    const { docs, ledger } = await setUp();
    try {
      const { result, sleeps } = await run(
        ['cto@acme.test', 'cfo@acme.test'].map((r) => reportDelivery(r, docs)),
        ledger,
        smtp,
        { attempts: 3 },
      );
      expect(sleeps).toEqual([1000, 2000]);
      expect(result.failed.map((f) => f.recipient)).toEqual(['cto@acme.test']);
      expect(result.sent.map((s) => s.recipient)).toEqual(['cfo@acme.test']);
      expect(ledger.status(result.failed[0]!.key)).toBe('failed');
    } finally {
      await ledger.close();
      await smtp.close();
    }
  });

  it('does not retry a 550: the recipient is named as failed, the others are still delivered, and a rerun tries it again', async () => {
    const smtp = await startTestSmtp({
      rcpt: (address) =>
        address === 'gone@acme.test' ? { code: 550, message: '5.1.1 No such user' } : undefined,
    });
    const { docs, ledger } = await setUp();
    const deliveries = ['cto@acme.test', 'gone@acme.test', 'cfo@acme.test'].map((r) =>
      reportDelivery(r, docs),
    );
    try {
      const { result, sleeps, events } = await run(deliveries, ledger, smtp);
      expect(sleeps).toEqual([]);
      expect(result.failed).toEqual([
        {
          key: deliveries[1]!.key,
          label: 'gone@acme.test',
          recipient: 'gone@acme.test',
          error: expect.stringMatching(/gone@acme\.test.*550 5\.1\.1 No such user/),
        },
      ]);
      expect(events.find((e) => e.type === 'failed')).toMatchObject({
        recipient: 'gone@acme.test',
        attempt: 1,
      });
      expect(smtp.refused).toEqual(['gone@acme.test']);
      expect([...takenBy(smtp).keys()]).toEqual(['cto@acme.test', 'cfo@acme.test']);

      const rerun = await run(deliveries, ledger, smtp);
      expect(rerun.result.failed.map((f) => f.recipient)).toEqual(['gone@acme.test']);
      expect(smtp.refused).toEqual(['gone@acme.test', 'gone@acme.test']);
      expect(ledger.get(deliveries[1]!.key)?.last.attempt).toBe(2);
    } finally {
      await ledger.close();
      await smtp.close();
    }
  });

  it('never shows the SMTP user or password: not in errors, events, logs, results or the ledger', async () => {
    const login = { user: 'report-bot', pass: 'test-pass-123' };
    let soft = 0;
    const smtp = await startTestSmtp({
      auth: login,
      rcpt: (address) =>
        address === 'gone@acme.test' ? { code: 550, message: '5.1.1 No such user' } : undefined,
      reply: () => (soft++ === 0 ? { code: 451, message: `4.3.0 busy` } : undefined),
    });
    const { docs, ledger, ledgerPath } = await setUp();
    const deliveries = ['cto@acme.test', 'gone@acme.test'].map((r) => reportDelivery(r, docs));
    const seen: string[] = [];
    try {
      // A good login, a 451 then 250, and a 550.
      const good = await run(deliveries, ledger, smtp.url(login));
      expect(good.result.sent.map((s) => s.recipient)).toEqual(['cto@acme.test']);
      expect(good.result.failed.map((f) => f.recipient)).toEqual(['gone@acme.test']);
      seen.push(JSON.stringify(good));
      // A refused login (535) and a server that is not there: both name the host.
      const wrong = await run(deliveries, ledger, smtp.url({ ...login, pass: 'test-pass-456' }), {
        resend: 'all',
      });
      expect(smtp.failedLogins()).toBeGreaterThan(0);
      expect(wrong.result.failed).toHaveLength(2);
      expect(wrong.result.failed[0]!.error).toContain(
        `through 127.0.0.1:${smtp.port} failed: Invalid login: 535`,
      );
      seen.push(JSON.stringify(wrong));
      const closed = await startTestSmtp();
      const closedUrl = closed.url(login);
      await closed.close();
      const nobody = await run(deliveries, ledger, closedUrl, { resend: 'all', attempts: 2 });
      expect(nobody.result.failed).toHaveLength(2);
      expect(nobody.result.failed[0]!.error).toMatch(/ECONNREFUSED|connect/);
      seen.push(JSON.stringify(nobody));
      // A URL that is not one, holding the password: named by its variable only.
      const bad = run(deliveries, ledger, `smtp//report-bot:test-pass-123@nowhere`);
      await expect(bad).rejects.toThrow('ORGREPORT_SMTP_URL is not an smtp:// or smtps:// URL with a host');
      seen.push(String(await bad.catch((e) => `${e.message} ${e.stack}`)));
    } finally {
      await ledger.close();
      await smtp.close();
    }
    seen.push(await readFile(ledgerPath, 'utf8'));
    const everything = seen.join('\n');
    expect(everything).toContain('5.1.1 No such user');
    expect(everything).not.toContain('test-pass-123');
    expect(everything).not.toContain('test-pass-456');
    expect(everything).not.toContain('report-bot');
  });

  it('checks every destination setting before anything is sent, naming the variable and never its value', async () => {
    const smtp = await startTestSmtp();
    const { docs, ledger, dir } = await setUp();
    const deliveries = [
      reportDelivery('archive', docs, { target: `dir:${dir}/out` }),
      reportDelivery('cto@acme.test', docs),
    ];
    try {
      const missing = deliverAll(deliveries, { ledger, settings: { ORGREPORT_MAIL_FROM: FROM } });
      await expect(missing).rejects.toBeInstanceOf(DestinationError);
      await expect(missing).rejects.toThrow(
        /ORGREPORT_SMTP_URL is not set .*E-mail \(cto@acme\.test\) needs it/,
      );
      const noSender = deliverAll(deliveries, { ledger, settings: { ORGREPORT_SMTP_URL: smtp.url() } });
      await expect(noSender).rejects.toThrow(
        'ORGREPORT_MAIL_FROM is not set and the SMTP user is not an address',
      );
      const injected = deliverAll(deliveries, {
        ledger,
        settings: {
          ORGREPORT_SMTP_URL: smtp.url(),
          ORGREPORT_MAIL_FROM: 'Reports\nBcc: x@acme.test <r@acme.test>',
        },
      });
      await expect(injected).rejects.toThrow(
        'ORGREPORT_MAIL_FROM is not an address or "Name <address>" on one line',
      );
      expect(ledger.index.size).toBe(0);
      expect(smtp.received).toHaveLength(0);

      // The SMTP user serves as the sender when it is an address.
      const userUrl = smtp
        .url({ user: 'reports@acme.test', pass: 'test-pass-123' })
        .replace(/^smtp:\/\/[^@]*@/, 'smtp://reports%40acme.test@');
      const { result } = await run([deliveries[1]!], ledger, userUrl, {
        settings: { ORGREPORT_SMTP_URL: userUrl },
      });
      expect(result.sent).toHaveLength(1);
      expect(smtp.received[0]!.from).toBe('reports@acme.test');
    } finally {
      await ledger.close();
      await smtp.close();
    }
  });

  it('refuses an unknown scheme or a bad target before anything is sent, listing the known ones', async () => {
    const smtp = await startTestSmtp();
    const { docs, ledger } = await setUp();
    try {
      const attempt = run(
        [
          reportDelivery('cto@acme.test', docs),
          reportDelivery('#eng-leads', docs, { target: 'matrix:#eng-leads' }),
          reportDelivery('nobody', docs, { target: 'mailto:nobody' }),
        ],
        ledger,
        smtp,
      );
      await expect(attempt).rejects.toBeInstanceOf(DestinationError);
      const message = await attempt.catch((e: Error) => e.message);
      expect(message).toContain('no destination has the scheme matrix: "matrix:#eng-leads"');
      expect(message).toContain('E-mail cannot read "mailto:nobody": not an e-mail address');
      expect(message).toContain('dir (Folder): dir:PATH');
      expect(smtp.connections()).toBe(0);
      expect(ledger.index.size).toBe(0);

      // One delivery listed twice (the key ignores the recipient's case) would go out twice.
      const twice = run(
        [
          reportDelivery('cto@acme.test', docs),
          reportDelivery('CTO@acme.test', docs, { target: 'cto@acme.test' }),
        ],
        ledger,
        smtp,
      );
      await expect(twice).rejects.toBeInstanceOf(DeliveryPlanError);
      await expect(twice).rejects.toThrow(/two deliveries have the key/);
      expect(smtp.connections()).toBe(0);
    } finally {
      await ledger.close();
      await smtp.close();
    }
  });
});

/** A destination of the test's own, declared as another team would: it records what it is given and fails as told. */
function recordingDestination(options: {
  scheme: string;
  stores?: boolean;
  fail?: (target: string, attempt: number) => Error | undefined;
  onSend?: (target: string) => void;
}) {
  const calls: Array<{ target: string; links: SendContext['links']; messageId: string }> = [];
  const attempts = new Map<string, number>();
  const destination = defineDestination<string>({
    scheme: options.scheme,
    title: `Test ${options.scheme}`,
    syntax: `${options.scheme}:NAME`,
    settings: [{ env: 'ORGREPORT_TEST_TOKEN', help: 'a token', secret: true }],
    ...(options.stores ? { stores: true } : {}),
    parse: (target) => target.slice(options.scheme.length + 1),
    label: (name) => `${options.scheme}:${name}`,
    async send(_message, name, context) {
      const n = (attempts.get(name) ?? 0) + 1;
      attempts.set(name, n);
      calls.push({ target: name, links: context.links, messageId: context.messageId });
      options.onSend?.(name);
      const error = options.fail?.(name, n);
      if (error) throw error;
      return options.stores ? { id: name, location: `https://store.test/${name}/` } : { id: `${name}-${n}` };
    },
  });
  return { destination, calls };
}

describe('deliverAll with other destinations', () => {
  it('sends a group storing destinations first, renders its message once, and gives the others the stored locations', async () => {
    const { docs, ledger } = await setUp();
    const bucket = recordingDestination({ scheme: 'bucket', stores: true });
    const card = recordingDestination({ scheme: 'card' });
    const destinations = createDestinations([bucket.destination, card.destination]);
    const rendered = { count: 0 };
    const group = (target: string) => reportDelivery(target, docs, { target, group: 'org', rendered });
    const deliveries = [group('card:eng-leads'), group('bucket:reports'), group('card:finance')];
    try {
      const { result } = await run(deliveries, ledger, 'smtp://unused.test', { destinations });
      expect(result.sent.map((s) => s.label)).toEqual(['bucket:reports', 'card:eng-leads', 'card:finance']);
      expect(rendered.count).toBe(1);
      expect(bucket.calls[0]!.links).toEqual([]);
      expect(card.calls.map((c) => c.links)).toEqual([
        [{ url: 'https://store.test/reports/', label: 'bucket:reports' }],
        [{ url: 'https://store.test/reports/', label: 'bucket:reports' }],
      ]);

      // The bucket already holds them: a resend of the cards still links to where they are.
      const again = await run(deliveries, ledger, 'smtp://unused.test', {
        destinations,
        resend: ['card:finance'],
      });
      expect(again.result.sent.map((s) => s.label)).toEqual(['card:finance']);
      expect(card.calls[2]!.links).toEqual([{ url: 'https://store.test/reports/', label: 'bucket:reports' }]);
      expect(bucket.calls).toHaveLength(1);
    } finally {
      await ledger.close();
    }
  });

  it('retries any error but a permanent one, honours Retry-After up to the maximum, and goes on after a failure', async () => {
    const { docs, ledger } = await setUp();
    const hook = recordingDestination({
      scheme: 'hook',
      fail: (name, n) => {
        if (name === 'slow' && n === 1)
          return new RetryableDeliveryError('hook:slow', '429 Too Many Requests', 5_000);
        if (name === 'slow' && n === 2) return new RetryableDeliveryError('hook:slow', '429 again', 90_000);
        if (name === 'flaky' && n === 1) return new TypeError('fetch failed');
        if (name === 'bad') return new PermanentDeliveryError('hook:bad', '404 no such hook');
        return undefined;
      },
    });
    const destinations = createDestinations([hook.destination]);
    const deliveries = ['hook:slow', 'hook:bad', 'hook:flaky'].map((t) =>
      reportDelivery(t, docs, { target: t }),
    );
    try {
      const { result, sleeps } = await run(deliveries, ledger, 'smtp://unused.test', {
        destinations,
        maxDelayMs: 30_000,
      });
      // 5 s as asked; 90 s capped at 30 s; then the base second for the TypeError.
      expect(sleeps).toEqual([5_000, 30_000, 1_000]);
      expect(result.sent.map((s) => [s.label, s.attempts])).toEqual([
        ['hook:slow', 3],
        ['hook:flaky', 2],
      ]);
      expect(result.failed).toEqual([
        expect.objectContaining({ label: 'hook:bad', error: '404 no such hook' }),
      ]);
      expect(hook.calls.filter((c) => c.target === 'bad')).toHaveLength(1);
    } finally {
      await ledger.close();
    }
  });

  it('redacts the value of a secret setting from errors and events', async () => {
    const { docs, ledger, ledgerPath } = await setUp();
    const hook = recordingDestination({
      scheme: 'hook',
      fail: () => new PermanentDeliveryError('hook:x', 'refused token test-token-123 at https://hooks.test/'),
    });
    try {
      const { result, events } = await run(
        [reportDelivery('hook:x', docs, { target: 'hook:x' })],
        ledger,
        'smtp://unused.test',
        {
          destinations: createDestinations([hook.destination]),
          settings: { ORGREPORT_TEST_TOKEN: 'test-token-123' },
        },
      );
      expect(result.failed[0]!.error).toBe('refused token [redacted] at https://hooks.test/');
      expect(JSON.stringify(events)).not.toContain('test-token-123');
    } finally {
      await ledger.close();
    }
    expect(await readFile(ledgerPath, 'utf8')).not.toContain('test-token-123');
  });

  it('keeps to maxPerMinute: 30 a minute goes one every 2 s', async () => {
    const { docs, ledger } = await setUp();
    const hook = recordingDestination({ scheme: 'hook' });
    const deliveries = ['a', 'b', 'c', 'd'].map((n) =>
      reportDelivery(`hook:${n}`, docs, { target: `hook:${n}` }),
    );
    try {
      const { result, sleeps, events } = await run(deliveries, ledger, 'smtp://unused.test', {
        destinations: createDestinations([hook.destination]),
        maxPerMinute: 30,
      });
      expect(result.sent).toHaveLength(4);
      expect(sleeps).toEqual([2000, 2000, 2000]);
      expect(events.filter((e) => e.type === 'waiting')).toEqual([
        { type: 'waiting', delayMs: 2000 },
        { type: 'waiting', delayMs: 2000 },
        { type: 'waiting', delayMs: 2000 },
      ]);

      // A burst of 3 lets three go at once, then spaces the rest.
      const burst = await run(deliveries, ledger, 'smtp://unused.test', {
        destinations: createDestinations([hook.destination]),
        maxPerMinute: 30,
        burst: 3,
        resend: 'all',
      });
      expect(burst.sleeps).toEqual([2000]);
    } finally {
      await ledger.close();
    }
  });

  it('stops when the signal aborts: no new send starts, and says so', async () => {
    const { docs, ledger } = await setUp();
    const stop = new AbortController();
    const hook = recordingDestination({ scheme: 'hook', onSend: (name) => name === 'b' && stop.abort() });
    const deliveries = ['a', 'b', 'c'].map((n) => reportDelivery(`hook:${n}`, docs, { target: `hook:${n}` }));
    try {
      const { result, events } = await run(deliveries, ledger, 'smtp://unused.test', {
        destinations: createDestinations([hook.destination]),
        signal: stop.signal,
      });
      expect(result.stopped).toBe(true);
      expect(hook.calls.map((c) => c.target)).toEqual(['a', 'b']);
      expect(events.at(-1)).toEqual({ type: 'stopped' });
      expect(ledger.status(deliveries[2]!.key)).toBe('new');
    } finally {
      await ledger.close();
    }
  });

  it('goes on when one message cannot be made; that delivery is named as failed', async () => {
    const { docs, ledger } = await setUp();
    const hook = recordingDestination({ scheme: 'hook' });
    const deliveries = [
      reportDelivery('hook:a', docs, {
        target: 'hook:a',
        renderError: new Error('no data for scope team:x'),
      }),
      reportDelivery('hook:b', docs, { target: 'hook:b' }),
    ];
    try {
      const { result } = await run(deliveries, ledger, 'smtp://unused.test', {
        destinations: createDestinations([hook.destination]),
      });
      expect(result.failed).toEqual([
        expect.objectContaining({
          label: 'hook:a',
          error: 'the message could not be made: no data for scope team:x',
        }),
      ]);
      expect(result.sent.map((s) => s.label)).toEqual(['hook:b']);
    } finally {
      await ledger.close();
    }
  });
});
