/**
 * The one place that sends HTTP requests: URL building, the bearer header, the shared concurrency
 * limit, per-attempt timeouts, the caller's AbortSignal, retries with backoff, error mapping,
 * response parsing and schema validation, request accounting and redacted logging.
 */
import type { z } from 'zod';
import {
  ApiAbortError,
  ApiConnectionError,
  ApiError,
  ApiTimeoutError,
  MalformedResponseError,
  type RequestContext,
  ResponseValidationError,
} from './errors.ts';
import type { BodyFilter } from './json-member-filter.ts';
import { ConcurrencyLimiter } from './limiter.ts';
import { type Logger, scrubValue } from './logger.ts';
import { scrubText } from './redact.ts';
import {
  backoffDelayMs,
  errorCode,
  failedBeforeSending,
  isRetryableStatus,
  MAX_RETRY_AFTER_MS,
  retryAfterMs,
} from './retry.ts';

/** Options every call accepts as its last argument. */
export interface RequestOptions {
  /** Aborts the call (and any retry wait); the call then rejects with {@link ApiAbortError}. */
  signal?: AbortSignal;
  /** Overrides the client's per-attempt timeout. */
  timeoutMs?: number;
  /** Overrides the client's number of retries. */
  maxRetries?: number;
}

/** Counters of one client's traffic, for progress display and benchmarks. */
export interface RequestStats {
  /** HTTP attempts started (first tries and retries). */
  requests: number;
  /** Attempts that were retries. */
  retries: number;
  /** Response body bytes received. */
  bytesReceived: number;
  /** Calls that ended in an error after their last attempt. */
  failures: number;
}

/** Passed to `onRequest` when an attempt starts. */
export interface RequestEvent extends RequestContext {
  /** 1 for the first try, 2 for the first retry, ... */
  attempt: number;
}

/** Passed to `onResponse` when an attempt got an HTTP response (of any status) and read its body. */
export interface ResponseEvent extends RequestEvent {
  status: number;
  bytes: number;
  durationMs: number;
  requestId: string | undefined;
}

/** What a successful call returns besides its data. */
export interface ResponseMeta extends RequestContext {
  status: number;
  requestId: string | undefined;
  /** Body bytes of the final response. */
  bytes: number;
  /** Attempts made, retries included. */
  attempts: number;
}

/** Which failures a request may be repeated after. */
export type RetryPolicy =
  /** GET and PUT: retryable statuses, connection errors and timeouts. */
  | 'idempotent'
  /** POST and PATCH: only a connection that failed before the request was sent. */
  | 'unsent-only';

export interface RequestSpec<T> {
  operation: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH';
  host: 'api' | 'app';
  path: string;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  schema: z.ZodType<T>;
  retry: RetryPolicy;
  options?: RequestOptions | undefined;
  /**
   * Makes a fresh filter per attempt that a successful body streams through before it is parsed
   * (to drop a huge member without ever holding the body as one string); error bodies are not filtered.
   */
  bodyFilter?: (() => BodyFilter) | undefined;
  /**
   * A cheap check of the parsed body; when it returns true the body is taken as is and the schema
   * is skipped. It must accept only bodies the schema accepts unchanged; anything else goes to zod.
   */
  fastCheck?: ((json: unknown) => json is T) | undefined;
}

export interface TransportConfig {
  apiKey: string;
  baseUrl: string;
  appUrl: string | undefined;
  fetch: typeof globalThis.fetch;
  maxRetries: number;
  timeoutMs: number;
  concurrency: number;
  logger: Logger;
  validateResponses: boolean;
  onRequest?: ((event: RequestEvent) => void) | undefined;
  onResponse?: ((event: ResponseEvent) => void) | undefined;
}

type Attempt<T> =
  | { ok: true; data: T; meta: ResponseMeta }
  | { ok: false; error: Error; retryable: boolean; retryAfterMs?: number | undefined };

/** Sends requests for one client; resources call {@link Transport.request}. */
export class Transport {
  readonly #config: TransportConfig;
  readonly #limiter: ConcurrencyLimiter;
  readonly #stats: RequestStats = { requests: 0, retries: 0, bytesReceived: 0, failures: 0 };

  constructor(config: TransportConfig) {
    this.#config = config;
    this.#limiter = new ConcurrencyLimiter(config.concurrency);
  }

