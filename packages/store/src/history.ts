/**
 * `readHistory`: an organization's months as the trend needs them, summed by the engine over the
 * stored partitions (the user-day rows of a year never come into memory). The definitions are the
 * report's figures of the same ids (docs/metrics.md); a test holds each month equal to a report of
 * that month.
 */
import {
  daysBetween,
  EARLIEST_DATA_DATE,
  type IsoMonth,
  monthBounds,
  previousMonth,
} from '@orgreport/api-core';
import { engineRead } from './damage.ts';
import { Engine, sqlString } from './engine.ts';
import { StoreError } from './errors.ts';
import type { StoreLayout } from './layout.ts';
import { missingSpans, readState } from './state.ts';
import { openStore } from './store-file.ts';

/** One month of an organization (the shape `@orgreport/metrics` reads as its `history` input). */
export interface StoredMonth {
  month: IsoMonth;
  /** Days of the month the store holds. */
  days: number;
  /** Days of the month with data at all (fewer in 2026-01: data starts on the 14th). */
  daysInMonth: number;
  /** Sum of `tokens_daily.billable_tokens`. */
  credits: number;
  /** Distinct `user_days.user_id` with tool calls, messages or sessions on a day. */
  activeUsers: number;
  /** Mean `activity_daily.daily_active_users`; null without rows. */
  avgDau: number | null;
  /** Mean over users with user messages of their tool calls / user messages; null without any. */
  autonomyMean: number | null;
}

export interface ReadHistoryOptions {
  /** The last month (included). */
  until: IsoMonth;
  /** Months at most, `until` included (default 12). */
  months?: number;
}

/** The days of `month` that have data at all (from the first day of data on). */
function dataDays(month: IsoMonth): { start: string; end: string } {
  const { start, end } = monthBounds(month);
  return { start: start < EARLIEST_DATA_DATE ? EARLIEST_DATA_DATE : start, end };
}

/** The engine's sums of one stored month. */
async function sumMonth(
  engine: Engine,
  layout: StoreLayout,
  orgId: string,
  month: IsoMonth,
): Promise<Omit<StoredMonth, 'month' | 'days' | 'daysInMonth'>> {
  const paths = ['tokens_daily', 'activity_daily', 'user_days'].map((d) =>
    layout.partitionFile(d, orgId, month),
  );
  const there = new Set(await layout.presentFiles(orgId, paths));
  const present = paths.map((p) => there.has(p));
  const [tokens, activity, userDays] = paths.map((p, i) =>
    present[i] ? `read_parquet(${sqlString(p)})` : null,
  );
  const files = paths.filter((_, i) => present[i]);
  const rows = (sql: string) => engineRead(layout, files, () => engine.rows(sql));
  const credits = tokens ? await rows(`SELECT sum(billable_tokens) AS v FROM ${tokens}`) : [];
  const dau = activity ? await rows(`SELECT avg(daily_active_users) AS v FROM ${activity}`) : [];
  // The mean is taken in user order: the same rows always give the same last bit, however the
  // engine's threads split the work.
  const users = userDays
    ? await rows(
        `SELECT count(*) FILTER (WHERE active) AS active_users, avg(tool_calls / user_messages ORDER BY user_id) FILTER (WHERE user_messages > 0) AS autonomy_mean
         FROM (SELECT user_id, bool_or(tool_calls > 0 OR messages > 0 OR sessions > 0) AS active, sum(tool_calls) AS tool_calls, sum(user_messages) AS user_messages
               FROM ${userDays} GROUP BY user_id)`,
      )
    : [];
  const number = (v: unknown) => (v === null || v === undefined ? null : Number(v));
  return {
    credits: number(credits[0]?.v) ?? 0,
    activeUsers: number(users[0]?.active_users) ?? 0,
    avgDau: number(dau[0]?.v),
    autonomyMean: number(users[0]?.autonomy_mean),
  };
}

/**
 * The months up to `until` (at most `months` of them, oldest first) of which the store holds at
 * least one day of organization `orgId`, summed for the trend.
 *
 * @example
 * const months = await readHistory('/srv/store', 'org_1', { until: '2026-10' });
 */
export async function readHistory(
  root: string,
  orgId: string,
  options: ReadHistoryOptions,
): Promise<StoredMonth[]> {
  const layout = await openStore(root);
  const state = await readState(layout, orgId);
  if (!state) throw new StoreError(`the store ${layout.label} holds no data of organization ${orgId}`);
  const wanted: IsoMonth[] = [];
  for (let m = options.until, n = options.months ?? 12; n > 0 && m >= EARLIEST_DATA_DATE.slice(0, 7); n--) {
    wanted.unshift(m);
    m = previousMonth(m);
  }
  const engine = await Engine.open();
  try {
    const out: StoredMonth[] = [];
    for (const month of wanted) {
      const span = dataDays(month);
      const daysInMonth = daysBetween(span.start, span.end) + 1;
      const lacking = missingSpans(state.days, span).reduce((s, r) => s + daysBetween(r.start, r.end) + 1, 0);
      if (lacking === daysInMonth) continue;
      out.push({
        month,
        days: daysInMonth - lacking,
        daysInMonth,
        ...(await sumMonth(engine, layout, orgId, month)),
      });
    }
    return out;
  } finally {
    engine.close();
  }
}
