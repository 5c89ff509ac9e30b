/**
 * The stale-data rule, two checks: the store has no day for yesterday by the set hour (09:00 UTC;
 * before it, the day before yesterday is enough), and sync has failed N days running (2). Each is
 * one alert per episode: the period is the last day held (data) or the first failed day (sync), so
 * a store that stays stale is not announced again every day, and a new gap is.
 */
import { addDays, type IsoDate } from '@orgreport/api-core/dates';
import { sqlText } from '../more.ts';
import type { Finding, StaleRules, SyncRun } from '../types.ts';

/** The last day the store should hold at `now`: yesterday once the hour has come, else the day before. */
export function expectedDay(today: IsoDate, now: string, byHourUtc: number): IsoDate {
  const due = Date.parse(`${today}T00:00:00.000Z`) + byHourUtc * 3_600_000;
  return addDays(today, Date.parse(now) >= due ? -1 : -2);
}

/**
 * The days sync failed, running back from today (or yesterday when today has no run yet): the
 * days whose runs all failed, newest first, up to the first day with a run that succeeded or
 * without a run.
 */
export function failedDays(runs: readonly SyncRun[], today: IsoDate): IsoDate[] {
  const byDay = new Map<IsoDate, boolean>();
  for (const r of runs) byDay.set(r.day, (byDay.get(r.day) ?? false) || r.ok);
  const out: IsoDate[] = [];
  let day = byDay.has(today) ? today : addDays(today, -1);
  while (byDay.get(day) === false) {
    out.push(day);
    day = addDays(day, -1);
  }
  return out;
}

/**
 * The stale-data alerts at `now` (`today` its UTC day, or the day `--today` names).
 *
 * @example
 * staleFindings('org_1', '2026-10-03', [], '2026-10-06', '2026-10-06T10:00:00Z', DEFAULT_RULES.stale)
 * // [{ key: 'stale|organization:org_1|data-after-2026-10-03', ... }]
 */
export function staleFindings(
  orgId: string,
  lastDay: IsoDate | null,
  runs: readonly SyncRun[],
  today: IsoDate,
  now: string,
  rules: StaleRules,
): Finding[] {
  const out: Finding[] = [];
  const scope = { kind: 'organization' as const, name: orgId };
  const expected = expectedDay(today, now, rules.byHourUtc);
  const hour = `${String(rules.byHourUtc).padStart(2, '0')}:00 UTC`;
  if (lastDay === null || lastDay < expected) {
    out.push({
      rule: 'stale',
      key: `stale|organization:${orgId}|data-after-${lastDay ?? 'none'}`,
      orgId,
      scope,
      period: lastDay ?? 'none',
      threshold: 'data',
      severity: 'warning',
      day: expected,
      sentence: `The store holds ${lastDay ? `no day of organization ${orgId} after ${lastDay}` : `no day of organization ${orgId}`}: ${expected} was due by ${hour} on ${addDays(expected, 1)}.`,
      figures: { last_day: lastDay, expected_day: expected, due_hour_utc: rules.byHourUtc },
      more: {
        sql: `SELECT max(date) AS last_day FROM tokens_daily WHERE org_id = ${sqlText(orgId)}`,
        document: 'the sync log (orgreport sync --store DIR, its output or --json)',
      },
      person: false,
    });
  }
  const failed = failedDays(runs, today);
  if (failed.length >= rules.syncFailures) {
    const first = failed.at(-1)!;
    const last = runs.filter((r) => r.day === failed[0]).at(-1);
    out.push({
      rule: 'stale',
      key: `stale|organization:${orgId}|sync-failed-since-${first}`,
      orgId,
      scope,
      period: first,
      threshold: 'sync',
      severity: 'critical',
      day: failed[0]!,
      sentence: `Sync of organization ${orgId} has failed ${failed.length} days running (since ${first})${last?.error ? `; last error: ${last.error}` : ''}.`,
      figures: {
        failed_days: failed.length,
        since: first,
        alert_after_days: rules.syncFailures,
        last_error: last?.error ?? null,
        last_day: lastDay,
      },
      more: { document: 'the sync log (orgreport sync --store DIR, its output or --json)' },
      person: false,
    });
  }
  return out;
}

/** Why a store cannot be read: the file, what is wrong with it, and what mends it (a sentence ending in a command). */
export interface UnreadableStore {
  /** The file inside the store, when one is to blame (`user_days/org_id=.../part-0.parquet`). */
  file?: string;
  /** What is wrong, in plain words (`is empty (0 bytes)`), or the reader's whole message. */
  problem: string;
  /** What mends it (`... orgreport sync --store DIR --rebuild`). */
  remedy?: string;
}

/**
 * The alert of a store the watch cannot read (a damaged partition, state or record file): no rule
 * could run, so none of their alerts, stale data's included, can be trusted to come. The period is
 * the day of the run, so it is one alert a day for as long as the store stays unreadable.
 *
 * @example
 * unreadableStoreFinding('org_1', '2026-10-06', { file: 'user_days/org_id=org_1/month=2026-10/part-0.parquet', problem: 'is empty (0 bytes)', remedy: 'remake it: orgreport sync --store /srv/store --rebuild' }).key
 * // 'stale|organization:org_1|unreadable-2026-10-06'
 */
export function unreadableStoreFinding(orgId: string, today: IsoDate, why: UnreadableStore): Finding {
  const what = why.file ? `${why.file} ${why.problem}` : why.problem;
  return {
    rule: 'stale',
    key: `stale|organization:${orgId}|unreadable-${today}`,
    orgId,
    scope: { kind: 'organization', name: orgId },
    period: today,
    threshold: 'store',
    severity: 'critical',
    day: today,
    sentence: `The store of organization ${orgId} cannot be read, so no alert rule ran on ${today}: ${what}.${why.remedy ? ` To mend it, ${why.remedy}.` : ''}`,
    figures: { file: why.file ?? null, problem: why.problem, remedy: why.remedy ?? null },
    more: {
      document: why.remedy
        ? `how to mend the store: ${why.remedy}`
        : 'the sync log (orgreport sync --store DIR, its output or --json)',
    },
    person: false,
  };
}
