/**
 * Data-quality findings: each function inspects one aspect of the snapshot and returns a finding,
 * or null when there is nothing to report.
 */

import { type DayRange, eachDay, fromEpochDay, type Snapshot, type ToolsDay } from '@orgreport/api-core';
import type { ColumnTable } from 'arquero';
import type { DataQualityFinding, McpServerRow, ReadinessReportRow } from '../../model.ts';
import { dayAutonomyShares } from './autonomy-mix.ts';
import { byDate } from './daily-series.ts';
import { sumBy } from './sum-by.ts';

/** Largest relative difference allowed between an analytics daily total and the `/users` sum. */
export const USERS_TOTAL_TOLERANCE = 0.005;
/** Largest distance from 1 allowed for the sum of a day's autonomy shares. */
export const MIX_TOLERANCE = 0.01;

/**
 * Days of the span for which an analytics endpoint returned no row.
 *
 * @example
 * missingDays(snapshot, period) // { kind: 'missing_days', count: 2, details: [{ dataset: 'tools', dates: [...] }] }
 */
export function missingDays(
  snapshot: Pick<Snapshot, 'tokens' | 'tools' | 'activity' | 'productivity'>,
  span: DayRange,
): DataQualityFinding | null {
  const days = eachDay(span.start, span.end);
  const missing = new Set<string>();
  const details: Array<{ dataset: string; dates: string[] }> = [];
  for (const dataset of ['tokens', 'tools', 'activity', 'productivity'] as const) {
    const present = byDate(snapshot[dataset] as Array<{ date: string }>);
    const dates = days.filter((d) => !present.has(d));
    for (const d of dates) missing.add(d);
    if (dates.length) details.push({ dataset, dates });
  }
  if (missing.size === 0) return null;
  return {
    kind: 'missing_days',
    message: `${missing.size} day(s) of the period have no data from at least one analytics endpoint; their totals count as 0.`,
    count: missing.size,
    details,
  };
}

/**
 * MCP servers whose name came in several letter cases and were merged.
 *
 * @example
 * mcpCaseMerged(servers) // { kind: 'mcp_case_merged', count: 1, details: [{ name: 'github', spellings: ['github', 'GitHub'] }] }
 */
export function mcpCaseMerged(servers: readonly McpServerRow[]): DataQualityFinding | null {
  const merged = servers.filter((s) => s.spellings.length > 1);
  if (!merged.length) return null;
  return {
    kind: 'mcp_case_merged',
    message: `${merged.length} MCP server name(s) appeared in several letter cases and were merged under the most frequent spelling.`,
    count: merged.length,
    details: merged.map((s) => ({ name: s.name, spellings: s.spellings })),
  };
}

/**
 * Tool names that are parsing artifacts, counted under "(unparseable)".
 *
 * @example
 * unparseableToolNames(3, ['Read"}']) // { kind: 'unparseable_tool_names', count: 3, ... }
 */
export function unparseableToolNames(
  invocations: number,
  names: readonly string[],
): DataQualityFinding | null {
  if (invocations === 0) return null;
  return {
    kind: 'unparseable_tool_names',
    message: `${invocations} tool invocation(s) under ${names.length} name(s) that are not plausible identifiers were counted as "(unparseable)" and left out of the top tools.`,
    count: invocations,
    details: names.map((n) => (n.length > 120 ? `${n.slice(0, 117)}...` : n)),
  };
}

/**
 * Days whose autonomy shares are off by more than 1 % (normalised anyway), days with tool calls
 * but no shares (left out of the weights), and share keys that are not known levels (ignored).
 *
 * @example
 * autonomyMixFindings(periodToolsDays) // [{ kind: 'autonomy_mix_off', count: 1, details: [{ date, sum: 1.03 }] }]
 */
export function autonomyMixFindings(days: readonly ToolsDay[]): DataQualityFinding[] {
  const off: Array<{ date: string; sum: number }> = [];
  const missing: string[] = [];
  const unknown = new Set<string>();
  for (const d of days) {
    const s = dayAutonomyShares(d.tool_autonomy_level_ratio ?? {});
    for (const k of s.unknownKeys) unknown.add(k);
    if (s.shares === null) {
      if (d.tool_calls > 0) missing.push(d.date);
    } else if (Math.abs(s.rawSum - 1) > MIX_TOLERANCE) off.push({ date: d.date, sum: s.rawSum });
  }
  const findings: DataQualityFinding[] = [];
  if (off.length) {
    findings.push({
      kind: 'autonomy_mix_off',
      message: `${off.length} day(s) had autonomy-level shares summing to more than 1 % away from 100 %; they were normalised.`,
      count: off.length,
      details: off,
    });
  }
  if (missing.length) {
    findings.push({
      kind: 'autonomy_mix_missing',
      message: `${missing.length} day(s) with tool calls had no autonomy-level shares and were left out of the autonomy mix.`,
      count: missing.length,
      details: missing,
    });
  }
  if (unknown.size) {
    findings.push({
      kind: 'autonomy_unknown_levels',
      message: `Autonomy shares carried key(s) that are not known levels; they were ignored.`,
      count: unknown.size,
      details: [...unknown].sort(),
    });
  }
  return findings;
}

