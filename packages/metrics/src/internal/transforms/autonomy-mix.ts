/**
 * The autonomy-level mix: each day's `tool_autonomy_level_ratio` shares normalised to sum to 1, and
 * the mix of a span weighted by each day's tool calls.
 */
import { AUTONOMY_LEVELS, type AutonomyLevel } from '@orgreport/api-core';
import type { AutonomyMix } from '../../model.ts';

/** One day's shares, normalised, with how far the raw shares were from summing to 1. */
export interface DayShares {
  /** Normalised shares of the four known levels; null when the day has none (or they sum to 0). */
  shares: Record<AutonomyLevel, number> | null;
  /** Sum of the raw known-level shares. */
  rawSum: number;
  /** Keys of the raw object that are not known levels (ignored). */
  unknownKeys: string[];
}

/**
 * Normalises a day's `tool_autonomy_level_ratio` over the four known levels.
 *
 * @example
 * dayAutonomyShares({ auto_high: 0.5, auto_medium: 0.5, auto_low: 0.02, manual: 0 }).rawSum // 1.02
 */
export function dayAutonomyShares(ratio: Readonly<Record<string, number>>): DayShares {
  let rawSum = 0;
  for (const level of AUTONOMY_LEVELS) {
    const v = ratio[level];
    if (typeof v === 'number' && Number.isFinite(v) && v > 0) rawSum += v;
  }
  const unknownKeys = Object.keys(ratio).filter((k) => !(AUTONOMY_LEVELS as readonly string[]).includes(k));
  if (!(rawSum > 0)) return { shares: null, rawSum, unknownKeys };
  const shares = {} as Record<AutonomyLevel, number>;
  for (const level of AUTONOMY_LEVELS) {
    const v = ratio[level];
    shares[level] = typeof v === 'number' && Number.isFinite(v) && v > 0 ? v / rawSum : 0;
  }
  return { shares, rawSum, unknownKeys };
}

/**
 * The mix of a span: share(level) = sum(share(level, day) x tool_calls(day)) / sum(tool_calls(day))
 * over the days that have shares; null shares when no such day has a tool call.
 *
 * @example
 * autonomyMix([{ tool_calls: 10, shares: { auto_high: 1, auto_medium: 0, auto_low: 0, manual: 0 } }])
 */
export function autonomyMix(
  days: ReadonlyArray<{ tool_calls: number; shares: Record<AutonomyLevel, number> | null }>,
): AutonomyMix {
  const weighted: Record<AutonomyLevel, number> = { auto_high: 0, auto_medium: 0, auto_low: 0, manual: 0 };
  let weight = 0;
  for (const day of days) {
    if (!day.shares || !(day.tool_calls > 0)) continue;
    weight += day.tool_calls;
    for (const level of AUTONOMY_LEVELS) weighted[level] += day.shares[level] * day.tool_calls;
  }
  if (weight === 0) {
    return { auto_high: null, auto_medium: null, auto_low: null, manual: null, weighted_tool_calls: 0 };
  }
  return {
    auto_high: weighted.auto_high / weight,
    auto_medium: weighted.auto_medium / weight,
    auto_low: weighted.auto_low / weight,
    manual: weighted.manual / weight,
    weighted_tool_calls: weight,
  };
}
