/**
 * Per-user totals of a span from the `/users` rows: sums, primary model, primary delegation level,
 * autonomy, languages, credit limits and cost.
 */

import type { ColumnTable } from 'arquero';
import type { UserMonthRow } from '../../model.ts';
import { primaryDelegation } from './delegation.ts';
import type { NameOf } from './people-names.ts';
import { columnValues, sumBy, withRatios } from './sum-by.ts';
import type { UserDayData } from './user-days.ts';
import { USER_SUMMED as SUMMED } from './user-week-levels.ts';

/**
 * Each user's primary model over the rows: the model that was the day's primary model on the days
 * with the most credits; ties go to more days, then to the name that sorts first.
 *
 * @example
 * primaryModels(periodRows, data).get(0) // { model: 'vendorA-grand-4.5', tier: 'thinking' }
 */
export function primaryModels(
  userDays: ColumnTable,
  data: Pick<UserDayData, 'models' | 'modelTiers'>,
): Map<number, { model: string; tier: string | null }> {
  const t = sumBy(userDays, ['uid', 'mdl'], ['billable_tokens'], 'days');
  const uids = columnValues(t, 'uid') as ArrayLike<number>;
  const mdls = columnValues(t, 'mdl') as ArrayLike<number>;
  const credits = columnValues(t, 'billable_tokens') as ArrayLike<number>;
  const days = columnValues(t, 'days') as ArrayLike<number>;
  const best = new Map<number, number>();
  for (let i = 0; i < uids.length; i++) {
    const model = data.models[mdls[i]!] ?? null;
    if (model === null) continue;
    const uid = uids[i]!;
    const j = best.get(uid);
    const other = j === undefined ? null : (data.models[mdls[j]!] as string);
    const better =
      j === undefined ||
      credits[i]! > credits[j]! ||
      (credits[i] === credits[j] && (days[i]! > days[j]! || (days[i] === days[j] && model < other!)));
    if (better) best.set(uid, i);
  }
  const out = new Map<number, { model: string; tier: string | null }>();
  for (const [uid, i] of best) {
    const m = mdls[i]!;
    out.set(uid, { model: data.models[m] as string, tier: data.modelTiers[m] ?? null });
  }
  return out;
}

/**
 * Each user's languages, most days first (ties by name).
 *
 * @example
 * userLanguages(periodRows, data).get(0) // ['TypeScript', 'Markdown']
 */
export function userLanguages(
  userDays: ColumnTable,
  data: Pick<UserDayData, 'languageSets'>,
): Map<number, string[]> {
  const t = sumBy(userDays, ['uid', 'lng'], [], 'days');
  const uids = columnValues(t, 'uid') as ArrayLike<number>;
  const lngs = columnValues(t, 'lng') as ArrayLike<number>;
  const days = columnValues(t, 'days') as ArrayLike<number>;
  // Each user's languages with their days, as a short list searched in place (users work in a
  // few languages: a Map per user costs more than the search).
  const perUser = new Map<number, { langs: string[]; days: number[] }>();
  for (let i = 0; i < uids.length; i++) {
    const set = data.languageSets[lngs[i]!] ?? [];
    if (set.length === 0) continue;
    const uid = uids[i]!;
    let user = perUser.get(uid);
    if (!user) {
      user = { langs: [], days: [] };
      perUser.set(uid, user);
    }
    for (const lang of set) {
      const k = user.langs.indexOf(lang);
      if (k < 0) {
        user.langs.push(lang);
        user.days.push(days[i]!);
      } else user.days[k] = user.days[k]! + days[i]!;
    }
  }
  const out = new Map<number, string[]>();
  for (const [uid, user] of perUser) {
    const byDays = user.langs.map((lang, k) => [lang, user.days[k]!] as const);
    out.set(
      uid,
      byDays.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([lang]) => lang),
    );
  }
  return out;
}

/**
 * One row per user of {@link userWeekLevels} rows with `active_days` and the sums of
 * {@link USER_SUMMED}: what the user totals, the active users and the autonomy ratios share.
 *
 * @example
 * userSums(weekLevels) // table of uid, active_days, credits, tool_calls, ...
 */
export function userSums(weekLevels: ColumnTable): ColumnTable {
  return sumBy(weekLevels, ['uid'], ['active_days', ...SUMMED]);
}

