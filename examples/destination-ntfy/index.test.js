// The ntfy destination against an ntfy server on loopback (testing/ntfy-server.js, written from
// ntfy's documentation), through the delivery core as the CLI uses it: `deliverAll` with a ledger.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import {
  createDestinations,
  DestinationError,
  defineDestination,
  deliverAll,
  deliveryKey,
  openLedger,
  PermanentDeliveryError,
  RetryableDeliveryError,
} from '@orgreport/deliver';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { destination, NTFY_MESSAGE_LIMIT_BYTES, ntfyBody } from './index.js';
import { startNtfy } from './testing/ntfy-server.js';

const TOKEN = 'tk_test-token-123';
const OTHER_TOKEN = 'tk_test-token-456';

/** Everything the tests saw printed, recorded or thrown: the token must be in none of it. */
const outputs = [];
const scratch = [];
let ntfy;

beforeEach(async () => {
  ntfy = await startNtfy({
    tokens: { [TOKEN]: ['reports'], [OTHER_TOKEN]: ['elsewhere'] },
    protectedTopics: ['reports'],
  });
});
afterEach(() => ntfy.close());
afterAll(() => {
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
  const text = outputs.map((o) => (typeof o === 'string' ? o : inspect(o, { depth: 8 }))).join('\n');
  expect(text).not.toContain(TOKEN);
  expect(text).not.toContain(OTHER_TOKEN);
});

const message = (overrides = {}) => ({
  kind: 'report',
  subject: 'Acme usage report — October 2026',
  text: 'The October report of Acme.',
  summary: 'Active users rose to 182 (+12); credits fell 4 %.',
  facts: [
    { label: 'Active users', value: '182' },
    { label: 'Credits', value: '1,204.5' },
  ],
  documents: [],
  meta: { month: '2026-10', scope: 'org' },
  ...overrides,
});

/** A delivery of the October report to `target`, keyed as the CLI keys it. */
function delivery(target, overrides = {}) {
  return {
    key: deliveryKey({ month: '2026-10', recipient: target, scope: 'org', formats: [], target }),
    recipient: target,
    target,
    record: { month: '2026-10' },
    message: async () => message(),
    ...overrides,
  };
}

/** A storing destination of the test's own, so that a group hands the ntfy delivery a link. */
const archive = defineDestination({
  scheme: 'archive',
  title: 'Test archive',
  syntax: 'archive:NAME',
  settings: [],
  stores: true,
  parse: (target) => ({ name: target.slice('archive:'.length) }),
  label: ({ name }) => `archive:${name}`,
  send: async (_message, { name }) => ({
    id: name,
    location: `https://reports.example.test/${name}/2026-10/`,
  }),
});

/** deliverAll into a ledger in a scratch folder, without real waits; every event and line kept. */
async function deliver(deliveries, settings, ledgerPath = join(scratchDir(), 'deliveries.jsonl')) {
  const events = [];
  const logs = [];
  const waits = [];
  const ledger = await openLedger(ledgerPath, { now: () => new Date('2026-11-01T06:00:00Z') });
  try {
    const result = await deliverAll(deliveries, {
      ledger,
      settings: { NTFY_URL: ntfy.url, ...settings },
      destinations: createDestinations([destination, archive]),
      sleep: async (ms) => {
        waits.push(ms);
      },
      random: () => 0,
      onEvent: (event) => events.push(event),
      log: (line) => logs.push(line),
    });
    outputs.push(result, events, logs, readFileSync(ledgerPath, 'utf8'));
    return { result, events, logs, waits, ledgerPath };
  } finally {
    await ledger.close();
  }
}

function scratchDir() {
  const dir = mkdtempSync(join(tmpdir(), 'orgreport-ntfy-'));
  scratch.push(dir);
  return dir;
}

