/**
 * `OrgClient`: the typed client of the organization API. One instance holds the key, both hosts,
 * the retry and timeout policy, the shared concurrency limit, the logger and the request counters;
 * its resources (`readiness`, `analytics`, `controls`, `sessions`, `computers`, `orgUsers`,
 * `creditLimits`) have one method per endpoint.
 */
import type { Clock } from './dates.ts';
import { ValidationError } from './errors.ts';
import { type Logger, type LogLevel, redactingLogger, silentLogger } from './logger.ts';
import { REDACTED } from './redact.ts';
import { Analytics } from './resources/analytics.ts';
import { Computers } from './resources/computers.ts';
import { type ClientContext, DEFAULT_LIST_LIMITS } from './resources/context.ts';
import { Controls } from './resources/controls.ts';
import { CreditLimits } from './resources/credit-limits.ts';
import { OrgUsers } from './resources/org-users.ts';
import { Readiness } from './resources/readiness.ts';
import { Sessions } from './resources/sessions.ts';
import { type RequestEvent, type RequestStats, type ResponseEvent, Transport } from './transport.ts';
import { checkIntegerRange } from './validation.ts';

/**
 * Two retries (waits of about 0.5 and 1 s), as most SDKs do. A long unattended job that must ride
 * out a flaky network should ask for more: `orgreport` asks for 4, so that at a 10 % failure rate a
 * request fails for good once in 100,000 times instead of once in 1,000.
 */
export const DEFAULT_MAX_RETRIES = 2;
export const DEFAULT_TIMEOUT_MS = 300_000;
/** Time limit until a response's headers arrive. */
export const DEFAULT_HEADERS_TIMEOUT_MS = 30_000;
/** Longest a streaming body may take to deliver another KiB. */
export const DEFAULT_IDLE_TIMEOUT_MS = 10_000;
/**
 * Most bytes of one response once decompressed: the largest answer of the API, `/tokens` with
 * `by_user` for two months of 100,000 users, is about 600 MiB (and streams through a filter).
 */
export const DEFAULT_MAX_RESPONSE_BYTES = 2 * 1024 * 1024 * 1024;
export const DEFAULT_CONCURRENCY = 4;

export interface OrgClientOptions {
  /** An API key of the service or a JWT; sent as `Authorization: Bearer ...`, never logged. */
  apiKey: string;
  /** The API host (`{base_url}`): analytics, controls, sessions, computers, users, credit limits. */
  baseUrl: string;
  /** The web application host (`{app_url}`): readiness reports only. */
  appUrl?: string;
  /** The fetch implementation (default: the global one); tests pass a stub. */
  fetch?: typeof globalThis.fetch;
  /** Retries after the first attempt of a retryable failure (default 2). */
  maxRetries?: number;
  /** Time limit of each attempt, body included, in ms (default 300 000). */
  timeoutMs?: number;
  /** Time limit until the response's status and headers arrive, in ms (default 30 000). */
  headersTimeoutMs?: number;
  /** Longest a streaming body may take to deliver another KiB, in ms (default 10 000; a request stalls twice at most). */
  idleTimeoutMs?: number;
  /**
   * Most bytes of one response, counted after decompression while it streams (default 2 GiB; a
   * body held whole, every one but a filtered `/tokens`, stops at 64 MiB at most).
   */
  maxResponseBytes?: number;
  /**
   * Origins (`https://host:port`) besides those of baseUrl and appUrl that a redirect may lead to;
   * the key is sent there too. Any other redirect off the configured hosts is refused.
   */
  redirectOrigins?: string[];
  /** Requests in flight at once across the whole client (default 4). */
  concurrency?: number;
  /**
   * Most items any one listing may hold before the server is taken for a runaway and the list stops
   * with a PaginationError (default: per listing, far above real organizations; see DEFAULT_LIST_LIMITS).
   */
  maxListItems?: number;
  /** Where log lines go (default: nowhere). Lines are scrubbed of the key and tokens. */
  logger?: Logger;
  /** Lowest level written to `logger` (default `info`). */
  logLevel?: LogLevel;
  /**
   * The clock that decides "today" for the analytics rule "endDate before today (UTC)". Without it
   * that rule is left to the server (which answers 400); the library never reads the clock itself.
   */
  now?: Clock;
  /** Check every response against its schema (default true). */
  validateResponses?: boolean;
  /** Called when an HTTP attempt starts (progress display). */
  onRequest?: (event: RequestEvent) => void;
  /** Called when an HTTP attempt got its response and read the body. */
  onResponse?: (event: ResponseEvent) => void;
}

/**
 * The client of the organization API.
 *
 * @example
 * const client = new OrgClient({ apiKey, baseUrl: 'https://api.example.com', appUrl: 'https://app.example.com', now: () => new Date() });
 * const { data } = await client.analytics.activity({ startDate: '2026-10-01', endDate: '2026-10-31' });
 */
