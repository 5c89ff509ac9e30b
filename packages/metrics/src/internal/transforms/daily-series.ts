/**
 * The daily series of a span from the analytics endpoints' daily totals.
 */
import { type DayRange, eachDay, type Snapshot } from '@orgreport/api-core';
import type { DailyRow } from '../../model.ts';
import { dayAutonomyShares } from './autonomy-mix.ts';

/** Indexes rows by their `date` (the first row of a date wins). */
export function byDate<T extends { date: string }>(rows: readonly T[]): Map<string, T> {
  const map = new Map<string, T>();
  for (const row of rows) if (!map.has(row.date)) map.set(row.date, row);
  return map;
}

/**
 * One row per day of the span with the analytics totals (0 where an endpoint has no row for the
 * day) and the `/users` active-user count given per day.
 *
 * @example
 * dailySeries(snapshot, period, new Map([['2026-03-01', 3]]))
 */
export function dailySeries(
  snapshot: Pick<Snapshot, 'tokens' | 'tools' | 'activity' | 'productivity'>,
  span: DayRange,
  activeUsersByDate: ReadonlyMap<string, number>,
): DailyRow[] {
  const tokens = byDate(snapshot.tokens);
  const tools = byDate(snapshot.tools);
  const activity = byDate(snapshot.activity);
  const productivity = byDate(snapshot.productivity);
  return eachDay(span.start, span.end).map((date) => {
    const t = tokens.get(date);
    const tl = tools.get(date);
    const a = activity.get(date);
    const p = productivity.get(date);
    const shares = tl ? dayAutonomyShares(tl.tool_autonomy_level_ratio ?? {}).shares : null;
    let mcp = 0;
    for (const s of tl?.mcp_by_server ?? []) mcp += s.invocations;
    return {
      date,
      hasData: Boolean(t || tl || a || p),
      credits: t?.billable_tokens ?? 0,
      input_tokens: t?.input_tokens ?? 0,
      output_tokens: t?.output_tokens ?? 0,
      cache_read_tokens: t?.cache_read_tokens ?? 0,
      cache_write_tokens: t?.cache_write_tokens ?? 0,
      tool_calls: tl?.tool_calls ?? 0,
      mcp_calls: mcp,
      skill_calls: tl?.skills_invocations ?? 0,
      slash_commands: tl?.slash_commands_invocations ?? 0,
      hooks: tl?.hooks_invocations ?? 0,
      sessions: a?.sessions ?? 0,
      messages: a?.messages ?? 0,
      user_messages: a?.user_messages ?? 0,
      files_created: p?.files_created ?? 0,
      files_edited: p?.files_edited ?? 0,
      git_commits: p?.git_commits ?? 0,
      git_prs_created: p?.git_prs_created ?? 0,
      dau: a?.daily_active_users ?? 0,
      wau: a?.weekly_active_users ?? 0,
      mau_trailing_30d: a?.monthly_active_users ?? 0,
      active_users: activeUsersByDate.get(date) ?? 0,
      auto_high: shares?.auto_high ?? null,
      auto_medium: shares?.auto_medium ?? null,
      auto_low: shares?.auto_low ?? null,
      manual: shares?.manual ?? null,
    };
  });
}
