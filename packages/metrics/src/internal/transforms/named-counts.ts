/**
 * Named counts: summing `{name, count}` items over days, merging spellings that differ in case,
 * and cutting top lists.
 */
import type { NamedCount } from '../../model.ts';

/**
 * Sums counts by name.
 *
 * @example
 * sumByName([{ name: 'a', count: 1 }, { name: 'a', count: 2 }]) // Map { 'a' => 3 }
 */
export function sumByName(items: Iterable<{ name: string; count: number }>): Map<string, number> {
  const sums = new Map<string, number>();
  for (const { name, count } of items) sums.set(name, (sums.get(name) ?? 0) + count);
  return sums;
}

/** Largest count first, then name (so equal counts list in a stable order). */
export function byCountThenName(
  a: { name: string; count: number },
  b: { name: string; count: number },
): number {
  return b.count - a.count || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
}

/**
 * Named counts sorted largest first with their share of `total`, cut to `limit` when given.
 *
 * @example
 * rankNamedCounts(new Map([['a', 3], ['b', 1]]), 4) // [{ name: 'a', count: 3, share: 0.75 }, ...]
 */
export function rankNamedCounts(
  sums: ReadonlyMap<string, number>,
  total: number,
  limit?: number,
): NamedCount[] {
  const rows = [...sums]
    .map(([name, count]) => ({ name, count, share: total > 0 ? count / total : null }))
    .sort(byCountThenName);
  return limit === undefined ? rows : rows.slice(0, limit);
}

/** A name merged from spellings that differ only in letter case. */
export interface MergedName {
  name: string;
  count: number;
  /** Every spelling with its count, most frequent first. */
  spellings: Array<{ name: string; count: number }>;
}

/**
 * Merges names that differ only in letter case; each group is shown under its most frequent
 * spelling (ties: the spelling that sorts first).
 *
 * @example
 * mergeCaseVariants(new Map([['github', 5], ['GitHub', 2]])) // [{ name: 'github', count: 7, spellings: [...] }]
 */
export function mergeCaseVariants(
  sums: ReadonlyMap<string, number>,
  keyOf: (name: string) => string = (name) => name.toLowerCase(),
): MergedName[] {
  const groups = new Map<string, Array<{ name: string; count: number }>>();
  for (const [name, count] of sums) {
    const key = keyOf(name);
    const group = groups.get(key);
    if (group) group.push({ name, count });
    else groups.set(key, [{ name, count }]);
  }
  return [...groups.values()]
    .map((spellings) => {
      spellings.sort(byCountThenName);
      let count = 0;
      for (const s of spellings) count += s.count;
      return { name: spellings[0]!.name, count, spellings };
    })
    .sort(byCountThenName);
}
