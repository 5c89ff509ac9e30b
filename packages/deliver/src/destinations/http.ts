/**
 * What the destinations that speak plain HTTP (`teams`, `webhook`) share: which URLs they accept,
 * one POST with a time limit that follows no redirect, and the reading of an answer as delivered,
 * worth retrying (408, 429, 5xx, a timeout, a dropped connection) or refused (any other 4xx).
 * Internal: not exported from the package.
 */
import { scrubText } from '@orgreport/api-core/redact';
import { errorCode } from '@orgreport/api-core/retry';
import { type DeliveryError, PermanentDeliveryError, RetryableDeliveryError } from '../destination.ts';

/** How long one request may take before it counts as a timeout (retryable). */
export const REQUEST_TIMEOUT_MS = 30_000;

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

/**
 * Reads an HTTP(S) URL for a destination; `http:` only on loopback (a local receiver, a test
 * server), since the body and its signature would otherwise cross the network in the clear.
 * Returns an explanation instead of a URL when it cannot be used; the explanation never quotes the
 * URL, which may be a secret.
 */
export function readHttpUrl(text: string): URL | string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'not a URL';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'not an http(s) URL';
  if (url.protocol === 'http:' && !LOOPBACK_HOSTS.has(url.hostname)) {
    return 'http: is accepted only for loopback hosts (127.0.0.1, ::1, localhost); use https:';
  }
  if (url.username !== '' || url.password !== '') return 'credentials do not belong in the URL';
  return url;
}

/**
 * How long a server asked to wait, in ms: `Retry-After` as seconds, or as an HTTP date measured
 * against the response's own `Date` header (so that no clock of ours is read). Undefined when
 * absent or unreadable.
 */
export function retryAfterMs(headers: Headers): number | undefined {
  const value = headers.get('retry-after')?.trim();
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  const now = Date.parse(headers.get('date') ?? '');
  if (Number.isNaN(at) || Number.isNaN(now)) return undefined;
  return Math.max(0, at - now);
}

export interface PostOptions {
  /** The destination as it may be printed (`teams:ORGREPORT_TEAMS_WEBHOOK_URL`). */
  destination: string;
  url: URL;
  headers: Record<string, string>;
  body: string;
  /** The run's signal (a deadline, Ctrl-C). */
  signal: AbortSignal;
  timeoutMs?: number;
}

/**
 * POSTs a body and returns the response, whatever its status. A failure to get an answer becomes
 * a {@link RetryableDeliveryError} whose message names neither the URL nor the request's headers.
 * Redirects are not followed: a signed body is never sent on to a host it was not meant for.
 */
export async function post(options: PostOptions): Promise<Response> {
  const timeoutMs = options.timeoutMs ?? REQUEST_TIMEOUT_MS;
  const timeout = AbortSignal.timeout(timeoutMs);
  try {
    return await fetch(options.url, {
      method: 'POST',
      headers: options.headers,
      body: options.body,
      redirect: 'manual',
      signal: AbortSignal.any([options.signal, timeout]),
    });
  } catch (error) {
    if (options.signal.aborted) {
      throw new RetryableDeliveryError(
        options.destination,
        'the delivery was cancelled before an answer came',
      );
    }
    if (timeout.aborted) {
      throw new RetryableDeliveryError(options.destination, `no answer within ${timeoutMs / 1000} s`);
    }
    const code = errorCode(error) ?? 'network error';
    throw new RetryableDeliveryError(options.destination, `could not reach the receiver (${code})`);
  }
}

/** True for the statuses worth sending again: 408, 429 and 5xx. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

/**
 * The error for a response that is not a success: retryable for 408, 429 and 5xx (carrying
 * Retry-After), permanent otherwise (a redirect, another 4xx). The message quotes the start of the
 * response's body, with the secrets scrubbed, after what the caller says of the status.
 */
export async function failureOf(
  destination: string,
  response: Response,
  secrets: ReadonlyArray<string | undefined>,
  explain: (status: number) => string | undefined = () => undefined,
): Promise<DeliveryError> {
  const { status } = response;
  const body = scrubText(await bodyExcerpt(response), secrets);
  const said = [explain(status), body === '' ? undefined : `the receiver said: ${body}`]
    .filter((part) => part !== undefined)
    .join('; ');
  const message = `HTTP ${status}${said === '' ? '' : `: ${said}`}`;
  if (isRetryableStatus(status)) {
    return new RetryableDeliveryError(destination, message, retryAfterMs(response.headers));
  }
  if (status >= 300 && status < 400) {
    return new PermanentDeliveryError(
      destination,
      `HTTP ${status}: the receiver answered with a redirect, which is not followed; configure the final URL`,
    );
  }
  return new PermanentDeliveryError(destination, message);
}

const EXCERPT_CHARS = 300;

async function bodyExcerpt(response: Response): Promise<string> {
  try {
    const text = (await response.text()).replace(/\s+/g, ' ').trim();
    return text.length > EXCERPT_CHARS ? `${text.slice(0, EXCERPT_CHARS)}…` : text;
  } catch {
    return '';
  }
}
