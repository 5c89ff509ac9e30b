/**
 * How fast deliveries go: the wait before a retry (bounded exponential backoff with jitter, a
 * receiver's Retry-After honoured up to the same bound) and the sending limit (a token bucket).
 */

export interface BackoffOptions {
  /** The first retry's delay, before jitter. */
  baseDelayMs: number;
  /** No wait is longer, a Retry-After included. */
  maxDelayMs: number;
  /** A number in [0, 1): the jitter. */
  random: () => number;
}

/**
 * The wait before retry number `retry` (0 for the first): the receiver's Retry-After when it gave
 * one, else base x 2^retry; capped at the maximum, and (the computed one) shortened by up to 25 % at
 * random so that many senders do not retry in step.
 *
 * @example
 * retryDelayMs(0, undefined, { baseDelayMs: 1000, maxDelayMs: 30000, random: () => 0 }) // 1000
 * retryDelayMs(6, undefined, { baseDelayMs: 1000, maxDelayMs: 30000, random: () => 0 }) // 30000
 * retryDelayMs(0, 90000, { baseDelayMs: 1000, maxDelayMs: 30000, random: () => 0 }) // 30000
 */
export function retryDelayMs(
  retry: number,
  retryAfterMs: number | undefined,
  options: BackoffOptions,
): number {
  if (retryAfterMs !== undefined && Number.isFinite(retryAfterMs) && retryAfterMs >= 0) {
    return Math.min(Math.ceil(retryAfterMs), options.maxDelayMs);
  }
  const base = Math.min(options.baseDelayMs * 2 ** retry, options.maxDelayMs);
  return Math.round(base * (1 - 0.25 * options.random()));
}

/**
 * A sending limit of `perMinute` messages, with bursts of up to `burst` (a token bucket, kept as
 * the time the next token is due: GCRA). With `burst` 1 messages go out evenly, one every
 * 60 s / perMinute, so no minute ever holds more than the limit.
 */
export class SendingLimit {
  readonly #intervalMs: number;
  readonly #toleranceMs: number;
  #dueAt = Number.NEGATIVE_INFINITY;

  constructor(
    perMinute: number,
    burst: number,
    private readonly clock: () => number,
    private readonly wait: (ms: number, signal: AbortSignal) => Promise<void>,
  ) {
    this.#intervalMs = 60_000 / perMinute;
    this.#toleranceMs = (burst - 1) * this.#intervalMs;
  }

  /** Waits until a message may go (telling `onWait` how long first); resolves to how long it waited (ms). */
  async take(signal: AbortSignal, onWait?: (ms: number) => void): Promise<number> {
    let waited = 0;
    for (;;) {
      const now = this.clock();
      const earliest = this.#dueAt - this.#toleranceMs;
      if (now >= earliest) {
        this.#dueAt = Math.max(this.#dueAt, now) + this.#intervalMs;
        return waited;
      }
      const ms = Math.ceil(earliest - now);
      onWait?.(ms);
      await this.wait(ms, signal);
      waited += ms;
    }
  }
}