describe('ntfy targets', () => {
  it('reads ntfy:TOPIC, labels it by its topic, and refuses what is not a topic', () => {
    const destinations = createDestinations([destination]);
    expect(destinations.destinationFor('ntfy:reports')).toMatchObject({
      address: { topic: 'reports' },
      label: 'ntfy:reports',
    });
    expect(() => destinations.destinationFor('ntfy:two words')).toThrow(DestinationError);
    expect(() => destinations.destinationFor(`ntfy:${'x'.repeat(65)}`)).toThrow(/write ntfy:TOPIC/); // the syntax, named once
  });

  it('refuses a server address the token must not travel to, before anything is sent', async () => {
    await expect(
      deliver([delivery('ntfy:reports')], { NTFY_URL: 'http://ntfy.example.test' }),
    ).rejects.toThrow(/NTFY_URL: http: is accepted only for loopback hosts/);
    await expect(
      deliver([delivery('ntfy:reports')], { NTFY_URL: 'https://user:test-password-1@ntfy.example.test' }),
    ).rejects.toThrow(/NTFY_URL: credentials do not belong in the URL/);
    expect(ntfy.requests).toHaveLength(0);
  });
});

describe('ntfy delivery through deliverAll and the ledger', () => {
  it('publishes the summary and the figures once, with a title, tags and a click link; a rerun sends nothing', async () => {
    const deliveries = [
      delivery('archive:acme', { group: 'october' }),
      delivery('ntfy:reports', { group: 'october' }),
    ];
    const first = await deliver(deliveries, { NTFY_TOKEN: TOKEN });

    expect(first.result.failed).toEqual([]);
    expect(ntfy.messages).toHaveLength(1);
    const [published] = ntfy.messages;
    expect(published).toMatchObject({
      topic: 'reports',
      title: 'Acme usage report — October 2026', // non-ASCII, sent as an RFC 2047 word
      message: 'Active users rose to 182 (+12); credits fell 4 %.\n\nActive users: 182\nCredits: 1,204.5',
      tags: ['bar_chart', 'orgreport'],
      click: 'https://reports.example.test/acme/2026-10/',
    });
    expect(ntfy.requests[0].headers.authorization).toBe(`Bearer ${TOKEN}`);
    // The ledger holds ntfy's id of the message as the receipt.
    const sent = first.result.sent.find((s) => s.label === 'ntfy:reports');
    expect(sent?.id).toBe(published.id);
    const lines = readFileSync(first.ledgerPath, 'utf8').trim().split('\n').map(JSON.parse);
    expect(lines.filter((l) => l.target === 'ntfy:reports').map((l) => [l.state, l.id])).toEqual([
      ['sending', undefined],
      ['sent', published.id],
    ]);

    const again = await deliver(deliveries, { NTFY_TOKEN: TOKEN }, first.ledgerPath);
    expect(again.result.sent).toEqual([]);
    expect(again.result.skipped.map((s) => s.label)).toEqual(['archive:acme', 'ntfy:reports']);
    expect(ntfy.requests).toHaveLength(1);
  });

  it('retries a 429 after its Retry-After, and a 503, then publishes once', async () => {
    ntfy.fail({ status: 429, retryAfter: '7' }, { status: 503 });
    const { result, events, waits } = await deliver([delivery('ntfy:reports')], { NTFY_TOKEN: TOKEN });

    expect(result.sent.map((s) => [s.label, s.attempts])).toEqual([['ntfy:reports', 3]]);
    const retries = events.filter((e) => e.type === 'retrying');
    expect(retries.map((e) => e.error)).toEqual([
      expect.stringMatching(
        /^ntfy at 127\.0\.0\.1:\d+ answered HTTP 429: ntfy said: limit reached: too many requests/,
      ),
      expect.stringMatching(/answered HTTP 503/),
    ]);
    expect(retries[0].delayMs).toBe(7000);
    expect(waits).toContain(7000);
    expect(ntfy.messages).toHaveLength(1);
  });

  it('refuses a 403 at once, saying the topic is protected and what to set', async () => {
    const { result, events } = await deliver([delivery('ntfy:reports')], {});

    expect(result.sent).toEqual([]);
    expect(result.failed).toHaveLength(1);
    expect(result.failed[0].label).toBe('ntfy:reports');
    expect(result.failed[0].error).toMatch(
      /^ntfy at 127\.0\.0\.1:\d+ answered HTTP 403: "reports" is protected: set NTFY_TOKEN to an access token that may publish to it; ntfy said: forbidden \(code 40301\)$/,
    );
    expect(events.filter((e) => e.type === 'retrying')).toEqual([]);
    expect(ntfy.requests.map((r) => r.status)).toEqual([403]);
    expect(ntfy.messages).toEqual([]);
  });

  it('refuses a token that may not write to the topic (403) or that the server does not know (401)', async () => {
    const wrongTopic = await deliver([delivery('ntfy:reports')], { NTFY_TOKEN: OTHER_TOKEN });
    expect(wrongTopic.result.failed[0]?.error).toMatch(
      /HTTP 403: the token in NTFY_TOKEN may not publish to "reports"/,
    );
    const unknown = await deliver([delivery('ntfy:reports')], { NTFY_TOKEN: 'tk_test-token-unknown' });
    expect(unknown.result.failed[0]?.error).toMatch(/HTTP 401: the server did not accept NTFY_TOKEN/);
    expect(ntfy.requests.map((r) => r.status)).toEqual([403, 401]);
  });
});

