/**
 * The compute floor: the aggregations of the metrics stage that scale with the `/users` rows, done
 * once by DuckDB (SQL) and once by a plain JS loop over the snapshot's columns. Per span (the report
 * period and the comparison period):
 *  1. per user: the 13 summed counters, active days and the autonomy ratio (user-totals, seats);
 *  2. per day: the 13 summed counters and distinct active users (daily series, data-quality checks);
 *  3. per ISO week: distinct active users (weekly rollup);
 *  4. per user and primary model: credits and days (each user's primary model);
 *  5. per user and delegation level, active rows only: tool calls and days (primary delegation).
 * A row is active when it has tool calls, messages or sessions (as in @orgreport/metrics).
 * Each result is reduced to a digest (groups, sum of all numbers) so both floors can be compared.
 */
import { type DayRange, toEpochDay, USER_DAY_SUMS, type UserDayColumns } from '@orgreport/api-core';

/** The counters summed per user and per day. */
export const SUMMED_COLUMNS = USER_DAY_SUMS;

export const AGGREGATIONS = ['perUser', 'perDay', 'perWeek', 'perUserModel', 'perUserLevel'] as const;
export type AggregationName = (typeof AGGREGATIONS)[number];

/** Number of groups and the sum of every number of the result (a cheap fingerprint). */
export interface Digest {
  groups: number;
  total: number;
}
export type Digests = Record<AggregationName, Digest>;

/** Days since 1970-01-01 of a `YYYY-MM-DD` date. */
export const epochDay = toEpochDay;

/** The epoch day of the Monday of the ISO week of an epoch day (1970-01-01 was a Thursday). */
export function mondayOf(day: number): number {
  return day - ((((day + 3) % 7) + 7) % 7);
}

function num(v: unknown): number {
  return typeof v === 'number' ? v : 0;
}

/** Map-based group accumulator: key -> array of running sums. */
class Groups {
  readonly sums = new Map<string | number, number[]>();
  constructor(readonly width: number) {}
  at(key: string | number): number[] {
    let row = this.sums.get(key);
    if (!row) {
      row = new Array<number>(this.width).fill(0);
      this.sums.set(key, row);
    }
    return row;
  }
}

function digestOf(rows: Iterable<ArrayLike<number>>): Digest {
  let groups = 0;
  let total = 0;
  for (const row of rows) {
    groups++;
    for (let i = 0; i < row.length; i++) total += row[i]!;
  }
  return { groups, total };
}

function addDigests(a: Digests, b: Digests): Digests {
  const out = {} as Digests;
  for (const k of AGGREGATIONS)
    out[k] = { groups: a[k].groups + b[k].groups, total: a[k].total + b[k].total };
  return out;
}

/** The set of `key` in a map of sets, created when missing. */
function setOf<K>(map: Map<K, Set<string>>, key: K): Set<string> {
  let set = map.get(key);
  if (!set) {
    set = new Set();
    map.set(key, set);
  }
  return set;
}

