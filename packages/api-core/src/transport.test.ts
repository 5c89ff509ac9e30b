import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { session, tokensDay } from './__fixtures__/samples.ts';
import {
  connectionRefused,
  connectionReset,
  envelope,
  stubClient,
  TEST_KEY,
} from './__fixtures__/stub-fetch.ts';
import {
  ApiAbortError,
  ApiConnectionError,
  ApiTimeoutError,
  AuthenticationError,
  BadRequestError,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  ResponseValidationError,
} from './errors.ts';
import type { Logger } from './logger.ts';

const computers = { computers: [{ id: 'cmp_1' }] };
const range = { startDate: '2026-10-01', endDate: '2026-10-02' };

describe('requests', () => {
  it('sends the bearer token, JSON headers and the query to the right host', async () => {
    const { client, calls } = stubClient([{ body: envelope([tokensDay('2026-10-01')]) }]);
    await client.analytics.tokens({ ...range, groupBy: undefined });
    const call = calls[0]!;
    expect(call.url.origin + call.url.pathname).toBe('http://api.test/api/v1/analytics/tokens');
    expect(Object.fromEntries(call.url.searchParams)).toEqual({
      startDate: '2026-10-01',
      endDate: '2026-10-02',
    });
    expect(call.headers.get('authorization')).toBe(`Bearer ${TEST_KEY}`);
    expect(call.headers.get('accept')).toBe('application/json');
  });

  it('takes the request id from the body, else from x-request-id', async () => {
    const a = stubClient([
      {
        status: 404,
        body: { title: 'Not Found', requestId: 'req_body' },
        headers: { 'x-request-id': 'req_h' },
      },
    ]);
    await expect(a.client.sessions.get('s1')).rejects.toMatchObject({ requestId: 'req_body', status: 404 });
    const b = stubClient([{ status: 404, raw: 'not json', headers: { 'x-request-id': 'req_h' } }]);
    const err = await b.client.sessions.get('s1').catch((e) => e);
    expect(err).toBeInstanceOf(NotFoundError);
    expect(err.requestId).toBe('req_h');
  });

  it('maps each error status to its class without retrying 4xx', async () => {
    const cases = [
      [400, BadRequestError],
      [401, AuthenticationError],
      [403, PermissionDeniedError],
      [404, NotFoundError],
    ] as const;
    for (const [status, cls] of cases) {
      const { client, calls } = stubClient([{ status, body: { title: 'x' } }]);
      await expect(client.computers.list()).rejects.toBeInstanceOf(cls);
      expect(calls).toHaveLength(1);
    }
  });

  it('says which field of a response breaks the schema', async () => {
    const bad = envelope([tokensDay('2026-10-01'), { ...tokensDay('2026-10-02'), billable_tokens: 'many' }]);
    const { client } = stubClient([{ body: bad }]);
    const err = await client.analytics.tokens(range).catch((e) => e);
    expect(err).toBeInstanceOf(ResponseValidationError);
    expect(err.operation).toBe('analytics.tokens');
    expect(err.path).toBe('data[1].billable_tokens');
    expect(err.message).toContain('analytics.tokens');
    expect(err.message).toContain('data[1].billable_tokens');
  });

  it('raises MalformedResponseError for a body that is not JSON, and skips schemas when asked', async () => {
    const { client } = stubClient([{ raw: '<html>' }], { maxRetries: 0 });
    await expect(client.computers.list()).rejects.toMatchObject({
      name: 'MalformedResponseError',
      operation: 'computers.list',
    });
    const loose = stubClient([{ body: { computers: [{ id: 5 }] } }], { validateResponses: false });
    expect(await loose.client.computers.list()).toEqual([{ id: 5 }]);
  });

  it('keeps unknown properties of a response', async () => {
    const { client } = stubClient([{ body: { computers: [{ id: 'c', brandNew: 1 }] } }]);
    expect((await client.computers.list())[0]).toMatchObject({ id: 'c', brandNew: 1 });
  });

  it('counts requests, retries and bytes, and calls the progress hooks', async () => {
    const events: string[] = [];
    const { client } = stubClient([{ status: 503 }, { body: computers }], {
      onRequest: (e) => events.push(`req ${e.operation} #${e.attempt}`),
      onResponse: (e) => events.push(`res ${e.status} ${e.bytes}`),
    });
    vi.useFakeTimers();
    try {
      const p = client.computers.list();
      await vi.advanceTimersByTimeAsync(1000);
      await p;
    } finally {
      vi.useRealTimers();
    }
    const bytes = JSON.stringify(computers).length;
    expect(events).toEqual([
      'req computers.list #1',
      'res 503 0',
      'req computers.list #2',
      `res 200 ${bytes}`,
    ]);
    expect(client.stats).toEqual({
      requests: 2,
      retries: 1,
      bytesReceived: bytes,
      failures: 0,
      redirectedTo: [],
    });
  });

  it('a progress hook that throws does not fail the request', async () => {
    const { client, calls } = stubClient([{ body: computers }], {
      onRequest: () => {
        throw new Error('display broke');
      },
    });
    await expect(client.computers.list()).resolves.toHaveLength(1);
    expect(calls).toHaveLength(1);
  });
});

