/**
 * @orgreport/api-core: the typed client of the organization API ({@link OrgClient}): every endpoint,
 * pagination that never ends silently, bounded requests, retries, typed errors, schemas, secret
 * redaction, UTC dates and the snapshot contract.
 *
 * @module @orgreport/api-core
 */
export * from './client.ts';
export * from './dates.ts';
export * from './errors.ts';
export * from './file-lock.ts';
export * from './files.ts';
export * from './hook-events.ts';
export { type BodyFilter, dropJsonMembers } from './json-member-filter.ts';
export { ConcurrencyLimiter } from './limiter.ts';
export * from './logger.ts';
export type { PageLoader, PageStyle } from './pagination.ts';
export { MAX_EMPTY_PAGES_IN_A_ROW, Page, PagePromise } from './pagination.ts';
export * from './redact.ts';
export * from './resources/analytics.ts';
export * from './resources/computers.ts';
export { DEFAULT_LIST_LIMITS, type Listing } from './resources/context.ts';
export * from './resources/controls.ts';
export * from './resources/credit-limits.ts';
export * from './resources/org-users.ts';
export type { ReadinessListParams } from './resources/readiness.ts';
export { DEFAULT_READINESS_PAGE_SIZE, Readiness } from './resources/readiness.ts';
export * from './resources/sessions.ts';
export {
  backoffDelayMs,
  errorCode,
  failedBeforeSending,
  INITIAL_RETRY_DELAY_MS,
  isRetryableStatus,
  MAX_RETRY_AFTER_MS,
  MAX_RETRY_DELAY_MS,
  retryAfterMs,
  sleep,
} from './retry.ts';
export * from './schemas.ts';
export * from './snapshot.ts';
export type { RequestEvent, RequestOptions, RequestStats, ResponseEvent, ResponseMeta } from './transport.ts';
export type { DateRangeParams } from './validation.ts';
export { isEmail } from './validation.ts';
