/**
 * The errors the client throws, modelled on openai-node's `core/error.ts`: one base class, an
 * `ApiError` per HTTP status class (chosen by {@link ApiError.from}), and errors for connection
 * failures, timeouts, aborts, invalid input, broken responses and pagination loops.
 *
 * No error carries an exit code: the CLI maps classes to codes (input errors 2, auth/permission 3,
 * anything else 1). No message or field holds the API key or a bearer token.
 */

/** The base of every error this package throws on purpose. */
export class OrgReportError extends Error {
  override readonly name: string = 'OrgReportError';
}

/** A parameter failed a rule before anything was sent; names the parameter, the value and the rule. */
export class ValidationError extends OrgReportError {
  override readonly name: string = 'ValidationError';
  constructor(
    readonly parameter: string,
    readonly value: unknown,
    readonly rule: string,
    options?: { cause?: unknown },
  ) {
    super(`${parameter} ${describeValue(value)} is invalid: ${rule}`, options);
  }
}

function describeValue(value: unknown): string {
  if (value === undefined) return '(missing)';
  const text = typeof value === 'string' ? JSON.stringify(value) : safeJson(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** Where a request went: the operation name (`analytics.users`), the HTTP method and the URL without secrets. */
export interface RequestContext {
  operation: string;
  method: string;
  url: string;
}

/** The details a server error response carries. */
export interface ApiErrorDetails extends RequestContext {
  status: number;
  title?: string | undefined;
  detail?: string | undefined;
  requestId?: string | undefined;
  /** The parsed error body, when it was JSON (secrets redacted). */
  body?: unknown;
  /** Milliseconds the server asked to wait (`retry-after-ms` or `Retry-After`), when it said. */
  retryAfterMs?: number | undefined;
}

/** The server answered with an error status. `ApiError.from` returns the subclass for the status. */
export class ApiError extends OrgReportError {
  override readonly name: string = 'ApiError';
  readonly status: number;
  readonly title: string | undefined;
  readonly detail: string | undefined;
  readonly requestId: string | undefined;
  readonly operation: string;
  readonly method: string;
  readonly url: string;
  readonly body: unknown;
  readonly retryAfterMs: number | undefined;

  constructor(details: ApiErrorDetails, hint?: string) {
    super(apiErrorMessage(details, hint));
    this.status = details.status;
    this.title = details.title;
    this.detail = details.detail;
    this.requestId = details.requestId;
    this.operation = details.operation;
    this.method = details.method;
    this.url = details.url;
    this.body = details.body;
    this.retryAfterMs = details.retryAfterMs;
  }

  /** The error of the right class for a status (400, 401, 403, 404, 409, 422, 429, 5xx, or the base). */
  static from(details: ApiErrorDetails): ApiError {
    const s = details.status;
    if (s === 400) return new BadRequestError(details);
    if (s === 401) return new AuthenticationError(details);
    if (s === 403) return new PermissionDeniedError(details);
    if (s === 404) return new NotFoundError(details);
    if (s === 409) return new ConflictError(details);
    if (s === 422) return new UnprocessableEntityError(details);
    if (s === 429) return new RateLimitError(details);
    if (s >= 500) return new InternalServerError(details);
    return new ApiError(details);
  }
}

function apiErrorMessage(d: ApiErrorDetails, hint: string | undefined): string {
  const what = [d.title, d.detail].filter(Boolean).join(': ');
  const id = d.requestId ? ` (request id ${d.requestId})` : '';
  return `${d.operation} failed: ${d.method} ${d.url} returned ${d.status}${what ? ` ${what}` : ''}${id}.${hint ? ` ${hint}` : ''}`;
}

/** 400: the server refused the parameters. */
export class BadRequestError extends ApiError {
  override readonly name: string = 'BadRequestError';
  constructor(details: ApiErrorDetails) {
    super(details, 'Check the request parameters named in the message.');
  }
}

/** 401: the key or token is missing, invalid or revoked. */
export class AuthenticationError extends ApiError {
  override readonly name: string = 'AuthenticationError';
  constructor(details: ApiErrorDetails) {
    super(
      details,
      'Check the API key: it is missing, mistyped, revoked or belongs to another organization (create one in the organization API-key settings).',
    );
  }
}

/** 403: the key's user lacks the role the operation needs. */
export class PermissionDeniedError extends ApiError {
  override readonly name: string = 'PermissionDeniedError';
  constructor(details: ApiErrorDetails) {
    super(
      details,
      details.operation.startsWith('analytics.')
        ? "The key's user needs the Manager or Owner role for analytics; use a key of such a user or ask an Owner to change the role."
        : "The key's user is not allowed to do this; use a key of a user with a higher role.",
    );
  }
}

/** Operations on one resource by its id (a session, a user's credit limit); the others are lists that always exist. */
const BY_ID = /\.(get|update|set)$/;

/**
 * 404: the resource (a session, a message) does not exist or is not visible to the key; for a list,
 * which always exists, the base URL does not point at the API.
 */
export class NotFoundError extends ApiError {
  override readonly name: string = 'NotFoundError';
  constructor(details: ApiErrorDetails) {
    super(
      details,
      BY_ID.test(details.operation)
        ? 'Check the id: it does not exist or the key cannot see it.'
        : "Check the base URL: this list always exists on the service's API, so the URL does not point at it.",
    );
  }
}

/** 409: the request conflicts with the resource's current state (retried for idempotent requests). */
export class ConflictError extends ApiError {
  override readonly name: string = 'ConflictError';
  constructor(details: ApiErrorDetails) {
    super(details, 'Another change happened at the same time; try again.');
  }
}

/** 422: the body was well-formed but refused. */
export class UnprocessableEntityError extends ApiError {
  override readonly name: string = 'UnprocessableEntityError';
  constructor(details: ApiErrorDetails) {
    super(details, 'Check the values sent.');
  }
}

/** 429: too many requests; `retryAfterMs` says how long the server asked to wait, when it did. */
export class RateLimitError extends ApiError {
  override readonly name: string = 'RateLimitError';
  constructor(details: ApiErrorDetails) {
    const wait =
      details.retryAfterMs !== undefined
        ? ` The server asked to wait ${Math.ceil(details.retryAfterMs / 1000)} s.`
        : '';
    super(details, `Rate limited:${wait} Try again later or lower the client's concurrency.`);
  }
}

/** 5xx: the server failed. */
export class InternalServerError extends ApiError {
  override readonly name: string = 'InternalServerError';
  constructor(details: ApiErrorDetails) {
    super(details, 'The service failed; try again later.');
  }
}

/** No HTTP response: the connection failed (refused, reset, DNS, TLS). */
export class ApiConnectionError extends OrgReportError {
  override readonly name: string = 'ApiConnectionError';
  readonly operation: string;
  readonly method: string;
  readonly url: string;
  constructor(
    context: RequestContext,
    reason: string,
    options?: {
      cause?: unknown;
      /** The response had started (status and headers arrived) when the connection failed. */
      midResponse?: boolean;
    },
  ) {
    super(
      options?.midResponse
        ? `${context.operation} failed: the connection dropped while receiving the response of ${context.method} ${context.url} (${reason}). The connection or the service is unreliable; try again later.`
        : `${context.operation} failed: could not reach ${context.method} ${context.url} (${reason}). Check the base URL and the network.`,
      options && 'cause' in options ? { cause: options.cause } : undefined,
    );
    this.operation = context.operation;
    this.method = context.method;
    this.url = context.url;
  }
}

/** Which time limit of a request ran out. */
export type TimeoutPhase = 'headers' | 'idle' | 'total';

const TIMEOUT_TEXT: Record<TimeoutPhase, (ms: number) => string> = {
  headers: (ms) => `no response headers within ${ms} ms (raise headersTimeoutMs, --headers-timeout)`,
  idle: (ms) => `the body stalled: less than 1 KiB arrived in ${ms} ms (raise idleTimeoutMs, --idle-timeout)`,
  total: (ms) => `no complete response within ${ms} ms (raise timeoutMs, --request-timeout)`,
};

/** The request did not finish within one of its time limits (headers, idle body, total). */
export class ApiTimeoutError extends ApiConnectionError {
  override readonly name: string = 'ApiTimeoutError';
  constructor(
    context: RequestContext,
    readonly timeoutMs: number,
    readonly phase: TimeoutPhase = 'total',
  ) {
    super(context, `${TIMEOUT_TEXT[phase](timeoutMs)}; or try again later`, {
      midResponse: phase !== 'headers',
    });
  }
}

/**
 * A response the client refuses to take in: larger than the limit once decompressed, nested deeper
 * than any answer of the API, or redirected to a host that was not configured. Never retried.
 */
export class ResponseRefusedError extends OrgReportError {
  override readonly name: string = 'ResponseRefusedError';
  readonly operation: string;
  readonly url: string;
  constructor(context: RequestContext, reason: string) {
    super(`${context.operation} refused the response of ${context.method} ${context.url}: ${reason}.`);
    this.operation = context.operation;
    this.url = context.url;
  }
}

/** The caller's `AbortSignal` fired; never retried. */
export class ApiAbortError extends OrgReportError {
  override readonly name: string = 'ApiAbortError';
  constructor(
    readonly operation: string,
    options?: { cause?: unknown },
  ) {
    super(`${operation} was aborted by the caller.`, options);
  }
}

/**
 * A 2xx response whose body is not valid JSON (cut short or garbled on the way): a transport
 * failure, retried like a connection error for GET and PUT. Raised once the retries are spent.
 */
export class MalformedResponseError extends OrgReportError {
  override readonly name: string = 'MalformedResponseError';
  readonly operation: string;
  readonly method: string;
  readonly url: string;
  constructor(
    context: RequestContext,
    readonly status: number,
    /** Body bytes received. */
    readonly bytes: number,
    /** Attempts made when this error was raised. */
    readonly attempts: number,
    readonly requestId?: string | undefined,
  ) {
    const id = requestId ? `, request id ${requestId}` : '';
    super(
      `${context.operation} failed: ${context.method} ${context.url} returned ${status} with a body that is not valid JSON (${bytes} B, truncated or malformed${id}) on attempt ${attempts}. The connection or the service is unreliable; try again later.`,
    );
    this.operation = context.operation;
    this.method = context.method;
    this.url = context.url;
  }
}

/** A response broke the schema: names the operation and the field path (never the field's value). */
export class ResponseValidationError extends OrgReportError {
  override readonly name: string = 'ResponseValidationError';
  constructor(
    readonly operation: string,
    /** Path of the first offending field, e.g. `data[3].billable_tokens`; empty for the whole body. */
    readonly path: string,
    readonly problem: string,
    /** Every problem found, as `path: problem`. */
    readonly problems: string[] = [`${path || '(body)'}: ${problem}`],
  ) {
    super(
      `${operation} returned a response that does not match the API schema at ${path || '(body)'}: ${problem}. The API may have changed; update orgreport or report the problem.`,
    );
  }
}

/** Pagination could not continue safely: a cursor repeated, or the server said "more" without a cursor. */
export class PaginationError extends OrgReportError {
  override readonly name: string = 'PaginationError';
  constructor(
    readonly operation: string,
    readonly cursor: string | null,
    reason: string,
  ) {
    super(`${operation}: pagination stopped: ${reason}.`);
  }
}