describe('retries', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2026-11-22T08:00:00Z'));
  });
  afterEach(() => vi.useRealTimers());

  it('retries GET on 408, 409, 429 and 5xx after 0.5 s x 2^n with jitter', async () => {
    for (const status of [408, 409, 429, 500, 502]) {
      const { client, calls } = stubClient([{ status }, { body: computers }]);
      const p = client.computers.list();
      await vi.advanceTimersByTimeAsync(374); // the shortest first delay is 375 ms
      expect(calls, String(status)).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(126);
      expect(calls).toHaveLength(2);
      await expect(p).resolves.toEqual(computers.computers);
    }
  });

  it('gives up after maxRetries (default 2) with the last error', async () => {
    const { client, calls } = stubClient([{ status: 500, body: { title: 'Internal' } }]);
    const p = client.computers.list();
    const settled = expect(p).rejects.toBeInstanceOf(InternalServerError);
    await vi.advanceTimersByTimeAsync(499); // first retry due at <= 500 ms
    expect(calls).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1000); // second retry due at <= 1000 ms later
    expect(calls).toHaveLength(3);
    await settled;
    await vi.advanceTimersByTimeAsync(10_000);
    expect(calls).toHaveLength(3);
    expect(client.stats).toMatchObject({ requests: 3, retries: 2, failures: 1 });
  });

  it('retries with backoff 0.5 s x 2^n up to maxRetries', async () => {
    const { client, calls } = stubClient([{ status: 500, body: { title: 'Internal' } }], { maxRetries: 4 });
    const p = client.computers.list();
    const settled = expect(p).rejects.toBeInstanceOf(InternalServerError);
    await vi.advanceTimersByTimeAsync(499 + 1000); // <= 0.5 s, then <= 1 s
    expect(calls).toHaveLength(3);
    await vi.advanceTimersByTimeAsync(2000 + 4000); // then <= 2 s and <= 4 s
    await settled;
    expect(calls).toHaveLength(5);
    expect(client.stats).toMatchObject({ requests: 5, retries: 4, failures: 1 });
  });

  it('honours maxRetries per client and per call', async () => {
    const a = stubClient([{ status: 500 }], { maxRetries: 0 });
    await expect(a.client.computers.list()).rejects.toBeInstanceOf(InternalServerError);
    expect(a.calls).toHaveLength(1);
    const b = stubClient([{ status: 500 }]);
    const p = b.client.computers.list({ maxRetries: 3 });
    const settled = expect(p).rejects.toBeInstanceOf(InternalServerError);
    await vi.advanceTimersByTimeAsync(20_000);
    await settled;
    expect(b.calls).toHaveLength(4);
  });

  it('waits as long as Retry-After (seconds or HTTP date) or retry-after-ms says', async () => {
    const cases: Array<[Record<string, string>, number]> = [
      [{ 'retry-after': '3' }, 3000],
      [{ 'retry-after': 'Sun, 22 Nov 2026 08:00:02 GMT' }, 2000],
      [{ 'retry-after-ms': '1200' }, 1200],
    ];
    for (const [headers, wait] of cases) {
      vi.setSystemTime(new Date('2026-11-22T08:00:00Z'));
      const { client, calls } = stubClient([{ status: 429, headers }, { body: computers }]);
      const p = client.computers.list();
      await vi.advanceTimersByTimeAsync(wait - 1);
      expect(calls, JSON.stringify(headers)).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(1);
      expect(calls).toHaveLength(2);
      await p;
    }
  });

  it('does not sleep through a Retry-After over 60 s: raises RateLimitError with the wait', async () => {
    const { client, calls } = stubClient([{ status: 429, headers: { 'retry-after': '120' } }]);
    const err = await client.computers.list().catch((e) => e);
    expect(err).toBeInstanceOf(RateLimitError);
    expect(err.retryAfterMs).toBe(120_000);
    expect(calls).toHaveLength(1);
  });

  it('retries GET after connection errors and timeouts', async () => {
    const a = stubClient([connectionReset(), { body: computers }]);
    const p = a.client.computers.list();
    await vi.advanceTimersByTimeAsync(500);
    await expect(p).resolves.toHaveLength(1);

    const b = stubClient([{ delayMs: 10_000, body: computers }, { body: computers }], { timeoutMs: 1000 });
    const q = b.client.computers.list();
    await vi.advanceTimersByTimeAsync(1000 + 500);
    await expect(q).resolves.toHaveLength(1);
    expect(b.calls).toHaveLength(2);
  });

  it('raises ApiTimeoutError / ApiConnectionError once retries are spent', async () => {
    const a = stubClient([{ delayMs: 10_000 }], { timeoutMs: 1000, maxRetries: 0 });
    const p = a.client.computers.list();
    const settled = expect(p).rejects.toBeInstanceOf(ApiTimeoutError);
    await vi.advanceTimersByTimeAsync(1000);
    await settled;
    const b = stubClient([connectionReset()], { maxRetries: 0 });
    const err = await b.client.computers.list().catch((e) => e);
    expect(err).toBeInstanceOf(ApiConnectionError);
    expect(err).not.toBeInstanceOf(ApiTimeoutError);
    expect(err.message).toContain('ECONNRESET');
  });

  it('retries PUT (credit limits) on 503', async () => {
    const ok = { updated: [{ email: 'a@example.com', limit: 5 }], errors: [] };
    const { client, calls } = stubClient([{ status: 503 }, { body: ok }]);
    const p = client.creditLimits.set([{ email: 'a@example.com', limit: 5 }]);
    await vi.advanceTimersByTimeAsync(500);
    expect((await p).updated).toHaveLength(1);
    expect(calls.map((c) => c.method)).toEqual(['PUT', 'PUT']);
  });

  it('repeats POST /sessions only when the connection failed before sending', async () => {
    const refused = stubClient([connectionRefused(), { status: 201, body: session('s1') }]);
    const p = refused.client.sessions.create({ computerId: 'cmp_1' });
    await vi.advanceTimersByTimeAsync(500);
    await expect(p).resolves.toMatchObject({ sessionId: 's1' });
    expect(refused.calls).toHaveLength(2);

    for (const answer of [{ status: 500 }, { status: 429 }, connectionReset()]) {
      const { client, calls } = stubClient([answer, { status: 201, body: session('s2') }]);
      await expect(client.sessions.create({ computerId: 'cmp_1' })).rejects.toThrow();
      expect(calls).toHaveLength(1);
    }
    const slow = stubClient([{ delayMs: 5000 }, { status: 201, body: session('s3') }], { timeoutMs: 1000 });
    const q = slow.client.sessions.create({ computerId: 'cmp_1' });
    const settled = expect(q).rejects.toBeInstanceOf(ApiTimeoutError);
    await vi.advanceTimersByTimeAsync(1000);
    await settled;
    expect(slow.calls).toHaveLength(1);
  });

  it('treats PATCH like POST (not repeated once the server may have seen it)', async () => {
    const { client, calls } = stubClient([{ status: 502 }, { body: session('s1') }]);
    await expect(client.sessions.update('s1', { sessionSettings: { model: 'm' } })).rejects.toBeInstanceOf(
      InternalServerError,
    );
    expect(calls).toHaveLength(1);
    const refused = stubClient([connectionRefused(), { body: session('s1') }]);
    const p = refused.client.sessions.update('s1', {});
    await vi.advanceTimersByTimeAsync(500);
    await expect(p).resolves.toMatchObject({ sessionId: 's1' });
  });
});

