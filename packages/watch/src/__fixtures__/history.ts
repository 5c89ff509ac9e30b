/** Small hand-made histories for the rules' tests. */
import { eachDay, isoWeekday } from '@orgreport/api-core/dates';
import { DEFAULT_RULES } from '../defaults.ts';
import type { SettingChange, UserCredits, WatchHistory, WatchRules } from '../types.ts';

/** A history with the given parts; the organization's days are the sums of the user days unless given. */
export function historyOf(parts: Partial<WatchHistory> & { held: WatchHistory['held'] }): WatchHistory {
  const userDays = parts.userDays ?? [];
  const orgDays =
    parts.orgDays ??
    parts.held
      .flatMap((r) => eachDay(r.start, r.end))
      .map((date) => ({
        date,
        credits: userDays.filter((u) => u.date === date).reduce((s, u) => s + u.credits, 0),
      }));
  return {
    orgId: 'org_test',
    controls: [],
    syncRuns: [],
    limits: [],
    ...parts,
    userDays,
    orgDays,
  };
}

/** A user's rows over a span: `weekday` credits Monday to Friday, `weekend` on Saturday and Sunday (none when 0). */
export function userRows(
  email: string,
  start: string,
  end: string,
  weekday: number,
  weekend = 0,
): UserCredits[] {
  return eachDay(start, end).flatMap((date) => {
    const credits = isoWeekday(date) >= 6 ? weekend : weekday;
    return credits > 0 ? [{ date, userId: `id-${email}`, email, credits }] : [];
  });
}

/** The default rules with some parts replaced. */
export function rulesWith(change: (r: WatchRules) => void): WatchRules {
  const r = structuredClone(DEFAULT_RULES);
  change(r);
  return r;
}

/** A settings diff of top-level keys, as the report's would give it; `security` for the listed keys. */
export function topLevelDiff(security: ReadonlySet<string>) {
  return (before: unknown, after: unknown): SettingChange[] => {
    const a = (before ?? {}) as Record<string, unknown>;
    const b = (after ?? {}) as Record<string, unknown>;
    return [...new Set([...Object.keys(a), ...Object.keys(b)])]
      .sort()
      .filter((k) => JSON.stringify(a[k]) !== JSON.stringify(b[k]))
      .map((k) => ({
        path: k,
        before: a[k] === undefined ? null : JSON.stringify(a[k]),
        after: b[k] === undefined ? null : JSON.stringify(b[k]),
        security: security.has(k),
      }));
  };
}
