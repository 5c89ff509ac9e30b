/** A scripted `fetch` for tests: records every call and answers from a list or a function. */
import { OrgClient, type OrgClientOptions } from '../client.ts';

export const TEST_KEY = 'test-key-owner-0123456789';
export const BASE_URL = 'http://api.test';
export const APP_URL = 'http://app.test';

export interface StubCall {
  method: string;
  url: URL;
  headers: Headers;
  body: unknown;
}

export interface StubReply {
  status?: number;
  body?: unknown;
  /** Sent as is instead of JSON of `body`. */
  raw?: string;
  headers?: Record<string, string>;
  /** Wait this long (ms) before answering; the request's signal can abort the wait. */
  delayMs?: number;
}

export type StubAnswer = StubReply | Error | ((call: StubCall) => StubReply | Error);

/** An error like undici's when the connection is refused (nothing was sent). */
export function connectionRefused(): Error {
  return Object.assign(new TypeError('fetch failed'), {
    cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' }),
  });
}

/** An error like undici's when the socket closes mid-request (the request may have been seen). */
export function connectionReset(): Error {
  return Object.assign(new TypeError('fetch failed'), {
    cause: Object.assign(new Error('other side closed'), { code: 'ECONNRESET' }),
  });
}

/**
 * A fetch that answers call i with `answers[i]` (the last one repeats), or with `answers(call)`.
 * `calls` records what was sent.
 */
export function stubFetch(answers: StubAnswer[] | ((call: StubCall) => StubReply | Error)) {
  if (Array.isArray(answers) && answers.length === 0) {
    throw new TypeError('stubFetch needs at least one scripted answer');
  }
  const calls: StubCall[] = [];
  const fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const call: StubCall = {
      method: init?.method ?? 'GET',
      url: new URL(String(input)),
      headers: new Headers(init?.headers),
      body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
    };
    calls.push(call);
    // Never undefined: the list was checked to be non-empty above.
    let answer = (
      Array.isArray(answers) ? answers[Math.min(calls.length, answers.length) - 1] : answers
    ) as StubAnswer;
    if (typeof answer === 'function') answer = answer(call);
    if (answer instanceof Error) throw answer;
    const reply = answer;
    if (reply.delayMs) await wait(reply.delayMs, init?.signal ?? undefined);
    const text = reply.raw ?? (reply.body === undefined ? '' : JSON.stringify(reply.body));
    return new Response(text, {
      status: reply.status ?? 200,
      headers: { 'content-type': 'application/json', ...reply.headers },
    });
  };
  return { fetch: fetch as typeof globalThis.fetch, calls };
}

function wait(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason ?? new Error('aborted'));
    });
  });
}

/** A client over a stubbed fetch, with no retry waits unless a test wants them. */
export function stubClient(
  answers: StubAnswer[] | ((call: StubCall) => StubReply | Error),
  options: Partial<OrgClientOptions> = {},
) {
  const stub = stubFetch(answers);
  const client = new OrgClient({
    apiKey: TEST_KEY,
    baseUrl: BASE_URL,
    appUrl: APP_URL,
    fetch: stub.fetch,
    now: () => new Date('2026-11-22T08:00:00Z'),
    ...options,
  });
  return { client, calls: stub.calls };
}

/** The analytics envelope around rows. */
export function envelope(data: unknown[], meta: Record<string, unknown> = {}) {
  return { data, meta: { org_id: 'org_test', start_date: '2026-10-01', end_date: '2026-10-31', ...meta } };
}