export class OrgClient {
  readonly readiness: Readiness;
  readonly analytics: Analytics;
  readonly controls: Controls;
  readonly sessions: Sessions;
  readonly computers: Computers;
  readonly orgUsers: OrgUsers;
  readonly creditLimits: CreditLimits;
  /** The API host. */
  readonly baseUrl: string;
  /** The web application host, when given. */
  readonly appUrl: string | undefined;
  readonly #transport: Transport;

  constructor(options: OrgClientOptions) {
    if (!options || typeof options !== 'object')
      throw new ValidationError('options', options, 'expected an object');
    if (typeof options.apiKey !== 'string' || options.apiKey.trim() === '') {
      throw new ValidationError(
        'apiKey',
        options.apiKey ? REDACTED : options.apiKey,
        'expected a non-empty API key or JWT',
      );
    }
    this.baseUrl = checkUrl(options.baseUrl, 'baseUrl');
    this.appUrl = options.appUrl === undefined ? undefined : checkUrl(options.appUrl, 'appUrl');
    const fetchImpl = options.fetch ?? globalThis.fetch;
    if (typeof fetchImpl !== 'function')
      throw new ValidationError('fetch', typeof fetchImpl, 'expected a fetch function');
    const maxRetries = checkIntegerRange(options.maxRetries, 'maxRetries', 0, 10) ?? DEFAULT_MAX_RETRIES;
    const timeoutMs = checkIntegerRange(options.timeoutMs, 'timeoutMs', 1, 3_600_000) ?? DEFAULT_TIMEOUT_MS;
    const concurrency = checkIntegerRange(options.concurrency, 'concurrency', 1, 64) ?? DEFAULT_CONCURRENCY;
    const headersTimeoutMs =
      checkIntegerRange(options.headersTimeoutMs, 'headersTimeoutMs', 1, 3_600_000) ??
      DEFAULT_HEADERS_TIMEOUT_MS;
    const idleTimeoutMs =
      checkIntegerRange(options.idleTimeoutMs, 'idleTimeoutMs', 1, 3_600_000) ?? DEFAULT_IDLE_TIMEOUT_MS;
    const maxResponseBytes =
      checkIntegerRange(options.maxResponseBytes, 'maxResponseBytes', 1, Number.MAX_SAFE_INTEGER) ??
      DEFAULT_MAX_RESPONSE_BYTES;
    const redirectOrigins = (options.redirectOrigins ?? []).map(
      (o) => new URL(checkUrl(o, 'redirectOrigins')).origin,
    );
    if (options.now !== undefined && typeof options.now !== 'function') {
      throw new ValidationError('now', options.now, 'expected a function returning the current Date');
    }
    this.#transport = new Transport({
      apiKey: options.apiKey,
      baseUrl: this.baseUrl,
      appUrl: this.appUrl,
      fetch: fetchImpl,
      maxRetries,
      timeoutMs,
      headersTimeoutMs,
      idleTimeoutMs,
      maxResponseBytes,
      redirectOrigins,
      concurrency,
      logger: redactingLogger(options.logger ?? silentLogger, options.logLevel ?? 'info', [options.apiKey]),
      validateResponses: options.validateResponses ?? true,
      onRequest: options.onRequest,
      onResponse: options.onResponse,
    });
    const maxListItems = checkIntegerRange(options.maxListItems, 'maxListItems', 1, Number.MAX_SAFE_INTEGER);
    const ctx: ClientContext = {
      listLimit: (listing) => maxListItems ?? DEFAULT_LIST_LIMITS[listing],
      transport: this.#transport,
      now: options.now,
      hasAppUrl: this.appUrl !== undefined,
    };
    this.readiness = new Readiness(ctx);
    this.analytics = new Analytics(ctx);
    this.controls = new Controls(ctx);
    this.sessions = new Sessions(ctx);
    this.computers = new Computers(ctx);
    this.orgUsers = new OrgUsers(ctx);
    this.creditLimits = new CreditLimits(ctx);
  }

  /** Requests, retries, bytes received and failed calls so far (a copy). */
  get stats(): RequestStats {
    return this.#transport.stats;
  }

  /** Requests in flight now. */
  get inFlight(): number {
    return this.#transport.inFlight;
  }
}

function checkUrl(value: unknown, parameter: string): string {
  let url: URL | undefined;
  try {
    url = typeof value === 'string' ? new URL(value) : undefined;
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new ValidationError(parameter, value, 'expected an http:// or https:// URL');
  }
  if (url.username || url.password) {
    throw new ValidationError(parameter, REDACTED, 'must not contain credentials; pass the key as apiKey');
  }
  return (value as string).replace(/\/+$/, '');
}
