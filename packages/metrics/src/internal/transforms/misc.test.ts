import { describe, expect, it } from 'vitest';
import { buildReportModel } from '../../build-report-model.ts';
import { activityDay, buildSnapshot } from '../../testing/snapshot-builder.ts';
import { clientDau } from './clients.ts';
import { relativeChange } from './figures.ts';
import { hookEventsSummary } from './hook-events.ts';
import { mergeCaseVariants } from './named-counts.ts';

describe('relative change', () => {
  it('is (value - previous) / |previous|, null without a meaningful base', () => {
    expect(relativeChange(150, 100)).toBe(0.5);
    expect(relativeChange(50, 100)).toBe(-0.5);
    expect(relativeChange(-1, -2)).toBe(0.5);
    expect(relativeChange(5, 0)).toBeNull();
    expect(relativeChange(0, 0)).toBeNull();
    expect(relativeChange(null, 3)).toBeNull();
    expect(relativeChange(3, null)).toBeNull();
  });
});

describe('case merge', () => {
  it('shows a tie between spellings under the one that sorts first', () => {
    const [merged] = mergeCaseVariants(
      new Map([
        ['linear', 2],
        ['Linear', 2],
      ]),
    );
    expect(merged).toEqual({
      name: 'Linear',
      count: 4,
      spellings: [
        { name: 'Linear', count: 2 },
        { name: 'linear', count: 2 },
      ],
    });
  });
});

describe('clients', () => {
  it('averages each client’s DAU over the days, known clients always listed', () => {
    const rows = clientDau([
      activityDay('2026-03-02', { daily_active_users_by_client: { 'terminal-ui': 3, 'vr-headset': 1 } }),
      activityDay('2026-03-03', { daily_active_users_by_client: { 'terminal-ui': 1, web: 2 } }),
    ]);
    expect(rows).toEqual([
      { client: 'terminal-ui', avg_dau: 2, peak_dau: 3, user_days: 4 },
      { client: 'web', avg_dau: 1, peak_dau: 2, user_days: 2 },
      { client: 'non-interactive-cli', avg_dau: 0, peak_dau: 0, user_days: 0 },
      { client: 'vr-headset', avg_dau: 0.5, peak_dau: 1, user_days: 1 },
    ]);
  });
});

describe('hook-log events', () => {
  it('counts the period’s events by kind and SessionEnd reason', () => {
    const summary = hookEventsSummary(
      [
        {
          hook_event_name: 'SessionEnd',
          session_id: 's1',
          cwd: '/',
          reason: 'error',
          recorded_at: '2026-03-02T10:00:00Z',
        },
        {
          hook_event_name: 'SessionEnd',
          session_id: 's2',
          cwd: '/',
          reason: 'error',
          recorded_at: '2026-03-31T23:59:00Z',
        },
        { hook_event_name: 'Stop', session_id: 's1', cwd: '/', recorded_at: '2026-03-02T09:00:00Z' },
        { hook_event_name: 'Stop', session_id: 's3', cwd: '/', recorded_at: '2026-04-01T00:00:00Z' }, // after
        { hook_event_name: 'Notification', session_id: 's4', cwd: '/' }, // undated
      ],
      { start: '2026-03-01', end: '2026-03-31' },
    );
    expect(summary).toEqual({
      total: 4,
      by_event: [
        { event: 'SessionEnd', count: 2 },
        { event: 'Notification', count: 1 },
        { event: 'Stop', count: 1 },
      ],
      session_end_reasons: [{ reason: 'error', count: 2 }],
      sessions: 3,
      undated: 1,
    });
  });
});

describe('a partial report of the running month', () => {
  it('ends yesterday, is marked partial and cuts its last week there', () => {
    const model = buildReportModel(buildSnapshot({ month: '2026-03', endsOn: '2026-03-11' }), {
      generatedAt: '2026-03-12T06:00:00.000Z',
    });
    expect(model.period).toMatchObject({
      end: '2026-03-11',
      days: 11,
      partial: true,
      endsEarly: true,
      clampedStart: false,
    });
    expect(model.weekly.at(-1)).toMatchObject({
      week: '2026-W11',
      start: '2026-03-09',
      end: '2026-03-11',
      days_in_period: 3,
    });
    expect(model.hookEvents).toBeNull();
  });
});
