import { inspect } from 'node:util';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { controlChange, session, tokensDay } from './__fixtures__/samples.ts';
import { connectionReset, envelope, stubClient, TEST_KEY } from './__fixtures__/stub-fetch.ts';
import { OrgClient } from './client.ts';
import {
  ApiConnectionError,
  InternalServerError,
  MalformedResponseError,
  ResponseValidationError,
} from './errors.ts';
import type { Logger } from './logger.ts';

const computers = { computers: [{ id: 'cmp_1' }] };
const range = { startDate: '2026-10-01', endDate: '2026-10-02' };
const fullBody = JSON.stringify(envelope([tokensDay('2026-10-01'), tokensDay('2026-10-02')]));
const truncated = fullBody.slice(0, Math.floor(fullBody.length / 2));

/** A fetch whose 200 response sends `firstBytes` of the body, then fails the stream (a dropped connection). */
function droppingFetch(body: string, firstBytes: number, thenOk = 0) {
  let calls = 0;
  const fetch = async (): Promise<Response> => {
    calls++;
    if (calls <= thenOk) return new Response(body, { status: 200 });
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(body.slice(0, firstBytes)));
        controller.error(
          Object.assign(new TypeError('terminated'), {
            cause: Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }),
          }),
        );
      },
    });
    return new Response(stream, { status: 200, headers: { 'content-length': String(body.length) } });
  };
  return { fetch: fetch as typeof globalThis.fetch, calls: () => calls };
}

function spyLogger() {
  const lines: string[] = [];
  const push = (level: string) => (m: string, f?: Record<string, unknown>) =>
    lines.push(`${level} ${m} ${f ? JSON.stringify(f) : ''}`);
  const logger: Logger = {
    debug: push('debug'),
    info: push('info'),
    warn: push('warn'),
    error: push('error'),
  };
  return { logger, lines };
}

describe('a 200 response with a broken body', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('retries a GET whose body is truncated JSON and returns the good answer', async () => {
    const { client, calls } = stubClient([{ raw: truncated }, { raw: fullBody }]);
    const p = client.analytics.tokens(range);
    await vi.advanceTimersByTimeAsync(500);
    const { data } = await p;
    expect(data.map((d) => d.date)).toEqual(['2026-10-01', '2026-10-02']);
    expect(calls).toHaveLength(2);
    expect(client.stats).toMatchObject({ requests: 2, retries: 1, failures: 0 });
  });

  it('raises MalformedResponseError naming the operation and endpoint once retries are spent', async () => {
    const { client, calls } = stubClient([{ raw: truncated, headers: { 'x-request-id': 'req_7' } }]);
    const p = client.analytics.tokens(range).catch((e) => e);
    await vi.advanceTimersByTimeAsync(8000);
    const err = await p;
    expect(err).toBeInstanceOf(MalformedResponseError);
    expect(err).not.toBeInstanceOf(ResponseValidationError);
    expect(calls).toHaveLength(3); // first try + default 2 retries
    expect(err.operation).toBe('analytics.tokens');
    expect(err.message).toContain('analytics.tokens');
    expect(err.message).toContain('/api/v1/analytics/tokens');
    expect(err.message).toContain('not valid JSON');
    expect(err.message).toContain('attempt 3');
    expect(err.message).toContain('req_7');
    expect(err.message).not.toContain(truncated.slice(0, 20));
  });

  it('treats an empty 200 body and invalid UTF-8 as malformed', async () => {
    const a = stubClient([{ raw: '' }], { maxRetries: 0 });
    await expect(a.client.computers.list()).rejects.toBeInstanceOf(MalformedResponseError);
    const bytes = new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]); // {"\xff\xfe"}
    const client = new OrgClient({
      apiKey: TEST_KEY,
      baseUrl: 'http://api.test',
      maxRetries: 0,
      fetch: (async () => new Response(bytes, { status: 200 })) as typeof globalThis.fetch,
    });
    await expect(client.computers.list()).rejects.toBeInstanceOf(MalformedResponseError);
  });

  it('retries a GET whose connection drops mid-body, and reports a connection error after the budget', async () => {
    const recovering = droppingFetch(JSON.stringify(computers), 5);
    const flaky = new OrgClient({
      apiKey: TEST_KEY,
      baseUrl: 'http://api.test',
      fetch: recovering.fetch,
      maxRetries: 2,
    });
    const p = flaky.computers.list().catch((e) => e);
    await vi.advanceTimersByTimeAsync(2000);
    const err = await p;
    expect(recovering.calls()).toBe(3);
    expect(err).toBeInstanceOf(ApiConnectionError);
    expect(err.message).toContain('computers.list');
    expect(err.message).toContain('/api/v0/computers');
    expect(err.message).toContain('dropped while receiving the response');
    expect(err.message).toContain('UND_ERR_SOCKET');

    const once = droppingFetch(JSON.stringify(computers), 5);
    let n = 0;
    const okSecond = (async (...args: Parameters<typeof globalThis.fetch>) => {
      n++;
      return n === 1 ? once.fetch(...args) : new Response(JSON.stringify(computers), { status: 200 });
    }) as typeof globalThis.fetch;
    const client = new OrgClient({ apiKey: TEST_KEY, baseUrl: 'http://api.test', fetch: okSecond });
    const q = client.computers.list();
    await vi.advanceTimersByTimeAsync(500);
    await expect(q).resolves.toEqual(computers.computers);
    expect(n).toBe(2);
  });

  it('retries PUT (credit limits) on a truncated body', async () => {
    const ok = JSON.stringify({ updated: [{ email: 'a@example.com', limit: 5 }], errors: [] });
    const { client, calls } = stubClient([{ raw: ok.slice(0, 10) }, { raw: ok }]);
    const p = client.creditLimits.set([{ email: 'a@example.com', limit: 5 }]);
    await vi.advanceTimersByTimeAsync(500);
    const result = await p;
    expect(calls).toHaveLength(2);
    expect(result.updated).toHaveLength(1);
    expect(result.error).toBeUndefined();
  });

  it('does not repeat a POST whose response body is truncated (the server acted on it)', async () => {
    const body = JSON.stringify(session('s1'));
    const { client, calls } = stubClient([{ status: 201, raw: body.slice(0, 12) }, { raw: body }]);
    const err = await client.sessions.create({ computerId: 'cmp_1', cwd: '/w' }).catch((e) => e);
    expect(err).toBeInstanceOf(MalformedResponseError);
    expect(err.message).toContain('sessions.create');
    expect(calls).toHaveLength(1);
  });

  it('does not retry a well-formed body that breaks the schema (a drift problem)', async () => {
    const bad = envelope([{ ...tokensDay('2026-10-01'), billable_tokens: 'many' }]);
    const { client, calls } = stubClient([{ body: bad }, { body: envelope([tokensDay('2026-10-01')]) }]);
    const err = await client.analytics.tokens(range).catch((e) => e);
    expect(err).toBeInstanceOf(ResponseValidationError);
    expect(calls).toHaveLength(1);
  });
});

