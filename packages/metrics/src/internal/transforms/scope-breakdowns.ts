/**
 * The breakdowns a scope's `/users` rows carry, where the organization's come from the analytics
 * endpoints: credits by primary model and tier (a day's credits go to that day's primary model),
 * and languages worked in (user-days per language). What the rows do not carry (tokens by kind,
 * tools by name, DAU by client, files by extension) is the organization's alone.
 */
import type { ColumnTable } from 'arquero';
import type { ModelCreditsRow, NamedCount } from '../../model.ts';
import { costOf, inCents } from './credits.ts';
import { rankNamedCounts } from './named-counts.ts';
import { columnValues, rowsWhere, sumBy } from './sum-by.ts';
import type { UserDayData } from './user-days.ts';

/**
 * Credits per primary model of the rows: each user-day's credits to that day's primary model (its
 * tier as the rows give it), largest first, with their share of the rows' credits; no tokens.
 *
 * @example
 * creditsByPrimaryModel(periodRows, data, null)[0] // { model_id: 'vendorA-grand-4.5', credits: 900, input_tokens: null, ... }
 */
export function creditsByPrimaryModel(
  rows: ColumnTable,
  data: Pick<UserDayData, 'models' | 'modelTiers'>,
  pricePerCredit: number | null,
): ModelCreditsRow[] {
  const t = sumBy(rows, ['mdl'], ['billable_tokens']);
  const codes = columnValues(t, 'mdl') as ArrayLike<number>;
  const credits = columnValues(t, 'billable_tokens') as ArrayLike<number>;
  let total = 0;
  for (let i = 0; i < credits.length; i++) total += credits[i]!;
  const out: ModelCreditsRow[] = [];
  for (let i = 0; i < codes.length; i++) {
    const c = credits[i]!;
    if (c === 0) continue;
    out.push({
      model_id: data.models[codes[i]!] ?? 'unknown',
      model_tier: data.modelTiers[codes[i]!] ?? 'unknown',
      credits: c,
      input_tokens: null,
      output_tokens: null,
      share: total > 0 ? c / total : null,
      cost: costOf(c, pricePerCredit),
    });
  }
  return inCents(
    out.sort((a, b) => b.credits - a.credits || (a.model_id < b.model_id ? -1 : 1)),
    pricePerCredit,
  );
}

/**
 * Languages worked in over the rows' active user-days: each language counts the user-days that
 * name it, largest first, with its share of all such counts.
 *
 * @example
 * languageUserDays(periodRows, data) // [{ name: 'TypeScript', count: 120, share: 0.6 }, ...]
 */
export function languageUserDays(rows: ColumnTable, data: Pick<UserDayData, 'languageSets'>): NamedCount[] {
  const t = sumBy(
    rowsWhere(rows, 'active', (v) => v === 1),
    ['lng'],
    [],
    'days',
  );
  const codes = columnValues(t, 'lng') as ArrayLike<number>;
  const days = columnValues(t, 'days') as ArrayLike<number>;
  const sums = new Map<string, number>();
  let total = 0;
  for (let i = 0; i < codes.length; i++) {
    for (const language of data.languageSets[codes[i]!] ?? []) {
      sums.set(language, (sums.get(language) ?? 0) + days[i]!);
      total += days[i]!;
    }
  }
  return rankNamedCounts(sums, total);
}
