import type { ControlChange } from '@orgreport/api-core';
import { describe, expect, it } from 'vitest';
import { historyOf, rulesWith, topLevelDiff, userRows } from './__fixtures__/history.ts';
import { evaluateWatch } from './evaluate.ts';
import type { WatchHistory } from './types.ts';

const diff = topLevelDiff(new Set(['enableAgentShield']));
const owner = { id: 'user_1', email: 'owner@x.example', name: 'Eden Wolf' };
const rev = (revision: number, updatedAt: string, shield: boolean) =>
  ({ revision, updatedAt, user: owner, settings: { enableAgentShield: shield } }) as ControlChange;

/** u works weekdays at 200,000 and spikes to 1,000,000 from `spikeFrom`; v works weekdays at 150,000. */
function history(
  through: string,
  spikeFrom = '2026-10-07',
  controls: ControlChange[] = [rev(1, '2026-09-01T10:00:00Z', false)],
): WatchHistory {
  const u = userRows('u@x.example', '2026-09-01', through, 200_000).map((r) =>
    r.date >= spikeFrom ? { ...r, credits: 1_000_000 } : r,
  );
  return historyOf({
    held: [{ start: '2026-09-01', end: through }],
    userDays: [...u, ...userRows('v@x.example', '2026-09-01', through, 150_000)],
    controls,
  });
}
// Only user spikes, so that the organization's own day (also 2.3x) does not mix in.
const rules = rulesWith((r) => {
  r.spike.scopes = ['user'];
});

describe('evaluateWatch', () => {
  it('marks an alert new the first time its key is found, and never again', () => {
    const first = evaluateWatch({
      history: history('2026-10-07'),
      rules,
      state: null,
      today: '2026-10-08',
      now: '2026-10-08T10:00:00Z',
      diff,
    });
    expect(first.alerts.map((a) => [a.key, a.new])).toEqual([['spike|user:u@x.example|2026-10-07', true]]);
    expect(first.notes).toEqual([
      'first watch of organization org_test: control revisions up to 1 are taken as seen; later ones alert',
    ]);
    expect(first.state).toEqual({
      version: 1,
      orgId: 'org_test',
      lastDay: '2026-10-07',
      lastRevision: 1,
      fired: { 'spike|user:u@x.example|2026-10-07': { day: '2026-10-08', rule: 'spike' } },
    });
    // The same day again: the same alert, not new.
    const again = evaluateWatch({
      history: history('2026-10-07'),
      rules,
      state: first.state,
      today: '2026-10-08',
      now: '2026-10-08T11:00:00Z',
      diff,
    });
    expect(again.alerts.map((a) => [a.key, a.new])).toEqual([['spike|user:u@x.example|2026-10-07', false]]);
    expect(again.state).toEqual(first.state);
    // The next day: the spike goes on (same key, not new); the shield switched on yesterday alerts.
    const controls = [rev(1, '2026-09-01T10:00:00Z', false), rev(2, '2026-10-08T12:00:00Z', true)];
    const next = evaluateWatch({
      history: history('2026-10-08', '2026-10-07', controls),
      rules,
      state: again.state,
      today: '2026-10-09',
      now: '2026-10-09T10:00:00Z',
      diff,
    });
    expect(next.alerts.map((a) => [a.key, a.new])).toEqual([
      ['security|organization:org_test|r2', true],
      ['spike|user:u@x.example|2026-10-07', false],
    ]);
    expect(next.state.lastRevision).toBe(2);
    expect(next.state.lastDay).toBe('2026-10-08');
  });

  it('judges the days held since the last watch (at most a week), so a spike between two watches is found', () => {
    // The last watch judged 2026-10-02; u spiked on 2026-10-05 only.
    const h = history('2026-10-07', '2026-10-05');
    const oneDay = {
      ...h,
      userDays: h.userDays.map((r) =>
        r.date > '2026-10-05' && r.email === 'u@x.example' ? { ...r, credits: 200_000 } : r,
      ),
    };
    const state = {
      version: 1 as const,
      orgId: 'org_test',
      lastDay: '2026-10-02',
      lastRevision: 1,
      fired: {},
    };
    const out = evaluateWatch({
      history: oneDay,
      rules,
      state,
      today: '2026-10-08',
      now: '2026-10-08T10:00:00Z',
      diff,
    });
    expect(out.alerts.map((a) => [a.key, a.day, a.new])).toEqual([
      ['spike|user:u@x.example|2026-10-05', '2026-10-05', true],
    ]);
    // Judged from the last day alone (a first watch), the spike of the 5th is not seen.
    expect(
      evaluateWatch({
        history: oneDay,
        rules,
        state: null,
        today: '2026-10-08',
        now: '2026-10-08T10:00:00Z',
        diff,
      }).alerts,
    ).toEqual([]);
  });

  it('forgets a sent key after 120 days, and alerts on stale data with nothing held', () => {
    const state = {
      version: 1 as const,
      orgId: 'org_test',
      lastDay: '2026-10-07',
      lastRevision: 1,
      fired: {
        'budget|organization:org_test|2026-05|actual-80': { day: '2026-06-09', rule: 'budget' as const },
        'budget|organization:org_test|2026-06|actual-80': { day: '2026-06-10', rule: 'budget' as const },
      },
    };
    const out = evaluateWatch({
      history: historyOf({ held: [] }),
      state,
      today: '2026-10-08',
      now: '2026-10-08T10:00:00Z',
      diff,
    });
    expect(Object.keys(out.state.fired)).toEqual([
      'budget|organization:org_test|2026-06|actual-80',
      'stale|organization:org_test|data-after-none',
    ]);
    expect(out.alerts.map((a) => a.rule)).toEqual(['stale']);
    expect(out.forecast).toBeNull();
    expect(out.state.lastDay).toBe('2026-10-07');
  });

  it('fires nothing on a quiet organization with the default rules', () => {
    const quiet = history('2026-10-07', '2099-01-01');
    const out = evaluateWatch({
      history: quiet,
      state: null,
      today: '2026-10-08',
      now: '2026-10-08T10:00:00Z',
      diff,
    });
    expect(out.alerts).toEqual([]);
    // October so far: 5 weekdays at 350,000; 17 weekdays and 9 weekend days left at 350,000 and 0.
    expect(out.forecast).toMatchObject({
      toDate: 1_750_000,
      weekdayRate: 350_000,
      weekendRate: 0,
      forecast: 22 * 350_000,
    });
  });
});