describe('secrets in causes and debug logs', () => {
  it("scrubs the key from an ApiConnectionError's cause chain, keeping the error codes", async () => {
    const leaky = Object.assign(new TypeError(`fetch failed with key ${TEST_KEY}`), {
      cause: Object.assign(new Error(`socket for Bearer ${TEST_KEY} closed`), {
        code: 'ECONNRESET',
        apiKey: TEST_KEY,
      }),
    });
    const { client } = stubClient([leaky], { maxRetries: 0 });
    const err = await client.computers.list().catch((e) => e);
    expect(err).toBeInstanceOf(ApiConnectionError);
    const dump = inspect(err, { depth: 10, showHidden: true });
    expect(dump).toContain('ECONNRESET');
    expect(dump).not.toContain(TEST_KEY);
    expect(String(err.cause.stack)).not.toContain(TEST_KEY);
    expect(err.cause.cause.code).toBe('ECONNRESET');
    expect(err.cause.cause.apiKey).toBeUndefined();
  });

  it('keeps the key and custom-model apiKey values out of debug logs, also on failures', async () => {
    vi.useFakeTimers();
    try {
      const customKey = 'test-custom-model-key';
      const history = { changes: [controlChange(2)], pagination: { hasMore: false, nextCursor: null } };
      const broken = { changes: [{ ...controlChange(1), revision: 'one' }], pagination: { hasMore: false } };
      const { logger, lines } = spyLogger();
      const { client } = stubClient(
        [
          { body: history },
          { status: 500, body: { title: 'oops', settings: controlChange(1).settings } },
          connectionReset(),
          { raw: JSON.stringify(history).slice(0, 40) },
          { body: broken },
        ],
        { logger, logLevel: 'debug', maxRetries: 3 },
      );
      const changes = await client.controls.history().toArray();
      expect(changes[0]?.settings.customModels?.[0]?.apiKey).toBe(customKey);
      const p = client.controls
        .history()
        .toArray()
        .catch((e) => e);
      await vi.advanceTimersByTimeAsync(10_000);
      const err = await p;
      expect(err).toBeInstanceOf(ResponseValidationError);
      const lastServerError = lines.find((l) => l.includes('oops'));
      expect(lastServerError).toBeDefined();
      expect(lines.filter((l) => l.startsWith('debug')).length).toBeGreaterThan(5);
      // Retry warnings name the operation once, then what failed and the wait.
      expect(lines.some((l) => /^warn controls\.history failed: .* Retrying in \d+ ms/.test(l))).toBe(true);
      expect(lines.some((l) => l.includes('controls.history: controls.history'))).toBe(false);
      for (const text of [...lines, err.message, inspect(err, { depth: 10 })]) {
        expect(text).not.toContain(TEST_KEY);
        expect(text).not.toContain(customKey);
      }
    } finally {
      vi.useRealTimers();
    }
  });

  it('an InternalServerError keeps the redacted body, never the custom-model key', async () => {
    const { client } = stubClient(
      [{ status: 500, body: { title: 'oops', settings: controlChange(1).settings } }],
      {
        maxRetries: 0,
      },
    );
    const err = await client.computers.list().catch((e) => e);
    expect(err).toBeInstanceOf(InternalServerError);
    expect(JSON.stringify(err.body)).not.toContain('test-custom-model-key');
    expect(JSON.stringify(err.body)).toContain('[redacted]');
  });
});