/**
 * Invalid readiness evaluations (excluded from every score) of the reports given.
 *
 * @example
 * readinessInvalid(scoredReports) // { kind: 'readiness_invalid', count: 1, details: [{ report_id, criterion, ... }] }
 */
export function readinessInvalid(reports: readonly ReadinessReportRow[]): DataQualityFinding | null {
  const details = reports.flatMap((r) =>
    r.criteria
      .filter((c) => c.status === 'invalid')
      .map((c) => ({
        report_id: r.report_id,
        repo_url: r.repo_url,
        criterion: c.criterion,
        numerator: c.numerator,
        denominator: c.denominator,
      })),
  );
  if (!details.length) return null;
  return {
    kind: 'readiness_invalid',
    message: `${details.length} readiness evaluation(s) had a denominator below 1, a negative numerator or a numerator above the denominator, and were excluded.`,
    count: details.length,
    details,
  };
}

/**
 * Criteria absent from the level mapping (they count in scores, not in levels).
 *
 * @example
 * readinessUnmapped(['custom_check'])
 */
export function readinessUnmapped(criteria: readonly string[]): DataQualityFinding | null {
  if (!criteria.length) return null;
  return {
    kind: 'readiness_unmapped',
    message: `${criteria.length} readiness criterion/criteria are missing from the level mapping; they count in scores but in no level.`,
    count: criteria.length,
    details: [...criteria],
  };
}

const COMPARED = [
  ['credits', 'billable_tokens'],
  ['tool_calls', 'tool_calls'],
  ['sessions', 'sessions'],
  ['messages', 'messages'],
  ['user_messages', 'user_messages'],
  ['files_created', 'files_created'],
  ['files_edited', 'files_edited'],
  ['git_commits', 'git_commits'],
  ['git_prs_created', 'git_prs_created'],
] as const;

/**
 * The `/users` rows summed per day (additive fields) with the day's active users (`/users` has
 * one row per user and day).
 *
 * @example
 * usersByDay(periodRows).get('2026-03-02').tool_calls
 */
export function usersByDay(userDays: ColumnTable): Map<string, Record<string, number>> {
  const out = new Map<string, Record<string, number>>();
  // `/users` has one row per user and day, so a day's active rows are its active users.
  const sums = sumBy(userDays, ['day'], ['active', ...COMPARED.map(([, col]) => col)]).rename({
    active: 'active_users',
  });
  for (const row of sums.objects() as Array<Record<string, number>>) out.set(fromEpochDay(row['day']!), row);
  return out;
}

/**
 * Days where an analytics daily total differs from the sum of the `/users` rows by more than 0.5 %
 * of the analytics total (any difference when that total is 0). Days without an analytics row are
 * not compared (they are listed as missing days).
 *
 * @example
 * usersTotalMismatch(daily, usersByDay(periodRows), new Set(['2026-03-01']))
 */
export function usersTotalMismatch(
  daily: ReadonlyArray<Record<string, unknown> & { date: string }>,
  users: ReadonlyMap<string, Record<string, number>>,
  analyticsDates: {
    tokens: ReadonlySet<string>;
    tools: ReadonlySet<string>;
    activity: ReadonlySet<string>;
    productivity: ReadonlySet<string>;
  },
): DataQualityFinding | null {
  const source: Record<string, keyof typeof analyticsDates> = {
    credits: 'tokens',
    tool_calls: 'tools',
    sessions: 'activity',
    messages: 'activity',
    user_messages: 'activity',
    files_created: 'productivity',
    files_edited: 'productivity',
    git_commits: 'productivity',
    git_prs_created: 'productivity',
  };
  const details: Array<{ date: string; metric: string; analytics: number; users: number }> = [];
  for (const day of daily) {
    const u = users.get(day.date);
    for (const [metric, col] of COMPARED) {
      if (!analyticsDates[source[metric]!].has(day.date)) continue;
      const a = Number(day[metric] ?? 0);
      const s = Number(u?.[col] ?? 0);
      if (Math.abs(a - s) > USERS_TOTAL_TOLERANCE * Math.abs(a) || (a === 0 && s !== 0)) {
        details.push({ date: day.date, metric, analytics: a, users: s });
      }
    }
  }
  if (!details.length) return null;
  return {
    kind: 'users_total_mismatch',
    message: `${details.length} daily total(s) differ by more than 0.5 % from the sum of the per-user rows of the same day.`,
    count: details.length,
    details,
  };
}

/**
 * Active users whose primary delegation level is missing or not one of the five known levels.
 *
 * @example
 * delegationUnknown({ '(none)': 2 }) // { kind: 'delegation_unknown', count: 2, ... }
 */
export function delegationUnknown(
  counts: Readonly<Record<string, number>>,
  known: readonly string[],
): DataQualityFinding | null {
  const details = Object.entries(counts)
    .filter(([level, n]) => !known.includes(level) && n > 0)
    .map(([level, users]) => ({ level, users }));
  const count = details.reduce((a, d) => a + d.users, 0);
  if (!count) return null;
  return {
    kind: 'delegation_unknown',
    message: `${count} active user(s) had no known delegation level; they are shown as "other" in the delegation mix.`,
    count,
    details,
  };
}
