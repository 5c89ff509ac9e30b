/**
 * Spans of days (the period, the comparison period, an ISO week) and small numeric helpers shared
 * by the transforms.
 */
import type { DayRange } from '@orgreport/api-core';

/** A labelled span of whole UTC days, both ends included. */
export interface Span extends DayRange {
  /** `YYYY-MM` for a month, `YYYY-Www` for a week. */
  label: string;
}

/** True when `date` (YYYY-MM-DD) lies in the span. */
export function inSpan(date: string, span: DayRange): boolean {
  return date >= span.start && date <= span.end;
}

/** A finite number, or null for undefined, null, NaN and infinities (the model never holds NaN). */
export function finiteOrNull(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/** `numerator / denominator`, or null when the denominator is 0 (or either side is not a finite number). */
export function ratioOrNull(numerator: number | null, denominator: number | null): number | null {
  if (numerator === null || denominator === null || denominator === 0) return null;
  return finiteOrNull(numerator / denominator);
}

/** Milliseconds since the epoch of the end of a day (the next day's midnight, exclusive). */
export function endOfDayMs(date: string): number {
  return Date.parse(`${date}T00:00:00.000Z`) + 86_400_000;
}

/**
 * A row (or the params object) as arquero passes it to a table expression: the numeric columns
 * and parameters this package computes with. Expressions are compiled from their source by arquero,
 * so they may only use these fields and operators, never call a helper.
 */
export type Row = Readonly<
  Record<
    | 'uid'
    | 'day'
    | 'week'
    | 'lvl'
    | 'mdl'
    | 'lng'
    | 'k'
    | 'active'
    | 'active_days'
    | 'tool_calls'
    | 'user_messages'
    | 'messages'
    | 'sessions'
    | 's'
    | 'e'
    | 'w'
    | 'L'
    | 'M'
    | 'S'
    | 'monday'
    | 'wk'
    | 'base',
    number
  >
>;