describe('analytics.tokens with byUser: false (by_user dropped while the body streams)', () => {
  const byUser = [{ user_id: 'u1', user_email: 'u1@example.com', billable_tokens: 300, by_model: [] }];
  const withByUser = JSON.stringify(
    envelope([
      { ...tokensDay('2026-10-01'), by_user: byUser },
      { by_user: byUser, ...tokensDay('2026-10-02') },
    ]),
  );
  const bodyBytes = new TextEncoder().encode(withByUser).byteLength;

  it('returns the validated days without by_user and counts every byte received', async () => {
    const { client } = stubClient([{ raw: withByUser }]);
    const { data, meta, response } = await client.analytics.tokens({ ...range, byUser: false });
    expect(data).toEqual([tokensDay('2026-10-01'), tokensDay('2026-10-02')]);
    expect(meta.org_id).toBe('org_test');
    expect(response.bytes).toBe(bodyBytes);
    expect(client.stats.bytesReceived).toBe(bodyBytes);
  });

  it('keeps by_user by default and ignores byUser when grouped by model', async () => {
    const { client, calls } = stubClient([
      { raw: withByUser },
      {
        body: envelope([
          { date: '2026-10-01', group_key: 'm', billable_tokens: 1, input_tokens: 1, output_tokens: 0 },
        ]),
      },
    ]);
    const { data } = await client.analytics.tokens(range);
    expect(data[0]?.by_user).toEqual(byUser);
    const grouped = await client.analytics.tokens({ ...range, groupBy: 'model', byUser: false });
    expect(grouped.data[0]).toMatchObject({ group_key: 'm' });
    expect(calls[1]?.url.searchParams.get('group_by')).toBe('model');
  });

  it('still validates the rest of each day', async () => {
    const bad = JSON.stringify(
      envelope([{ ...tokensDay('2026-10-01'), billable_tokens: 'many', by_user: byUser }]),
    );
    const { client, calls } = stubClient([{ raw: bad }]);
    const err = await client.analytics.tokens({ ...range, byUser: false }).catch((e) => e);
    expect(err).toBeInstanceOf(ResponseValidationError);
    expect(err.message).toContain('data[0].billable_tokens');
    expect(calls).toHaveLength(1);
  });

  describe('with retries', () => {
    beforeEach(() => vi.useFakeTimers());
    afterEach(() => vi.useRealTimers());

    it('retries a body dropped inside by_user, counting the bytes of both attempts', async () => {
      const sent = new TextEncoder().encode(withByUser.slice(0, withByUser.indexOf('u1@example')));
      /** Delivers `sent`, then fails on the next read, as a socket closed mid-body does. */
      const dropping = () => {
        let pulls = 0;
        const stream = new ReadableStream<Uint8Array>({
          pull(controller) {
            if (pulls++ === 0) controller.enqueue(sent);
            else controller.error(Object.assign(new TypeError('terminated'), { code: 'UND_ERR_SOCKET' }));
          },
        });
        return new Response(stream, { status: 200 });
      };
      let n = 0;
      const fetch = (async () => {
        n++;
        return n === 1 ? dropping() : new Response(withByUser, { status: 200 });
      }) as typeof globalThis.fetch;
      const client = new OrgClient({ apiKey: TEST_KEY, baseUrl: 'http://api.test', fetch });
      const p = client.analytics.tokens({ ...range, byUser: false });
      await vi.advanceTimersByTimeAsync(500);
      const { data } = await p;
      expect(n).toBe(2);
      expect(data.map((d) => d.date)).toEqual(['2026-10-01', '2026-10-02']);
      expect(client.stats).toMatchObject({
        requests: 2,
        retries: 1,
        bytesReceived: sent.byteLength + bodyBytes,
      });
    });

    it('raises MalformedResponseError when every body is cut inside by_user', async () => {
      const cut = withByUser.slice(0, withByUser.indexOf('"billable_tokens":300,"by_model":[]'));
      const { client, calls } = stubClient([{ raw: cut }], { maxRetries: 1 });
      const p = client.analytics.tokens({ ...range, byUser: false }).catch((e) => e);
      await vi.advanceTimersByTimeAsync(2000);
      const err = await p;
      expect(err).toBeInstanceOf(MalformedResponseError);
      expect(err.message).toContain('analytics.tokens');
      expect(calls).toHaveLength(2);
    });
  });
});
