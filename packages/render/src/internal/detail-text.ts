/**
 * Data-quality details (plain JSON of any shape) as readable lines for the report: no raw JSON,
 * `{ name, count }`-like objects as "name (count)", long lists cut with "and N more".
 */
import { formatValue, NOT_AVAILABLE } from '../format.ts';

/** Limits of {@link detailLines}. */
export interface DetailTextLimits {
  /** Most details shown, one line each (default 12). */
  maxLines?: number;
  /** Most items of a nested list shown (default 8). */
  maxItems?: number;
}

const DEFAULT_MAX_LINES = 12;
const DEFAULT_MAX_ITEMS = 8;

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** A number with separators; two decimals when it is not whole. */
function numberText(n: number): string {
  return formatValue(n, Number.isInteger(n) ? 'integer' : 'decimal');
}

/** "and N more" appended to the first `max` items. */
function capped(items: readonly string[], total: number, max: number): string {
  const shown = items.slice(0, max).join(', ');
  return total > max ? `${shown} and ${numberText(total - max)} more` : shown;
}

/**
 * An object of exactly one text field and one number field (`{ name, count }`,
 * `{ client, user_days }`, `{ level, users }`) reads "label (number)"; null for other shapes.
 */
function labelledCount(value: Record<string, unknown>): string | null {
  const entries = Object.entries(value);
  if (entries.length !== 2) return null;
  const label = entries.find(([, v]) => typeof v === 'string');
  const count = entries.find(([, v]) => typeof v === 'number' && Number.isFinite(v));
  if (!label || !count) return null;
  return `${label[1] as string} (${numberText(count[1] as number)})`;
}

/** One value in words: scalars as text, lists comma-separated and capped, objects as `key: value` pairs. */
export function valueText(value: unknown, maxItems = DEFAULT_MAX_ITEMS): string {
  if (value === null || value === undefined) return NOT_AVAILABLE;
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? numberText(value) : NOT_AVAILABLE;
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (Array.isArray(value)) {
    if (value.length === 0) return 'none';
    const items = value.slice(0, maxItems).map((v) => valueText(v, maxItems));
    return capped(items, value.length, maxItems);
  }
  if (isRecord(value)) {
    const pair = labelledCount(value);
    if (pair !== null) return pair;
    return Object.entries(value)
      .map(
        ([k, v]) =>
          `${k}: ${isRecord(v) && labelledCount(v) === null ? `(${valueText(v, maxItems)})` : valueText(v, maxItems)}`,
      )
      .join('; ');
  }
  return String(value);
}

/**
 * The details of a finding as lines: one per detail (at most `maxLines`, then "and N more"), or
 * one comma-separated line when every detail is a plain value.
 *
 * @example
 * detailLines([{ name: 'Linear', spellings: [{ name: 'Linear', count: 1383 }, { name: 'linear', count: 588 }] }])
 * // ['name: Linear; spellings: Linear (1,383), linear (588)']
 */
export function detailLines(details: unknown, limits: DetailTextLimits = {}): string[] {
  if (!Array.isArray(details)) return [];
  const maxLines = limits.maxLines ?? DEFAULT_MAX_LINES;
  const maxItems = limits.maxItems ?? DEFAULT_MAX_ITEMS;
  // A list of plain values (dates, names) reads best as one comma-separated line.
  if (details.every((d) => d === null || typeof d !== 'object')) {
    return details.length ? [valueText(details, maxLines)] : [];
  }
  const lines = details.slice(0, maxLines).map((d) => valueText(d, maxItems));
  if (details.length > maxLines) lines.push(`and ${numberText(details.length - maxLines)} more`);
  return lines;
}
