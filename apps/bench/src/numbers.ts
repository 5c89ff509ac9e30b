/** The figures' arithmetic the benches share. */

/** `n` rounded to `digits` decimals, as a number. */
export const round = (n: number, digits = 2): number => Number(n.toFixed(digits));

/** The middle value of `values` (the upper one of an even count). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}
