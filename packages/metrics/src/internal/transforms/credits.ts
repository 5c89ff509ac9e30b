/**
 * Credits by model and by tier, from the `/tokens` days' `by_model` breakdowns.
 */
import { MODEL_TIERS, type TokensDay } from '@orgreport/api-core';
import * as aq from 'arquero';
import type { ModelCreditsRow, TierCreditsRow } from '../../model.ts';
import { shareCents, toCents } from './attribution.ts';

/** credits x price, or null without a price. */
export function costOf(credits: number, pricePerCredit: number | null): number | null {
  return pricePerCredit === null ? null : credits * pricePerCredit;
}

/**
 * The rows' costs in whole cents that add up to their credits' cost rounded once (the
 * largest-remainder method, as the chargeback shares money out), so that a table of them, and the
 * tiers summed from them, add up to the bill to the cent. Without a price, the rows as they are.
 *
 * @example
 * inCents([{ credits: 1 }, { credits: 1 }, { credits: 1 }], 1) // costs 1.00, 1.00, 1.00
 */
export function inCents<Row extends { credits: number; cost: number | null }>(
  rows: Row[],
  pricePerCredit: number | null,
): Row[] {
  if (pricePerCredit === null || rows.length === 0) return rows;
  const credits = rows.reduce((a, r) => a + r.credits, 0);
  const cents = shareCents(
    toCents(credits * pricePerCredit),
    rows.map((r) => r.credits),
  );
  return rows.map((r, i) => ({ ...r, cost: cents[i]! / 100 }));
}

/**
 * Credits, input and output tokens per model over the days, largest first, with their share of
 * the days' total credits and, with a price, their cost.
 *
 * @example
 * creditsByModel(days, null)[0] // { model_id: 'vendorA-grand-4.5', model_tier: 'thinking', credits: 900, ... }
 */
export function creditsByModel(days: readonly TokensDay[], pricePerCredit: number | null): ModelCreditsRow[] {
  const items = days.flatMap((d) => d.by_model ?? []);
  if (items.length === 0) return [];
  let total = 0;
  for (const d of days) total += d.billable_tokens;
  const table = aq
    .from(items.map((m) => ({ ...m, model_tier: m.model_tier ?? 'unknown' })))
    .groupby('model_id', 'model_tier')
    .rollup({
      credits: aq.op.sum('billable_tokens'),
      input_tokens: aq.op.sum('input_tokens'),
      output_tokens: aq.op.sum('output_tokens'),
    })
    .orderby(aq.desc('credits'), 'model_id');
  const rows = (table.objects() as Array<Record<string, unknown>>).map((row) => {
    const credits = Number(row['credits']);
    return {
      model_id: String(row['model_id']),
      model_tier: String(row['model_tier']),
      credits,
      input_tokens: Number(row['input_tokens']),
      output_tokens: Number(row['output_tokens']),
      share: total > 0 ? credits / total : null,
      cost: costOf(credits, pricePerCredit),
    };
  });
  return inCents(rows, pricePerCredit);
}

/**
 * Credits per tier (`standard` and `thinking` always listed, others as they occur), largest first.
 *
 * @example
 * creditsByTier(creditsByModel(days, null), null) // [{ tier: 'thinking', credits: 900, share: 0.9, cost: null }, ...]
 */
export function creditsByTier(
  byModel: readonly ModelCreditsRow[],
  pricePerCredit: number | null,
): TierCreditsRow[] {
  const sums = new Map<string, number>(MODEL_TIERS.map((tier) => [tier, 0]));
  // A tier's cost is its models' cents: the two tables add up to the same bill.
  const cents = new Map<string, number>();
  let total = 0;
  for (const m of byModel) {
    sums.set(m.model_tier, (sums.get(m.model_tier) ?? 0) + m.credits);
    if (m.cost !== null) cents.set(m.model_tier, (cents.get(m.model_tier) ?? 0) + Math.round(m.cost * 100));
    total += m.credits;
  }
  return [...sums]
    .map(([tier, credits]) => ({
      tier,
      credits,
      share: total > 0 ? credits / total : null,
      cost: pricePerCredit === null ? null : (cents.get(tier) ?? 0) / 100,
    }))
    .sort((a, b) => b.credits - a.credits || (a.tier < b.tier ? -1 : 1));
}
