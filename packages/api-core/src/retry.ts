/**
 * When and how long to wait before a retry: retryable statuses, exponential backoff with jitter,
 * the server's `retry-after-ms` / `Retry-After`, and which connection failures happen before a
 * request leaves the machine (the only failures after which a POST may be sent again).
 */

/** Base delay of the first retry. */
export const INITIAL_RETRY_DELAY_MS = 500;
/** No computed delay is longer than this. */
export const MAX_RETRY_DELAY_MS = 8_000;
/** A server-requested wait longer than this is not honoured by sleeping: the error is raised instead. */
export const MAX_RETRY_AFTER_MS = 60_000;

/** True for the statuses after which an idempotent request is worth repeating: 408, 409, 429 and 5xx. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/**
 * The delay before retry number `retry` (0 for the first): 0.5 s x 2^retry capped at 8 s,
 * shortened by up to 25 % at random so that many clients do not retry in step.
 *
 * @example
 * backoffDelayMs(0, () => 0) // 500
 * backoffDelayMs(5, () => 0) // 8000 (capped)
 */
export function backoffDelayMs(retry: number, random: () => number = Math.random): number {
  const base = Math.min(INITIAL_RETRY_DELAY_MS * 2 ** retry, MAX_RETRY_DELAY_MS);
  return Math.round(base * (1 - 0.25 * random()));
}

/**
 * The wait the server asked for, in milliseconds: `retry-after-ms`, else `Retry-After` as seconds
 * or as an HTTP date (measured from `nowMs`). Undefined when absent, unreadable or negative.
 */
export function retryAfterMs(headers: Headers, nowMs: number): number | undefined {
  const ms = headers.get('retry-after-ms');
  if (ms !== null && ms.trim() !== '') {
    const n = Number(ms);
    if (Number.isFinite(n) && n >= 0) return n;
  }
  const value = headers.get('retry-after')?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - nowMs);
}

// Error codes (undici, Node's net and dns) that mean no byte of the request was sent.
const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/** The `code` of an error or of one of its causes (undici wraps the socket error in `cause`). */
export function errorCode(error: unknown): string | undefined {
  for (let e = error, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/** True when a fetch failure certainly happened before the request was sent (connection refused, DNS, ...). */
export function failedBeforeSending(error: unknown): boolean {
  const code = errorCode(error);
  return code !== undefined && NOT_SENT_CODES.has(code);
}

/** Waits `ms` before a retry; rejects with the signal's reason when it aborts first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
