/**
 * The daily series of a scope, from its `/users` rows: the analytics endpoints' totals belong to the
 * whole organization, so a scope's days are the sums of its people's rows, its daily, weekly and
 * trailing-30-day active users are distinct counts over them, and what the rows do not carry
 * (tokens, the autonomy-level mix) is null.
 */
import { addDays, type DayRange, eachDay, toEpochDay, type UserDayColumns } from '@orgreport/api-core';
import type { DailyRow } from '../../model.ts';

/** Summed fields of a daily row and the `/users` column each comes from. */
const SUMMED = {
  credits: 'billable_tokens',
  tool_calls: 'tool_calls',
  mcp_calls: 'mcp_calls',
  skill_calls: 'skill_calls',
  slash_commands: 'slash_commands',
  hooks: 'hooks',
  sessions: 'sessions',
  messages: 'messages',
  user_messages: 'user_messages',
  files_created: 'files_created',
  files_edited: 'files_edited',
  git_commits: 'git_commits',
  git_prs_created: 'git_prs_created',
} as const satisfies Partial<Record<keyof DailyRow, keyof UserDayColumns>>;

/** Days of each trailing window: WAU (7) and MAU (30), the API's windows. */
const WINDOWS = { wau: 7, mau_trailing_30d: 30 } as const;

/**
 * One row per day of `span` from the rows given; `hasData` says whether the organization had data
 * that day (a scope's day without rows is then 0, as any other day's sum).
 *
 * @example
 * usersDailySeries(scoped.userDays, period, (d) => organizationDays.has(d))[0].credits
 */
export function usersDailySeries(
  rows: UserDayColumns,
  span: DayRange,
  hasData: (date: string) => boolean,
): DailyRow[] {
  const days = eachDay(span.start, span.end);
  const first = toEpochDay(span.start);
  const byDay = new Map(days.map((d, i) => [d, i]));
  const sums = Object.fromEntries(
    Object.keys(SUMMED).map((k) => [k, new Float64Array(days.length)]),
  ) as Record<keyof typeof SUMMED, Float64Array>;
  // Each user's active days (epoch days), for distinct counts over a day and trailing windows.
  const activeDays = new Map<string, number[]>();
  const windowStart = toEpochDay(addDays(span.start, -(WINDOWS.mau_trailing_30d - 1)));
  const n = rows.user_id.length;
  for (let i = 0; i < n; i++) {
    const date = rows.date[i]!;
    const active =
      (rows.tool_calls[i] ?? 0) > 0 || (rows.messages[i] ?? 0) > 0 || (rows.sessions[i] ?? 0) > 0;
    if (active) {
      const day = toEpochDay(date);
      if (day >= windowStart && day <= first + days.length - 1) {
        const list = activeDays.get(rows.user_id[i]!);
        if (list) list.push(day);
        else activeDays.set(rows.user_id[i]!, [day]);
      }
    }
    const at = byDay.get(date);
    if (at === undefined) continue;
    for (const [field, column] of Object.entries(SUMMED) as Array<
      [keyof typeof SUMMED, keyof UserDayColumns]
    >) {
      sums[field][at]! += Number(rows[column][i] ?? 0);
    }
  }
  const distinct = {
    dau: new Int32Array(days.length),
    wau: new Int32Array(days.length),
    mau: new Int32Array(days.length),
  };
  for (const list of activeDays.values()) {
    list.sort((a, b) => a - b);
    // Each window counts the user once on every day it covers: mark the covered days, from the
    // user's active days, never twice.
    for (const [counts, width] of [
      [distinct.dau, 1],
      [distinct.wau, WINDOWS.wau],
      [distinct.mau, WINDOWS.mau_trailing_30d],
    ] as const) {
      let covered = Number.NEGATIVE_INFINITY;
      for (const day of list) {
        const from = Math.max(day - first, covered + 1, 0);
        const to = Math.min(day - first + width - 1, days.length - 1);
        for (let d = from; d <= to; d++) counts[d]!++;
        covered = Math.max(covered, to);
      }
    }
  }
  return days.map((date, i) => ({
    date,
    hasData: hasData(date),
    credits: sums.credits[i]!,
    input_tokens: null,
    output_tokens: null,
    cache_read_tokens: null,
    cache_write_tokens: null,
    tool_calls: sums.tool_calls[i]!,
    mcp_calls: sums.mcp_calls[i]!,
    skill_calls: sums.skill_calls[i]!,
    slash_commands: sums.slash_commands[i]!,
    hooks: sums.hooks[i]!,
    sessions: sums.sessions[i]!,
    messages: sums.messages[i]!,
    user_messages: sums.user_messages[i]!,
    files_created: sums.files_created[i]!,
    files_edited: sums.files_edited[i]!,
    git_commits: sums.git_commits[i]!,
    git_prs_created: sums.git_prs_created[i]!,
    dau: distinct.dau[i]!,
    wau: distinct.wau[i]!,
    mau_trailing_30d: distinct.mau[i]!,
    active_users: distinct.dau[i]!,
    auto_high: null,
    auto_medium: null,
    auto_low: null,
    manual: null,
  }));
}
