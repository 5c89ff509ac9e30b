import { comparisonPeriod, monthPeriod, OrgClient } from '@orgreport/api-core';
import { startEmulator } from '@orgreport/emulator';
import { describe, expect, it } from 'vitest';
import { collectUnknownKeys, fetchedRangeOf, fetchSnapshot, MAX_UNKNOWN_FIELD_NAMES } from './fetch.ts';

describe('collectUnknownKeys', () => {
  it('finds keys outside the known set on any row, once each, up to the bound', () => {
    const known = new Set(['user_id', 'date']);
    const found = collectUnknownKeys(
      [
        { user_id: 'u1', date: 'd', extra: 1 },
        { user_id: 'u2', date: 'd' },
        { user_id: 'u3', late: null, extra: 2 },
      ],
      known,
      new Set(),
    );
    expect([...found].sort()).toEqual(['extra', 'late']);
    const wide = Object.fromEntries(
      Array.from({ length: MAX_UNKNOWN_FIELD_NAMES + 20 }, (_, i) => [`f${i}`, i]),
    );
    expect(collectUnknownKeys([wide], known, new Set()).size).toBe(MAX_UNKNOWN_FIELD_NAMES);
  });
});

describe('fetchSnapshot', () => {
  it('redacts credential-like /users values and names the /users fields the columns drop', async () => {
    const today = '2026-11-22';
    const emulator = await startEmulator({ seed: 3, users: 4, repos: 1, today });
    try {
      // Every /users row gains an unknown field; one also carries a credential-like e-mail.
      let planted = false;
      let tokensSentByUser = false;
      const fetchWithDrift: typeof fetch = async (input, init) => {
        const response = await fetch(input, init);
        if (String(input).includes('/analytics/tokens')) {
          tokensSentByUser = (await response.clone().text()).includes('"by_user"');
        }
        if (!String(input).includes('/analytics/users')) return response;
        const body = (await response.json()) as { data: Array<Record<string, unknown>> };
        for (const row of body.data) {
          row.x_new_metric = 1;
          if (!planted) {
            row.user_email = 'Bearer test-token-planted-0001';
            planted = true;
          }
        }
        return new Response(JSON.stringify(body), { status: response.status, headers: response.headers });
      };
      const now = () => new Date(`${today}T08:00:00Z`);
      const client = new OrgClient({
        apiKey: emulator.keys.manager,
        baseUrl: emulator.baseUrl,
        appUrl: emulator.appUrl,
        now,
        fetch: fetchWithDrift,
      });
      const period = monthPeriod('2026-10', { now });
      const snapshot = await fetchSnapshot(client, {
        period,
        comparison: comparisonPeriod(period),
        now,
        toolVersion: 'test',
        salt: 'fixed-salt',
      });
      expect(planted).toBe(true);
      // The API sent each day's by_user; the client dropped it while reading, the days are all there.
      expect(tokensSentByUser).toBe(true);
      expect(snapshot.tokens).toHaveLength(61);
      expect(snapshot.tokens.some((day) => 'by_user' in day)).toBe(false);
      expect(snapshot.tokens.every((day) => typeof day.billable_tokens === 'number')).toBe(true);
      expect(snapshot.manifest.unknownFields).toEqual({ userDays: ['x_new_metric'] });
      const emails = snapshot.userDays.user_email;
      expect(emails.some((e) => /^\[redacted:[0-9a-f]{8}\]$/.test(e ?? ''))).toBe(true);
      expect(JSON.stringify(snapshot)).not.toContain('test-token-planted-0001');
    } finally {
      await emulator.close();
    }
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