export interface UserTotalsOptions {
  pricePerCredit: number | null;
  /** The span's {@link primaryDelegation} when already computed (it is computed otherwise). */
  primary?: ColumnTable;
  /** The span's {@link userSums} when already computed (they are computed otherwise). */
  sums?: ColumnTable;
  /** Credit limit by lower-cased e-mail. */
  creditLimits: ReadonlyMap<string, number>;
  /** A user's name (default: none known). */
  nameOf?: NameOf;
}

/**
 * One row per user with a `/users` row in the span, most credits first: sums and the primary
 * delegation level from the span's {@link userWeekLevels} rows, model and languages from its rows.
 *
 * @example
 * userTotals(weekLevels, periodRows, data, { pricePerCredit: null, creditLimits: new Map() })[0].credits
 */
export function userTotals(
  weekLevels: ColumnTable,
  userDays: ColumnTable,
  data: UserDayData,
  options: UserTotalsOptions,
): UserMonthRow[] {
  if (weekLevels.numRows() === 0) return [];
  const sums = options.sums ?? userSums(weekLevels);
  const models = primaryModels(userDays, data);
  const languages = userLanguages(userDays, data);
  const delegation = new Map<number, string | null>();
  const primary = options.primary ?? primaryDelegation(weekLevels, data.levels);
  const pu = columnValues(primary, 'uid') as ArrayLike<number>;
  const pl = columnValues(primary, 'level') as ArrayLike<string | null>;
  for (let i = 0; i < pu.length; i++) delegation.set(pu[i]!, pl[i] ?? null);
  const autonomy = new Map<number, number>();
  const ratios = withRatios(sums);
  const ru = columnValues(ratios, 'uid') as ArrayLike<number>;
  const rr = columnValues(ratios, 'ratio') as ArrayLike<number>;
  for (let i = 0; i < ru.length; i++) autonomy.set(ru[i]!, rr[i]!);

  const col = (name: string) => columnValues(sums, name) as ArrayLike<number>;
  const uids = col('uid');
  const c = Object.fromEntries(['active_days', ...SUMMED].map((name) => [name, col(name)])) as Record<
    string,
    ArrayLike<number>
  >;
  const rows: UserMonthRow[] = [];
  for (let i = 0; i < uids.length; i++) {
    const uid = uids[i]!;
    const credits = c['billable_tokens']![i]!;
    const email = data.emails[uid] ?? null;
    const limit = email !== null ? (options.creditLimits.get(email.toLowerCase()) ?? null) : null;
    const utilization = limit !== null && limit > 0 ? credits / limit : null;
    // A zero limit allows nothing: any credit is over it.
    const overZero = limit === 0 && credits > 0;
    rows.push({
      user_id: data.userIds[uid]!,
      email,
      name: options.nameOf?.({ id: data.userIds[uid]!, email }) ?? null,
      active_days: c['active_days']![i]!,
      credits,
      tool_calls: c['tool_calls']![i]!,
      sessions: c['sessions']![i]!,
      messages: c['messages']![i]!,
      user_messages: c['user_messages']![i]!,
      files_created: c['files_created']![i]!,
      files_edited: c['files_edited']![i]!,
      git_commits: c['git_commits']![i]!,
      git_prs_created: c['git_prs_created']![i]!,
      mcp_calls: c['mcp_calls']![i]!,
      skill_calls: c['skill_calls']![i]!,
      slash_commands: c['slash_commands']![i]!,
      hooks: c['hooks']![i]!,
      primary_model: models.get(uid)?.model ?? null,
      primary_model_tier: models.get(uid)?.tier ?? null,
      primary_delegation: delegation.get(uid) ?? null,
      autonomy: autonomy.get(uid) ?? null,
      languages: languages.get(uid) ?? [],
      credit_limit: limit,
      limit_utilization: utilization,
      over_80: utilization !== null ? utilization >= 0.8 : overZero,
      over_100: utilization !== null ? utilization >= 1 : overZero,
      // Money in whole cents (a directory's allocation may share them out again, see allocation.ts).
      cost: options.pricePerCredit === null ? null : Math.round(credits * options.pricePerCredit * 100) / 100,
    });
  }
  return rows.sort((a, b) => b.credits - a.credits || (a.user_id < b.user_id ? -1 : 1));
}
