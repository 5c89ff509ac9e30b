/** Numbers given as text (flags, settings): each error names where the value came from and the value. */
import { UsageError } from '../errors.ts';

/** A positive whole number, or undefined when the flag is absent. */
export function positiveInteger(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (value.trim() === '' || !Number.isInteger(n) || n <= 0) {
    throw new UsageError(`${flag}: expected a positive whole number (got ${JSON.stringify(value)})`);
  }
  return n;
}

/** A number from 0 to `max`, or undefined when the flag is absent. */
export function nonNegativeNumber(
  value: string | undefined,
  flag: string,
  max = Number.POSITIVE_INFINITY,
): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < 0 || n > max) {
    const range = Number.isFinite(max) ? ` to ${max}` : '';
    throw new UsageError(`${flag}: expected a number from 0${range} (got ${JSON.stringify(value)})`);
  }
  return n;
}
