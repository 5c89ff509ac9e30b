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
  ResponseRefusedError,
  ResponseValidationError,
  type TimeoutPhase,
} from './errors.ts';
import type { BodyFilter } from './json-member-filter.ts';
import { ConcurrencyLimiter } from './limiter.ts';
import { type Logger, scrubValue } from './logger.ts';
import { REDACTED, scrubText } from './redact.ts';
import {
  backoffDelayMs,
  errorCode,
  failedBeforeSending,
  isRetryableStatus,
  MAX_RETRY_AFTER_MS,
  retryAfterMs,
  sleep,
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
  /** Origins other than the configured hosts that redirects were followed to (allowed by the caller). */
  redirectedTo: string[];
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
  /** Time limit of a whole attempt, body included. */
  timeoutMs: number;
  /** Time limit until the response's status and headers arrive. */
  headersTimeoutMs: number;
  /** Longest the body may take to deliver another KiB while it streams. */
  idleTimeoutMs: number;
  /** Most bytes of a body, counted after decompression while it streams. */
  maxResponseBytes: number;
  /** Origins besides the base and app hosts that a redirect may lead to (the key goes along). */
  redirectOrigins: ReadonlyArray<string>;
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
  readonly #stats: RequestStats = {
    requests: 0,
    retries: 0,
    bytesReceived: 0,
    failures: 0,
    redirectedTo: [],
  };

  constructor(config: TransportConfig) {
    this.#config = config;
    this.#limiter = new ConcurrencyLimiter(config.concurrency);
  }

  /** A copy of the counters. */
  get stats(): RequestStats {
    return { ...this.#stats, redirectedTo: [...this.#stats.redirectedTo] };
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
      // A body that stalled once may have met a passing fault; twice, the server is trickling.
      const stalledAgain =
        outcome.error instanceof ApiTimeoutError &&
        outcome.error.phase === 'idle' &&
        attempt >= MAX_STALLED_ATTEMPTS;
      const retriesLeft = stalledAgain ? 0 : maxRetries - (attempt - 1);
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
    const { logger: log, idleTimeoutMs } = this.#config;
    const timeoutMs = spec.options?.timeoutMs ?? this.#config.timeoutMs;
    const headersTimeoutMs = Math.min(this.#config.headersTimeoutMs, timeoutMs);
    const userSignal = spec.options?.signal;
    const controller = new AbortController();
    let expired: { phase: TimeoutPhase; ms: number } | undefined;
    const expire = (phase: TimeoutPhase, ms: number) => {
      expired ??= { phase, ms };
      controller.abort(new Error(`${phase} timeout`));
    };
    const timer = setTimeout(() => expire('total', timeoutMs), timeoutMs);
    const headersTimer = setTimeout(() => expire('headers', headersTimeoutMs), headersTimeoutMs);
    const onUserAbort = () => controller.abort(userSignal?.reason);
    userSignal?.addEventListener('abort', onUserAbort, { once: true });
    const idempotent = spec.retry === 'idempotent';
    const started = performance.now();
    // Set once the server's answer started: a failure after that happened mid-response.
    let responded = false;
    try {
      this.#stats.requests++;
      if (attempt > 1) log.debug(`${spec.operation}: attempt ${attempt}`);
      log.debug(`--> ${spec.method} ${context.url}`, { headers: { Authorization: REDACTED } });
      this.#notify('onRequest', { ...context, attempt });
      const response = await this.#fetchOnConfiguredHosts(spec, url, context, controller.signal);
      clearTimeout(headersTimer);
      responded = true;
      const filter = response.ok && spec.bodyFilter ? spec.bodyFilter() : undefined;
      const { bytes, received } = await this.#readBody(response, context, filter, () =>
        expire('idle', idleTimeoutMs),
      );
      const durationMs = Math.round(performance.now() - started);
      const requestId = response.headers.get('x-request-id') ?? undefined;
      log.debug(`<-- ${response.status} ${spec.method} ${context.url} (${received} B, ${durationMs} ms)`);
      this.#notify('onResponse', {
        ...context,
        attempt,
        status: response.status,
        bytes: received,
        durationMs,
        requestId,
      });
      if (!response.ok) return this.#errorResponse<T>(context, response, bytes, requestId, idempotent);
      const json = parseJson(bytes);
      if (json === NOT_JSON) {
        // A cut or garbled body is a transport failure, not a schema change: retry it like one.
        const error = new MalformedResponseError(context, response.status, received, attempt, requestId);
        return { ok: false, error, retryable: idempotent };
      }
      // A body the fast check accepts is flat by construction; any other is walked for its depth.
      const fast = this.#config.validateResponses && spec.fastCheck?.(json) === true;
      const tooDeep = fast ? null : deeperThan(json, MAX_JSON_DEPTH);
      if (tooDeep !== null) {
        throw new ResponseRefusedError(
          context,
          `its JSON nests deeper than ${MAX_JSON_DEPTH} levels (at ${tooDeep.length > 80 ? `${tooDeep.slice(0, 80)}…` : tooDeep}), which no answer of the API does`,
        );
      }
      const data = fast ? (json as T) : this.#validate(spec, json);
      return {
        ok: true,
        data,
        meta: { ...context, status: response.status, requestId, bytes: received, attempts: attempt },
      };
    } catch (error) {
      if (error instanceof ResponseValidationError || error instanceof ResponseRefusedError) {
        return { ok: false, error, retryable: false };
      }
      if (userSignal?.aborted) {
        return { ok: false, error: new ApiAbortError(spec.operation, { cause: error }), retryable: false };
      }
      if (expired)
        return {
          ok: false,
          error: new ApiTimeoutError(context, expired.ms, expired.phase),
          retryable: idempotent,
        };
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
      clearTimeout(headersTimer);
      userSignal?.removeEventListener('abort', onUserAbort);
    }
  }

  /**
   * Sends the request and follows redirects by hand: within the configured hosts (and the origins
   * the caller allowed, which are recorded) the key goes along; a redirect anywhere else is refused,
   * so a report is never built from another host's data.
   */
  async #fetchOnConfiguredHosts(
    spec: RequestSpec<unknown>,
    url: string,
    context: RequestContext,
    signal: AbortSignal,
  ): Promise<Response> {
    const headers: Record<string, string> = {
      Authorization: `Bearer ${this.#config.apiKey}`,
      Accept: 'application/json',
    };
    if (spec.body !== undefined) headers['Content-Type'] = 'application/json';
    let method: string = spec.method;
    let body: string | null = spec.body === undefined ? null : JSON.stringify(spec.body);
    let target = url;
    for (let hop = 0; ; hop++) {
      const response = await this.#config.fetch(target, {
        method,
        headers,
        body,
        signal,
        redirect: 'manual',
      });
      const location = response.headers.get('location');
      if (response.status < 300 || response.status > 399 || location === null) return response;
      await response.body?.cancel().catch(() => {});
      const next = new URL(location, target);
      const where = `${next.origin}${next.pathname}`;
      if (hop >= MAX_REDIRECTS) {
        throw new ResponseRefusedError(
          context,
          `more than ${MAX_REDIRECTS} redirects in a row (the last to ${this.scrub(where)})`,
        );
      }
      if (!this.#configuredOrigins().has(next.origin)) {
        if (!this.#config.redirectOrigins.includes(next.origin)) {
          throw new ResponseRefusedError(
            context,
            `the server redirected to ${this.scrub(next.origin)}, which is not a configured host; check the base and app URLs, or allow that host (redirectOrigins, --allow-redirect-to ${this.scrub(next.origin)}) if it is really the service`,
          );
        }
        if (!this.#stats.redirectedTo.includes(next.origin)) this.#stats.redirectedTo.push(next.origin);
        this.#config.logger.warn(
          `${spec.operation}: followed a redirect to ${this.scrub(where)} (allowed host)`,
        );
      }
      // 303, and 301/302 after a POST, turn into a GET without a body, as browsers and undici do.
      if (
        response.status === 303 ||
        ((response.status === 301 || response.status === 302) && method === 'POST')
      ) {
        method = 'GET';
        body = null;
        delete headers['Content-Type'];
      }
      target = next.href;
    }
  }

  /** Origins of the configured base and app URLs. */
  #configuredOrigins(): Set<string> {
    const origins = new Set([new URL(this.#config.baseUrl).origin]);
    if (this.#config.appUrl) origins.add(new URL(this.#config.appUrl).origin);
    return origins;
  }

  /**
   * Reads a body chunk by chunk (decompressed, as fetch hands it over), counting every byte against
   * the size limit as it arrives, so an endless or bomb body stops early; `stalled` fires when less
   * than a KiB arrives within the idle limit. A filtered body keeps only what its filter keeps.
   */
  async #readBody(
    response: Response,
    context: RequestContext,
    filter: BodyFilter | undefined,
    stalled: () => void,
  ): Promise<{ bytes: Uint8Array; received: number }> {
    const { maxResponseBytes, idleTimeoutMs } = this.#config;
    const held = Math.min(maxResponseBytes, MAX_HELD_RESPONSE_BYTES);
    const limit = filter ? maxResponseBytes : held;
    const announced = Number(response.headers.get('content-length') ?? Number.NaN);
    if (announced > limit) {
      await response.body?.cancel().catch(() => {});
      throw new ResponseRefusedError(
        context,
        `it announces ${mib(announced)}, more than the ${mib(limit)} limit (maxResponseBytes, --max-response-mib)`,
      );
    }
    const chunks: Uint8Array[] = [];
    let received = 0;
    let sinceProgress = 0;
    let idle = setTimeout(stalled, idleTimeoutMs);
    const reader = response.body?.getReader();
    try {
      for (;;) {
        if (!reader) break;
        const { done, value } = await reader.read();
        if (done) break;
        received += value.byteLength;
        this.#stats.bytesReceived += value.byteLength;
        sinceProgress += value.byteLength;
        if (sinceProgress >= PROGRESS_BYTES) {
          sinceProgress = 0;
          clearTimeout(idle);
          idle = setTimeout(stalled, idleTimeoutMs);
        }
        if (filter) filter.push(value);
        else chunks.push(value);
        if (received > limit || (filter && filter.kept > held)) {
          await reader.cancel().catch(() => {});
          throw new ResponseRefusedError(
            context,
            `the body grew past ${mib(received > limit ? limit : held)} (decompressed; stopped reading), more than any answer of the API; if the organization really is that large, raise maxResponseBytes (--max-response-mib)`,
          );
        }
      }
    } finally {
      clearTimeout(idle);
    }
    return { bytes: filter ? filter.end() : concat(chunks, received), received };
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

/** Deepest nesting of a response the client takes in (the API's deepest answer nests about 8). */
export const MAX_JSON_DEPTH = 64;
/** Most bytes of a body held whole (every body but a filtered `/tokens`; a `/users` page is ~100 KiB). */
export const MAX_HELD_RESPONSE_BYTES = 64 * 1024 * 1024;
/** Attempts of a request whose body stalls (the idle limit) before it fails for good. */
const MAX_STALLED_ATTEMPTS = 2;
/** Redirects followed in a row before the request is refused. */
const MAX_REDIRECTS = 5;
/** Bytes a streaming body must deliver within the idle limit to count as progressing. */
const PROGRESS_BYTES = 1024;

function mib(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(bytes < 1024 * 1024 ? 3 : 0)} MiB`;
}

function concat(chunks: Uint8Array[], length: number): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  const out = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
}

/**
 * The path of the first value nested deeper than `max` levels, or null. Walked with an explicit
 * stack, so a hostile body nested 100,000 deep is caught here instead of overflowing the call stack
 * of whatever walks it next (validation, redaction, writing). Only containers are visited, and the
 * path is built only for the answer.
 */
export function deeperThan(value: unknown, max: number): string | null {
  type Frame = { value: object; depth: number; parent: Frame | null; key: string | number };
  const stack: Frame[] = [];
  const visit = (v: unknown, depth: number, parent: Frame | null, key: string | number): Frame | null => {
    if (v === null || typeof v !== 'object') return null;
    const frame = { value: v, depth, parent, key };
    if (depth >= max) return frame;
    stack.push(frame);
    return null;
  };
  let found = visit(value, 0, null, '');
  while (found === null && stack.length > 0) {
    const frame = stack.pop()!;
    const v = frame.value;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length && found === null; i++) found = visit(v[i], frame.depth + 1, frame, i);
    } else {
      for (const k in v) {
        found = visit((v as Record<string, unknown>)[k], frame.depth + 1, frame, k);
        if (found) break;
      }
    }
  }
  if (found === null) return null;
  const keys: Array<string | number> = [];
  for (let f: Frame | null = found; f?.parent; f = f.parent) keys.unshift(f.key);
  return formatPath(keys) || '(body)';
}

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