/** The aggregations of one span as a plain loop over the columns. */
function jsSpan(columns: UserDayColumns, span: DayRange): Digests {
  const n = columns.user_id.length;
  const W = SUMMED_COLUMNS.length;
  const summed = SUMMED_COLUMNS.map((c) => columns[c] as ArrayLike<unknown>);
  const perUser = new Groups(W + 1);
  const perDay = new Groups(W);
  const dayUsers = new Map<string, Set<string>>();
  const weekUsers = new Map<number, Set<string>>();
  const perUserModel = new Groups(2);
  const perUserLevel = new Groups(2);
  for (let i = 0; i < n; i++) {
    const date = columns.date[i]!;
    if (date < span.start || date > span.end) continue;
    const user = columns.user_id[i]!;
    const u = perUser.at(user);
    const d = perDay.at(date);
    for (let c = 0; c < W; c++) {
      const v = num(summed[c]![i]);
      u[c]! += v;
      d[c]! += v;
    }
    const toolCalls = num(columns.tool_calls[i]);
    const active = toolCalls > 0 || num(columns.messages[i]) > 0 || num(columns.sessions[i]) > 0;
    const m = perUserModel.at(`${user}\u0000${columns.primary_model[i] ?? ''}`);
    m[0]! += num(columns.billable_tokens[i]);
    m[1]! += 1;
    if (!active) continue;
    u[W]! += 1;
    setOf(dayUsers, date).add(user);
    const week = mondayOf(epochDay(date));
    setOf(weekUsers, week).add(user);
    const l = perUserLevel.at(`${user}\u0000${columns.delegation_level[i] ?? ''}`);
    l[0]! += toolCalls;
    l[1]! += 1;
  }
  const userRows = [...perUser.sums.values()].map((r) => {
    const ratio = r[4]! > 0 ? r[1]! / r[4]! : 0; // tool_calls / user_messages
    return [...r, ratio];
  });
  const dayRows = [...perDay.sums.entries()].map(([date, r]) => [
    ...r,
    dayUsers.get(date as string)?.size ?? 0,
  ]);
  return {
    perUser: digestOf(userRows),
    perDay: digestOf(dayRows),
    perWeek: digestOf([...weekUsers.values()].map((s) => [s.size])),
    perUserModel: digestOf(perUserModel.sums.values()),
    perUserLevel: digestOf(perUserLevel.sums.values()),
  };
}

/** The aggregations of every span, as a plain JS loop; digests summed over the spans. */
export function jsAggregations(columns: UserDayColumns, spans: readonly DayRange[]): Digests {
  return spans.map((s) => jsSpan(columns, s)).reduce(addDigests);
}

const ACTIVE_SQL = '(tool_calls > 0 OR messages > 0 OR sessions > 0)';

/** The SQL of each aggregation over the table `user_days` for one span (dates are checked literals). */
export function duckdbQueries(span: DayRange): Record<AggregationName, string> {
  for (const d of [span.start, span.end]) {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(d)) throw new RangeError(`not a date: ${d}`);
  }
  const where = `date BETWEEN '${span.start}' AND '${span.end}'`;
  const sums = SUMMED_COLUMNS.map((c) => `sum(${c})`).join(', ');
  return {
    perUser: `SELECT ${sums}, count(*) FILTER (WHERE ${ACTIVE_SQL}),
      CASE WHEN sum(user_messages) > 0 THEN sum(tool_calls) / sum(user_messages) ELSE 0 END
      FROM user_days WHERE ${where} GROUP BY user_id`,
    perDay: `SELECT ${sums}, count(DISTINCT user_id) FILTER (WHERE ${ACTIVE_SQL})
      FROM user_days WHERE ${where} GROUP BY date`,
    perWeek: `SELECT count(DISTINCT user_id) FROM user_days WHERE ${where} AND ${ACTIVE_SQL}
      GROUP BY date_trunc('week', CAST(date AS DATE))`,
    perUserModel: `SELECT sum(billable_tokens), count(*) FROM user_days WHERE ${where}
      GROUP BY user_id, coalesce(primary_model, '')`,
    perUserLevel: `SELECT sum(tool_calls), count(*) FROM user_days WHERE ${where} AND ${ACTIVE_SQL}
      GROUP BY user_id, coalesce(delegation_level, '')`,
  };
}

/** Digest of a query result given as rows of numbers (DuckDB returns BIGINT counts as bigint). */
export function digestOfRows(rows: ReadonlyArray<ReadonlyArray<unknown>>): Digest {
  return digestOf(rows.map((r) => r.map((v) => (typeof v === 'bigint' ? Number(v) : num(v)))));
}

/** Adds the digests of several spans. */
export function sumDigests(list: readonly Digests[]): Digests {
  return list.reduce(addDigests);
}

/** True when two digests agree (same groups, totals equal up to floating-point rounding). */
export function digestsAgree(a: Digests, b: Digests): boolean {
  return AGGREGATIONS.every((k) => {
    const x = a[k];
    const y = b[k];
    return x.groups === y.groups && Math.abs(x.total - y.total) <= 1e-9 * Math.max(1, Math.abs(x.total));
  });
}