  /** A copy of the counters. */
  get stats(): RequestStats {
    return { ...this.#stats };
  }

  /** Requests in flight now (never more than the concurrency limit). */
  get inFlight(): number {
    return this.#limiter.active;
  }

  /** Removes the API key and bearer tokens from a text. */
  scrub(text: string): string {
    return scrubText(text, [this.#config.apiKey]);
  }

  /** Sends a request, retrying as its policy allows; resolves to the validated body and its meta. */
  async request<T>(spec: RequestSpec<T>): Promise<{ data: T; meta: ResponseMeta }> {
    const url = this.#url(spec);
    const context: RequestContext = { operation: spec.operation, method: spec.method, url: this.scrub(url) };
    const signal = spec.options?.signal;
    const maxRetries = spec.options?.maxRetries ?? this.#config.maxRetries;
    const log = this.#config.logger;
    for (let attempt = 1; ; attempt++) {
      if (signal?.aborted) throw this.#fail(new ApiAbortError(spec.operation, { cause: signal.reason }));
      let release: () => void;
      try {
        release = await this.#limiter.acquire(signal);
      } catch (cause) {
        throw this.#fail(new ApiAbortError(spec.operation, { cause }));
      }
      let outcome: Attempt<T>;
      try {
        outcome = await this.#attempt(spec, url, context, attempt);
      } finally {
        release();
      }
      if (outcome.ok) return { data: outcome.data, meta: outcome.meta };
      const retriesLeft = maxRetries - (attempt - 1);
      const wait = outcome.retryAfterMs ?? backoffDelayMs(attempt - 1);
      if (!outcome.retryable || retriesLeft <= 0 || wait > MAX_RETRY_AFTER_MS) {
        log.debug(`${spec.operation}: giving up after ${attempt} attempt(s)`, {
          error: outcome.error.message,
        });
        throw this.#fail(outcome.error);
      }
      // Every error message already starts with the operation's name.
      const what = outcome.error.message.startsWith(spec.operation)
        ? outcome.error.message
        : `${spec.operation}: ${outcome.error.message}`;
      log.warn(`${what} Retrying in ${wait} ms (${retriesLeft} left).`);
      this.#stats.retries++;
      try {
        await sleep(wait, signal);
      } catch (cause) {
        throw this.#fail(new ApiAbortError(spec.operation, { cause }));
      }
    }
  }

  /** Calls a progress hook; a hook that throws is logged, never allowed to fail the request. */
  #notify<K extends 'onRequest' | 'onResponse'>(
    hook: K,
    event: Parameters<NonNullable<TransportConfig[K]>>[0],
  ): void {
    try {
      (this.#config[hook] as ((e: typeof event) => void) | undefined)?.(event);
    } catch (error) {
      this.#config.logger.warn(
        `${hook} hook failed: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }

  #fail(error: Error): Error {
    this.#stats.failures++;
    return error;
  }

  #url(spec: RequestSpec<unknown>): string {
    const root = spec.host === 'app' ? this.#config.appUrl : this.#config.baseUrl;
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(spec.query ?? {})) if (v !== undefined) params.set(k, String(v));
    const qs = params.toString();
    // OrgClient has already removed trailing slashes from both hosts.
    return `${root ?? ''}${spec.path}${qs ? `?${qs}` : ''}`;
  }

  async #attempt<T>(
    spec: RequestSpec<T>,
    url: string,
    context: RequestContext,
    attempt: number,
  ): Promise<Attempt<T>> {
    const { logger: log } = this.#config;
    const timeoutMs = spec.options?.timeoutMs ?? this.#config.timeoutMs;
    const userSignal = spec.options?.signal;
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort(new Error('timeout'));
    }, timeoutMs);
    const onUserAbort = () => controller.abort(userSignal?.reason);
    userSignal?.addEventListener('abort', onUserAbort, { once: true });
    const idempotent = spec.retry === 'idempotent';
    const started = performance.now();
    // Set once the server's answer started: a failure after that happened mid-response.
    let responded = false;
    try {
      this.#stats.requests++;
      if (attempt > 1) log.debug(`${spec.operation}: attempt ${attempt}`);
      log.debug(`--> ${spec.method} ${context.url}`, { headers: { Authorization: '***' } });
      this.#notify('onRequest', { ...context, attempt });
      const headers: Record<string, string> = {
        Authorization: `Bearer ${this.#config.apiKey}`,
        Accept: 'application/json',
      };
      if (spec.body !== undefined) headers['Content-Type'] = 'application/json';
      const response = await this.#config.fetch(url, {
        method: spec.method,
        headers,
        body: spec.body === undefined ? null : JSON.stringify(spec.body),
        signal: controller.signal,
      });
      responded = true;
      const filter = response.ok && spec.bodyFilter ? spec.bodyFilter() : undefined;
      const received = filter ? await this.#streamBody(response, filter) : undefined;
      const bytes = filter ? filter.end() : new Uint8Array(await response.arrayBuffer());
      const byteLength = received ?? bytes.byteLength;
      const durationMs = Math.round(performance.now() - started);
      if (received === undefined) this.#stats.bytesReceived += byteLength;
      const requestId = response.headers.get('x-request-id') ?? undefined;
      log.debug(`<-- ${response.status} ${spec.method} ${context.url} (${byteLength} B, ${durationMs} ms)`);
      this.#notify('onResponse', {
        ...context,
        attempt,
        status: response.status,
        bytes: byteLength,
        durationMs,
        requestId,
      });
      if (!response.ok) return this.#errorResponse<T>(context, response, bytes, requestId, idempotent);
      const json = parseJson(bytes);
      if (json === NOT_JSON) {
        // A cut or garbled body is a transport failure, not a schema change: retry it like one.
        const error = new MalformedResponseError(context, response.status, byteLength, attempt, requestId);
        return { ok: false, error, retryable: idempotent };
      }
      const data = this.#validate(spec, json);
      return {
        ok: true,
        data,
        meta: { ...context, status: response.status, requestId, bytes: byteLength, attempts: attempt },
      };
    } catch (error) {
      if (error instanceof ResponseValidationError) return { ok: false, error, retryable: false };
      if (userSignal?.aborted) {
        return { ok: false, error: new ApiAbortError(spec.operation, { cause: error }), retryable: false };
      }
      if (timedOut)
        return { ok: false, error: new ApiTimeoutError(context, timeoutMs), retryable: idempotent };
      const reason = this.scrub(errorCode(error) ?? (error instanceof Error ? error.message : String(error)));
      return {
        ok: false,
        error: new ApiConnectionError(context, reason, {
          cause: this.#scrubError(error),
          midResponse: responded,
        }),
        retryable: idempotent || (!responded && failedBeforeSending(error)),
      };
    } finally {
      clearTimeout(timer);
      userSignal?.removeEventListener('abort', onUserAbort);
    }
  }

  /** Streams a body through `filter`, counting every byte as it arrives; resolves to the total. */
  async #streamBody(response: Response, filter: BodyFilter): Promise<number> {
    let total = 0;
    if (!response.body) return total;
    const reader = response.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return total;
      total += value.byteLength;
      this.#stats.bytesReceived += value.byteLength;
      filter.push(value);
    }
  }

  #errorResponse<T>(
    context: RequestContext,
    response: Response,
    bytes: Uint8Array,
    headerRequestId: string | undefined,
    idempotent: boolean,
  ): Attempt<T> {
    let body: unknown;
    try {
      body = JSON.parse(new TextDecoder().decode(bytes));
    } catch {
      body = undefined;
    }
    const fields = body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
    const text = (v: unknown) => (typeof v === 'string' && v ? this.scrub(v) : undefined);
    const wait = retryAfterMs(response.headers, Date.now());
    const error = ApiError.from({
      ...context,
      status: response.status,
      title: text(fields.title) ?? text(fields.error) ?? (response.statusText || undefined),
      detail: text(fields.detail) ?? text(fields.message),
      requestId: text(fields.requestId) ?? text(fields.request_id) ?? headerRequestId,
      body: body === undefined ? undefined : scrubValue(body, [this.#config.apiKey]),
      retryAfterMs: wait,
    });
    return {
      ok: false,
      error,
      retryable: idempotent && isRetryableStatus(response.status),
      retryAfterMs: wait,
    };
  }

  /**
   * A copy of a low-level error (and its causes) with the key and bearer tokens scrubbed from
   * every message and stack, keeping `name` and `code`: an error's `cause` is printed and logged.
   */
  #scrubError(error: unknown, depth = 0): unknown {
    if (!(error instanceof Error)) return typeof error === 'string' ? this.scrub(error) : undefined;
    const code = (error as { code?: unknown }).code;
    const cause = depth < 4 ? this.#scrubError((error as { cause?: unknown }).cause, depth + 1) : undefined;
    const copy = new Error(this.scrub(error.message), cause === undefined ? undefined : { cause });
    copy.name = error.name;
    copy.stack = error.stack === undefined ? undefined : this.scrub(error.stack);
    if (typeof code === 'string') Object.assign(copy, { code });
    return copy;
  }

  #validate<T>(spec: RequestSpec<T>, json: unknown): T {
    if (!this.#config.validateResponses || spec.fastCheck?.(json)) return json as T;
    const result = spec.schema.safeParse(json);
    if (result.success) return result.data;
    // The first 20 problems are plenty to diagnose a schema change; a broken page may have thousands.
    const problems = result.error.issues
      .slice(0, 20)
      .map((i) => `${formatPath(i.path) || '(body)'}: ${i.message}`);
    const first = result.error.issues[0];
    throw new ResponseValidationError(
      spec.operation,
      formatPath(first?.path ?? []),
      first?.message ?? 'invalid',
      problems,
    );
  }
}

const NOT_JSON = Symbol('not JSON');

/** The parsed body, or {@link NOT_JSON} when it is not valid JSON (an empty body included). */
function parseJson(bytes: Uint8Array): unknown {
  try {
    return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    return NOT_JSON;
  }
}

/** `['data', 3, 'billable_tokens']` -> `data[3].billable_tokens`. */
export function formatPath(path: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const p of path) {
    if (typeof p === 'number') out += `[${p}]`;
    else out += out ? `.${String(p)}` : String(p);
  }
  return out;
}

/** Resolves after `ms`, or rejects with the signal's reason when it aborts first. */
function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
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
