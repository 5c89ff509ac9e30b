import { describe, expect, it } from 'vitest';
import { DEFAULT_RULES } from '../defaults.ts';
import type { SyncRun } from '../types.ts';
import { expectedDay, failedDays, staleFindings, unreadableStoreFinding } from './stale.ts';

const rules = DEFAULT_RULES.stale;
const run = (day: string, ok: boolean, error?: string): SyncRun => ({
  at: `${day}T02:30:00Z`,
  day,
  ok,
  through: null,
  ...(error && { error }),
});

describe('stale rule: no day for yesterday by the set hour', () => {
  it('expects yesterday from 09:00 UTC, the day before until then', () => {
    expect(expectedDay('2026-10-06', '2026-10-06T08:59:59.999Z', 9)).toBe('2026-10-04');
    expect(expectedDay('2026-10-06', '2026-10-06T09:00:00.000Z', 9)).toBe('2026-10-05');
  });

  it('alerts once per gap: the period is the last day held', () => {
    expect(staleFindings('org_test', '2026-10-05', [], '2026-10-06', '2026-10-06T10:00:00Z', rules)).toEqual(
      [],
    );
    expect(staleFindings('org_test', '2026-10-04', [], '2026-10-06', '2026-10-06T08:00:00Z', rules)).toEqual(
      [],
    );
    const late = staleFindings('org_test', '2026-10-04', [], '2026-10-06', '2026-10-06T10:00:00Z', rules);
    expect(late).toHaveLength(1);
    expect(late[0]).toMatchObject({
      key: 'stale|organization:org_test|data-after-2026-10-04',
      period: '2026-10-04',
      severity: 'warning',
      figures: { last_day: '2026-10-04', expected_day: '2026-10-05', due_hour_utc: 9 },
    });
    expect(late[0]!.sentence).toBe(
      'The store holds no day of organization org_test after 2026-10-04: 2026-10-05 was due by 09:00 UTC on 2026-10-06.',
    );
    // The next day, still nothing new: the same key.
    const next = staleFindings('org_test', '2026-10-04', [], '2026-10-07', '2026-10-07T10:00:00Z', rules);
    expect(next.map((f) => f.key)).toEqual(['stale|organization:org_test|data-after-2026-10-04']);
  });
});

describe('stale rule: sync failed N days running', () => {
  it('counts the days whose runs all failed, back from today (or yesterday before today’s run)', () => {
    const runs = [run('2026-10-04', true), run('2026-10-05', false), run('2026-10-06', false, 'HTTP 503')];
    expect(failedDays(runs, '2026-10-06')).toEqual(['2026-10-06', '2026-10-05']);
    expect(failedDays(runs, '2026-10-07')).toEqual(['2026-10-06', '2026-10-05']);
    // A day with a failed run and then a good one did not fail.
    expect(failedDays([...runs, run('2026-10-06', true)], '2026-10-06')).toEqual([]);
    // A day without any run ends the count.
    expect(failedDays([run('2026-10-03', false), run('2026-10-05', false)], '2026-10-05')).toEqual([
      '2026-10-05',
    ]);
  });

  it('alerts at 2 failed days, with the last error, once for the whole streak', () => {
    const one = [run('2026-10-04', true), run('2026-10-05', false)];
    expect(staleFindings('org_test', '2026-10-05', one, '2026-10-05', '2026-10-05T03:00:00Z', rules)).toEqual(
      [],
    );
    const two = [...one, run('2026-10-06', false, 'HTTP 503')];
    const found = staleFindings('org_test', '2026-10-05', two, '2026-10-06', '2026-10-06T03:00:00Z', rules);
    expect(found.map((f) => [f.key, f.severity, f.figures.failed_days, f.figures.last_error])).toEqual([
      ['stale|organization:org_test|sync-failed-since-2026-10-05', 'critical', 2, 'HTTP 503'],
    ]);
    const three = [...two, run('2026-10-07', false)];
    expect(
      staleFindings('org_test', '2026-10-05', three, '2026-10-07', '2026-10-07T03:00:00Z', rules).map(
        (f) => f.key,
      ),
    ).toEqual(['stale|organization:org_test|sync-failed-since-2026-10-05']);
  });
});

describe('a store that cannot be read', () => {
  const why = {
    file: 'user_days/org_id=org_test/month=2026-10/part-0.parquet',
    problem: 'is empty (0 bytes)',
    remedy:
      'remake every dataset from the raw responses the store keeps: orgreport sync --store /srv/store --rebuild',
  };

  it('is one critical stale alert a day, naming the file, what is wrong and how to mend it', () => {
    const found = unreadableStoreFinding('org_test', '2026-10-06', why);
    expect(found).toMatchObject({
      rule: 'stale',
      key: 'stale|organization:org_test|unreadable-2026-10-06',
      scope: { kind: 'organization', name: 'org_test' },
      period: '2026-10-06',
      severity: 'critical',
      person: false,
      figures: { file: why.file, problem: why.problem, remedy: why.remedy },
    });
    expect(found.sentence).toBe(
      'The store of organization org_test cannot be read, so no alert rule ran on 2026-10-06: user_days/org_id=org_test/month=2026-10/part-0.parquet is empty (0 bytes). To mend it, remake every dataset from the raw responses the store keeps: orgreport sync --store /srv/store --rebuild.',
    );
    expect(found.more.document).toContain('orgreport sync --store /srv/store --rebuild');
    // The next day is another alert; the same day, the same one.
    expect(unreadableStoreFinding('org_test', '2026-10-07', why).key).not.toBe(found.key);
    expect(unreadableStoreFinding('org_test', '2026-10-06', { problem: 'x' }).key).toBe(found.key);
  });
});