describe('the ntfy destination on its own', () => {
  /** A send context built by hand, as a destination's own tests may. */
  const context = (settings, links = []) => ({
    key: 'dlv-test',
    messageId: '<orgreport.dlv-test@orgreport.test>',
    settings: { NTFY_URL: ntfy.url, ...settings },
    signal: new AbortController().signal,
    log: (line) => outputs.push(line),
    links,
  });

  it('never puts the token in its own errors, whatever the server answers', async () => {
    for (const [token, status] of [
      [OTHER_TOKEN, 403],
      ['tk_test-token-unknown', 401],
    ]) {
      const error = await destination
        .send(message(), { topic: 'reports' }, context({ NTFY_TOKEN: token }))
        .catch((e) => e);
      outputs.push(error);
      expect(error).toBeInstanceOf(PermanentDeliveryError);
      expect(error.destination).toBe('ntfy:reports');
      expect(error.message).toContain(`HTTP ${status}`);
      expect(inspect(error, { depth: 8 })).not.toContain(token);
    }
  });

  it('cuts a long body to what ntfy keeps as text, so it is not turned into an attachment', async () => {
    const long = message({ summary: 'é'.repeat(3000) });
    expect(Buffer.byteLength(ntfyBody(long), 'utf8')).toBeLessThanOrEqual(NTFY_MESSAGE_LIMIT_BYTES);
    const receipt = await destination.send(long, { topic: 'open' }, context({}));
    expect(receipt.id).toBe(ntfy.messages[0]?.id);
    expect(ntfy.messages[0]?.message).toMatch(/^é+…$/);
  });

  it('links the first of the links given, and sends an alert with a warning tag', async () => {
    await destination.send(
      message({ kind: 'alert' }),
      { topic: 'open' },
      context({}, [
        { url: 'https://reports.example.test/a/', label: 'Stored' },
        { url: 'https://reports.example.test/b/', label: 'Other' },
      ]),
    );
    expect(ntfy.messages[0]).toMatchObject({
      click: 'https://reports.example.test/a/',
      tags: ['warning', 'orgreport'],
    });
    expect(ntfy.requests[0].headers.authorization).toBeUndefined();
  });

  it('takes no answer as retryable, naming the server but not the token', async () => {
    const url = ntfy.url;
    await ntfy.close();
    const error = await destination
      .send(
        message(),
        { topic: 'reports' },
        { ...context({ NTFY_TOKEN: TOKEN }), settings: { NTFY_URL: url, NTFY_TOKEN: TOKEN } },
      )
      .catch((e) => e);
    outputs.push(error);
    expect(error).toBeInstanceOf(RetryableDeliveryError);
    expect(error.message).toMatch(/^could not reach ntfy at 127\.0\.0\.1:\d+ \(ECONNREFUSED\)$/);
    ntfy = await startNtfy();
  });
});
