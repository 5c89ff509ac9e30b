import { describe, expect, it } from 'vitest';
import { connectionRefused, connectionReset } from './__fixtures__/stub-fetch.ts';
import { backoffDelayMs, failedBeforeSending, isRetryableStatus, retryAfterMs } from './retry.ts';

describe('backoffDelayMs', () => {
  it('doubles from 0.5 s and caps at 8 s', () => {
    const noJitter = () => 0;
    expect([0, 1, 2, 3, 4, 5, 9].map((n) => backoffDelayMs(n, noJitter))).toEqual([
      500, 1000, 2000, 4000, 8000, 8000, 8000,
    ]);
  });

  it('jitter shortens the delay by at most a quarter', () => {
    expect(backoffDelayMs(0, () => 1)).toBe(375);
    expect(backoffDelayMs(4, () => 0.5)).toBe(7000);
    for (let i = 0; i < 50; i++) {
      const d = backoffDelayMs(1);
      expect(d).toBeGreaterThanOrEqual(750);
      expect(d).toBeLessThanOrEqual(1000);
    }
  });
});

describe('retryAfterMs', () => {
  const now = Date.parse('2026-11-22T08:00:00Z');
  const h = (init: Record<string, string>) => new Headers(init);

  it('prefers retry-after-ms, then Retry-After seconds, then an HTTP date', () => {
    expect(retryAfterMs(h({ 'retry-after-ms': '1500', 'retry-after': '9' }), now)).toBe(1500);
    expect(retryAfterMs(h({ 'retry-after': '3' }), now)).toBe(3000);
    expect(retryAfterMs(h({ 'retry-after': '0.5' }), now)).toBe(500);
    expect(retryAfterMs(h({ 'retry-after': 'Sun, 22 Nov 2026 08:00:05 GMT' }), now)).toBe(5000);
  });

  it('ignores absent or unreadable values and clamps past dates to 0', () => {
    expect(retryAfterMs(h({}), now)).toBeUndefined();
    expect(retryAfterMs(h({ 'retry-after': 'soon' }), now)).toBeUndefined();
    expect(retryAfterMs(h({ 'retry-after-ms': 'x', 'retry-after': '2' }), now)).toBe(2000);
    expect(retryAfterMs(h({ 'retry-after': 'Sun, 22 Nov 2026 07:00:00 GMT' }), now)).toBe(0);
  });
});

describe('isRetryableStatus', () => {
  it('retries 408, 409, 429 and 5xx only', () => {
    expect([408, 409, 429, 500, 502, 503, 504].every(isRetryableStatus)).toBe(true);
    expect([400, 401, 403, 404, 422].some(isRetryableStatus)).toBe(false);
  });
});

describe('failedBeforeSending', () => {
  it('is true for a refused connection and false for a reset or an unknown error', () => {
    expect(failedBeforeSending(connectionRefused())).toBe(true);
    expect(failedBeforeSending(connectionReset())).toBe(false);
    expect(failedBeforeSending(new Error('boom'))).toBe(false);
  });
});
