/** Query-parameter checks shared by the routes; each throws a 400 {@link HttpProblem} naming the rule. */
import { type DayRange, EARLIEST_DATA_DATE, isIsoDate } from '@orgreport/api-core';
import { badRequest } from './problem.ts';

/** A query object as fastify parses it. */
export type Query = Record<string, string | string[] | undefined>;

/** A single optional string parameter (repeating it is an error). */
export function optionalString(query: Query, name: string): string | undefined {
  const v = query[name];
  if (Array.isArray(v)) throw badRequest(name, v, 'give the parameter once');
  return v;
}

/** The analytics date range: both days required, from 2026-01-14, before today, start not after end. */
export function parseDateRange(query: Query, today: string): DayRange {
  const start = optionalString(query, 'startDate');
  const end = optionalString(query, 'endDate');
  for (const [name, value] of [
    ['startDate', start],
    ['endDate', end],
  ] as const) {
    if (value === undefined || value === '') throw badRequest(name, value, 'required, as YYYY-MM-DD');
    if (!isIsoDate(value)) throw badRequest(name, value, 'expected a real calendar day as YYYY-MM-DD');
    if (value < EARLIEST_DATA_DATE) throw badRequest(name, value, `data starts on ${EARLIEST_DATA_DATE}`);
    if (value >= today)
      throw badRequest(name, value, `data is available up to yesterday (today is ${today})`);
  }
  if ((start as string) > (end as string)) {
    throw badRequest('startDate', start, `must not be after endDate ${end}`);
  }
  return { start: start as string, end: end as string };
}

/** An integer parameter in [min, max] (max may be Infinity), or `fallback` when absent. */
export function parseLimit(query: Query, name: string, min: number, max: number, fallback: number): number {
  const raw = optionalString(query, name);
  if (raw === undefined) return fallback;
  const rule = Number.isFinite(max) ? `an integer from ${min} to ${max}` : `a positive integer`;
  if (!/^\d{1,9}$/.test(raw)) throw badRequest(name, raw, rule);
  const n = Number(raw);
  if (n < min || n > max) throw badRequest(name, raw, rule);
  return n;
}

/** The `group_by` parameter: absent, or the one value the endpoint allows. */
export function parseGroupBy(query: Query, allowed: string | null): string | undefined {
  const v = optionalString(query, 'group_by');
  if (v === undefined) return undefined;
  if (allowed === null) throw badRequest('group_by', v, 'this endpoint does not support group_by');
  if (v !== allowed) throw badRequest('group_by', v, `the only allowed value is "${allowed}"`);
  return v;
}
