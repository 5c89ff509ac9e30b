import { buildReportModel } from '@orgreport/metrics';
import { activityDay, buildSnapshot } from '@orgreport/metrics/testing';
import { describe, expect, it } from 'vitest';
import { section, weekdayActivity } from './index.js';

describe('the weekday section', () => {
  it('averages each weekday over the period (hand-computed) and names the busiest', () => {
    // 2026-10-05 and 2026-10-12 are Mondays; 2026-10-06 a Tuesday; 2026-09-28 (a Monday) is outside.
    const activity = [
      { date: '2026-10-05', daily_active_users: 4, sessions: 10, messages: 40 },
      { date: '2026-10-12', daily_active_users: 6, sessions: 20, messages: 60 },
      { date: '2026-10-06', daily_active_users: 9, sessions: 3, messages: 7 },
      { date: '2026-09-28', daily_active_users: 100, sessions: 100, messages: 100 },
    ];
    const rows = weekdayActivity(activity, { start: '2026-10-01', end: '2026-10-31' });
    expect(rows[0]).toEqual({ weekday: 'Monday', days: 2, avg_dau: 5, avg_sessions: 15, avg_messages: 50 });
    expect(rows[1]).toEqual({ weekday: 'Tuesday', days: 1, avg_dau: 9, avg_sessions: 3, avg_messages: 7 });
    expect(rows[2]).toEqual({ weekday: 'Wednesday', days: 0, avg_dau: null, avg_sessions: null, avg_messages: null });
  });

  it('adds its figures, its finding and its definition to the model through buildReportModel', () => {
    const snapshot = buildSnapshot({
      month: '2026-10',
      activity: [activityDay('2026-10-05', { daily_active_users: 4 }), activityDay('2026-10-06', { daily_active_users: 9 })],
    });
    const model = buildReportModel(snapshot, { generatedAt: '2026-11-01T00:00:00.000Z', sections: [section] });
    expect(model.sections?.weekday).toMatchObject({ busiest: 'Tuesday' });
    expect(model.dataQuality.find((f) => f.kind === 'weekday_without_data')).toMatchObject({ count: 5 });
    expect(model.definitions.at(-1)?.id).toBe('weekday');
    expect(section.sheets?.[0]?.rows(model)).toHaveLength(7);
  });
});