describe('abort and concurrency', () => {
  afterEach(() => vi.useRealTimers());

  it('an aborted signal stops the call before sending, and during a retry wait', async () => {
    const a = stubClient([{ body: computers }]);
    const controller = new AbortController();
    controller.abort();
    await expect(a.client.computers.list({ signal: controller.signal })).rejects.toBeInstanceOf(
      ApiAbortError,
    );
    expect(a.calls).toHaveLength(0);

    vi.useFakeTimers();
    const b = stubClient([{ status: 500 }, { body: computers }]);
    const c2 = new AbortController();
    const p = b.client.computers.list({ signal: c2.signal });
    const settled = expect(p).rejects.toBeInstanceOf(ApiAbortError);
    await vi.advanceTimersByTimeAsync(100);
    c2.abort();
    await settled;
    await vi.advanceTimersByTimeAsync(5000);
    expect(b.calls).toHaveLength(1);
  });

  it('an abort during the request is not retried', async () => {
    const { client, calls } = stubClient([{ delayMs: 50, body: computers }]);
    const controller = new AbortController();
    const p = client.computers.list({ signal: controller.signal });
    setTimeout(() => controller.abort(), 5);
    await expect(p).rejects.toBeInstanceOf(ApiAbortError);
    expect(calls).toHaveLength(1);
  });

  it('never has more requests in flight than the client-wide limit', async () => {
    let inFlight = 0;
    let peak = 0;
    const { client, calls } = stubClient(
      () => {
        inFlight++;
        peak = Math.max(peak, inFlight);
        setTimeout(() => inFlight--, 20);
        return { delayMs: 20, body: computers };
      },
      { concurrency: 2 },
    );
    await Promise.all([
      client.computers.list(),
      client.computers.list(),
      client.sessions.get('s1').catch(() => undefined),
      client.computers.list(),
      client.computers.list(),
    ]);
    expect(calls).toHaveLength(5);
    expect(peak).toBe(2);
    expect(client.inFlight).toBe(0);
  });
});

