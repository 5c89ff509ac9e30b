/**
 * The spike rule: a scope's day (a user's, a team's, the organization's) above a multiple of the
 * median of its trailing window (3x the days with credits among the 28 before it, by default). A
 * scope with too few days with credits in the window (14) is not judged, and a day below the floor
 * (100,000 credits) is never a spike. Days without credits do not count: a person who works three
 * days a week is compared with their working days, not with zeros.
 *
 * A spike that lasts is one alert: its period is the first day of the run of spike days it belongs
 * to, so the days after it find the same key. Quieter days inside a run do not end it (a spike that
 * lasts raises its own median, and some of its days fall under the multiple); a run ends after
 * `quietDays` (7) days without a spike day.
 */
import { addDays, type IsoDate } from '@orgreport/api-core/dates';
import type { DailyValues } from '../forecast.ts';
import { credits, round, scopeLabel, times } from '../format.ts';
import { creditsDocument, creditsQuery } from '../more.ts';
import type { ScopeSeries } from '../series.ts';
import type { Finding, SpikeRules } from '../types.ts';

/** The median of a non-empty list. */
export function median(values: readonly number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** How a day compares with its trailing window; null when the scope is not judged that day. */
export interface SpikeJudgement {
  value: number;
  median: number;
  /** Days with credits in the window. */
  historyDays: number;
  spike: boolean;
}

/**
 * Judges one day of a series: null when the day has no credits or the window holds fewer than
 * `minHistoryDays` days with credits.
 */
export function judgeDay(values: DailyValues, day: IsoDate, rules: SpikeRules): SpikeJudgement | null {
  const value = values.get(day);
  if (value === undefined || value <= 0) return null;
  const history: number[] = [];
  for (let k = 1; k <= rules.trailingDays; k++) {
    const v = values.get(addDays(day, -k));
    if (v !== undefined && v > 0) history.push(v);
  }
  if (history.length < rules.minHistoryDays) return null;
  const m = median(history);
  return {
    value,
    median: m,
    historyDays: history.length,
    spike: value >= rules.minCredits && value > rules.multiple * m,
  };
}

/**
 * The first day of the run of spike days that ends on `day` (a spike day itself): back from `day`,
 * each spike day no more than `quietDays` days before the one after it.
 */
export function spikeStart(values: DailyValues, day: IsoDate, rules: SpikeRules): IsoDate {
  let start = day;
  let gap = 0;
  for (let k = 1; k <= 2 * rules.trailingDays; k++) {
    const earlier = addDays(day, -k);
    if (judgeDay(values, earlier, rules)?.spike) {
      start = earlier;
      gap = 0;
    } else if (++gap >= rules.quietDays) break;
  }
  return start;
}

/**
 * The spikes of `days` (the days not judged yet) over each scope's series.
 *
 * @example
 * spikeFindings('org_1', [userSeries], ['2026-10-07'], DEFAULT_RULES.spike)
 * // [{ key: 'spike|user:jane@example.com|2026-10-07', figures: { credits: 2400000, median: 300000, ... } }]
 */
export function spikeFindings(
  orgId: string,
  scopes: readonly ScopeSeries[],
  days: readonly IsoDate[],
  rules: SpikeRules,
): Finding[] {
  const out: Finding[] = [];
  for (const series of scopes) {
    const seen = new Set<string>();
    for (const day of days) {
      const j = judgeDay(series.values, day, rules);
      if (!j?.spike) continue;
      const start = spikeStart(series.values, day, rules);
      const { scope } = series;
      const key = `spike|${scope.kind}:${scope.name}|${start}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const person = scope.kind === 'user';
      const sql = creditsQuery(orgId, series, addDays(day, -rules.trailingDays), day);
      out.push({
        rule: 'spike',
        key,
        orgId,
        scope,
        period: start,
        severity: 'warning',
        day,
        sentence: `${scopeLabel(scope)} used ${credits(j.value)} credits on ${day}: ${times(j.value / j.median)} the median of ${credits(j.median)} over the ${j.historyDays} days with credits among the ${rules.trailingDays} before (alert above ${times(rules.multiple)})${start < day ? `; a spike since ${start}` : ''}.`,
        figures: {
          credits: round(j.value),
          median: round(j.median),
          multiple: round(j.value / j.median, 2),
          alert_multiple: rules.multiple,
          history_days: j.historyDays,
          trailing_days: rules.trailingDays,
          since: start,
        },
        more: { ...(sql && { sql }), document: creditsDocument(series) },
        person,
        ...(person && series.email ? { email: series.email } : {}),
        ...(person && series.userId ? { userId: series.userId } : {}),
      });
    }
  }
  return out;
}
