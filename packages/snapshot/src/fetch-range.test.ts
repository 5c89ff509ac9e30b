import type { ControlChange } from '@orgreport/api-core';
import { OrgClient } from '@orgreport/api-core';
import { startEmulator } from '@orgreport/emulator';
import { describe, expect, it } from 'vitest';
import { revisionsInRange } from './control-range.ts';
import { fetchRange, rangePeriod } from './fetch-range.ts';

describe('fetchRange', () => {
  it('fetches exactly the days of a span, and the undated lists only when asked', async () => {
    const today = '2026-11-22';
    const emulator = await startEmulator({ seed: 5, users: 6, repos: 1, today });
    try {
      const now = () => new Date(`${today}T08:00:00Z`);
      const client = new OrgClient({
        apiKey: emulator.keys.manager,
        baseUrl: emulator.baseUrl,
        appUrl: emulator.appUrl,
        now,
      });
      const range = { start: '2026-10-30', end: '2026-11-02' };
      const days = await fetchRange(client, { range, now, toolVersion: 't', lists: false });
      expect(days.manifest.fetchedRange).toEqual(range);
      expect(days.manifest.period).toEqual(rangePeriod(range));
      expect(days.manifest.notes).toEqual([]);
      expect(days.tokens.map((d) => d.date)).toEqual([
        '2026-10-30',
        '2026-10-31',
        '2026-11-01',
        '2026-11-02',
      ]);
      expect(new Set(days.userDays.date).size).toBeGreaterThan(0);
      expect(days.userDays.date.every((d) => d >= range.start && d <= range.end)).toBe(true);
      expect(days.orgUsers).toEqual([]);
      expect(days.readiness).toEqual([]);

      const withLists = await fetchRange(client, { range, now, toolVersion: 't' });
      expect(withLists.orgUsers.length).toBeGreaterThan(0);
      expect(withLists.readiness.length).toBeGreaterThan(0);
    } finally {
      await emulator.close();
    }
  });
});

describe('revisionsInRange', () => {
  const change = (revision: number, updatedAt: string): ControlChange => ({
    revision,
    updatedAt,
    settings: {},
    user: {},
  });
  it('keeps the revisions up to the period end, back to the one before the range starts', () => {
    const history = [
      change(5, '2026-11-03T10:00:00Z'), // after the period
      change(4, '2026-10-31T23:59:59Z'), // last instant of the period
      change(3, 'not a time'), // unreadable: kept
      change(2, '2026-09-01T00:00:00Z'), // the range's first day
      change(1, '2026-08-20T00:00:00Z'), // the baseline
      change(0, '2026-07-01T00:00:00Z'), // older than the baseline
    ];
    expect(revisionsInRange(history, '2026-10-31', '2026-09-01').map((c) => c.revision)).toEqual([
      4, 3, 2, 1,
    ]);
    expect(revisionsInRange(history, '2026-10-31', '2026-10-01').map((c) => c.revision)).toEqual([4, 3, 2]);
  });
});