describe('redaction', () => {
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

  it('never writes the key or the Authorization header to logs or error messages', async () => {
    vi.useFakeTimers();
    try {
      const { logger, lines } = spyLogger();
      const leaky = Object.assign(new TypeError(`fetch failed for Bearer ${TEST_KEY}`), {});
      const { client } = stubClient(
        [
          { status: 401, body: { title: 'Unauthorized', detail: `key ${TEST_KEY} is unknown` } },
          leaky,
          { status: 500, body: { title: 'oops', detail: `token=${TEST_KEY}` } },
        ],
        { logger, logLevel: 'debug' },
      );
      const errors: Error[] = [];
      errors.push(await client.computers.list().catch((e) => e));
      const p = client.computers.list().catch((e) => e);
      await vi.advanceTimersByTimeAsync(10_000);
      errors.push(await p);
      expect(lines.length).toBeGreaterThan(3);
      expect(lines.some((l) => l.includes('Authorization'))).toBe(true);
      for (const text of [...lines, ...errors.map((e) => `${e.message} ${JSON.stringify(e)}`)]) {
        expect(text).not.toContain(TEST_KEY);
      }
      expect(errors[0]).toBeInstanceOf(AuthenticationError);
      expect(errors[0]!.message).toContain('[redacted]');
    } finally {
      vi.useRealTimers();
    }
  });

  it('filters lines below the log level', async () => {
    const { logger, lines } = spyLogger();
    const { client } = stubClient([{ body: computers }], { logger, logLevel: 'warn' });
    await client.computers.list();
    expect(lines).toEqual([]);
  });
});
