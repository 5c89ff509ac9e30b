import { redactSecrets, secretFingerprinter, type UserDay } from '@orgreport/api-core';
import { describe, expect, it } from 'vitest';
import { fetchedRangeOf, redactUserDays } from './fetch.ts';

const fingerprint = secretFingerprinter('fixed-salt');
const redact = <T>(value: T): T => redactSecrets(value, { fingerprint });

describe('redactUserDays', () => {
  it('keeps ordinary rows as they are (same objects) and redacts a row holding a credential-like string', () => {
    const plain = {
      user_id: 'u1',
      user_email: 'a@example.com',
      date: '2026-10-01',
      languages: ['ts'],
    } as UserDay;
    const leaky = {
      user_id: 'u2',
      user_email: 'Bearer abcdefghijkl',
      date: '2026-10-01',
      languages: [],
    } as unknown as UserDay;
    const inList = {
      user_id: 'u3',
      user_email: null,
      date: '2026-10-01',
      languages: ['sk-abcdefghijkl'],
    } as unknown as UserDay;
    const [a, b, c] = redactUserDays([plain, leaky, inList], redact);
    expect(a).toBe(plain);
    expect(b!.user_email).toMatch(/^\[redacted:[0-9a-f]{8}\]$/);
    expect(b!.user_id).toBe('u2');
    expect(c!.languages[0]).toMatch(/^\[redacted:/);
  });
});

describe('fetchedRangeOf', () => {
  it('spans the comparison start to the period end, or the period alone', () => {
    const period = {
      month: '2026-10',
      start: '2026-10-01',
      end: '2026-10-31',
      days: 31,
      partial: false,
      clampedStart: false,
      endsEarly: false,
    };
    const comparison = { ...period, month: '2026-09', start: '2026-09-01', end: '2026-09-30', days: 30 };
    expect(fetchedRangeOf(period, comparison)).toEqual({ start: '2026-09-01', end: '2026-10-31' });
    expect(fetchedRangeOf(period, null)).toEqual({ start: '2026-10-01', end: '2026-10-31' });
  });
});
