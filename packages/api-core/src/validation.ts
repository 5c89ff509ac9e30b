/**
 * Checks of request parameters before anything is sent. Each failure is a {@link ValidationError}
 * that names the parameter, the value and the rule.
 */
import { z } from 'zod';
import {
  type Clock,
  DateInputError,
  EARLIEST_DATA_DATE,
  type IsoDate,
  parseIsoDate,
  utcDay,
} from './dates.ts';
import { ValidationError } from './errors.ts';

/** A day range of an analytics request. */
export interface DateRangeParams {
  /** First day, `YYYY-MM-DD` (UTC), not before 2026-01-14. */
  startDate: IsoDate;
  /** Last day, `YYYY-MM-DD` (UTC), before today. */
  endDate: IsoDate;
}

/** Checks one day, turning the date utility's error into a {@link ValidationError}. */
export function checkDay(value: unknown, parameter: string): IsoDate {
  try {
    return parseIsoDate(value, parameter);
  } catch (error) {
    if (error instanceof DateInputError) {
      throw new ValidationError(error.parameter, error.value, error.rule, { cause: error });
    }
    throw error;
  }
}

/**
 * Checks an analytics day range: real days, `startDate <= endDate`, `startDate` not before
 * {@link EARLIEST_DATA_DATE} and, when a clock is given, `endDate` before today in UTC.
 */
export function checkDateRange(params: DateRangeParams, now: Clock | undefined): void {
  if (!params || typeof params !== 'object') {
    throw new ValidationError('params', params, 'expected an object with startDate and endDate');
  }
  const start = checkDay(params.startDate, 'startDate');
  const end = checkDay(params.endDate, 'endDate');
  if (start < EARLIEST_DATA_DATE) {
    throw new ValidationError('startDate', start, `analytics data starts on ${EARLIEST_DATA_DATE}`);
  }
  if (start > end) {
    throw new ValidationError('startDate', start, `must not be after endDate (${end})`);
  }
  if (now) {
    const today = utcDay(now());
    if (end >= today) {
      throw new ValidationError(
        'endDate',
        end,
        `must be before today in UTC (${today}); data is available up to yesterday`,
      );
    }
  }
}

/** Checks an optional integer in `min..max` (inclusive; `max` may be Infinity). */
export function checkIntegerRange(
  value: unknown,
  parameter: string,
  min: number,
  max: number,
): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    const rule =
      max === Number.POSITIVE_INFINITY ? `an integer >= ${min}` : `an integer from ${min} to ${max}`;
    throw new ValidationError(parameter, value, `expected ${rule}`);
  }
  return value;
}

/** Checks an optional `group_by` value against the one value the endpoint allows. */
export function checkGroupBy<const A extends string>(
  value: unknown,
  allowed: A,
  endpoint: string,
): A | undefined {
  if (value === undefined) return undefined;
  if (value !== allowed) {
    throw new ValidationError('groupBy', value, `${endpoint} can only be grouped by "${allowed}"`);
  }
  return allowed;
}

/** Rejects a `group_by` on an endpoint that cannot be grouped. */
export function checkNotGrouped(params: object, endpoint: string): void {
  const value =
    (params as { groupBy?: unknown; group_by?: unknown }).groupBy ??
    (params as { group_by?: unknown }).group_by;
  if (value !== undefined) throw new ValidationError('groupBy', value, `${endpoint} cannot be grouped`);
}

/** Checks a required, non-empty string (ids). */
export function checkNonEmptyString(value: unknown, parameter: string): string {
  if (typeof value !== 'string' || value.length === 0) {
    throw new ValidationError(parameter, value, 'expected a non-empty string');
  }
  return value;
}

/** Checks an optional string's length in `min..max` characters. */
export function checkLength(value: unknown, parameter: string, min: number, max: number): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.length < min || value.length > max) {
    throw new ValidationError(parameter, value, `expected a string of ${min} to ${max} characters`);
  }
  return value;
}

const emailSchema = z.email();

/** True when `value` is a well-formed e-mail address. */
export function isEmail(value: unknown): value is string {
  return typeof value === 'string' && emailSchema.safeParse(value).success;
}

/** Parses `value` with a zod schema, turning the first issue into a {@link ValidationError}. */
export function checkWithSchema<T>(schema: z.ZodType<T>, value: unknown, parameter: string): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const path = [parameter, ...(issue?.path ?? []).map(String)].join('.');
  let at: unknown = value;
  for (const key of issue?.path ?? []) at = (at as Record<PropertyKey, unknown> | undefined)?.[key];
  throw new ValidationError(path, at, issue?.message ?? 'invalid');
}
