/**
 * A precompiled check of a `/users` page for the common case, about ten times cheaper than the zod
 * parse: it accepts only a page that `analyticsResponseSchema(userDaySchema)` would return unchanged
 * (every defaulted field present, every known field of the right type). Anything else, including
 * every invalid page, goes to zod, which stays the source of truth and of the error messages.
 */
import { z } from 'zod';
import { type AnalyticsResponse, type UserDay, userDaySchema } from '../schemas.ts';

/**
 * Counters of `userDaySchema` that have a default, read from the schema so the two cannot drift:
 * zod would fill in a missing one, so the fast path needs them present.
 */
const DEFAULTED_COUNTS = Object.entries(userDaySchema.shape)
  .filter(([, field]) => field instanceof z.ZodDefault && field.unwrap() instanceof z.ZodNumber)
  .map(([key]) => key);

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** True when `json` is a `/users` page the schema would accept without changing anything. */
export function isPlainUsersPage(json: unknown): json is AnalyticsResponse<UserDay> {
  if (!isObject(json)) return false;
  const { data, meta } = json;
  if (!Array.isArray(data) || !isObject(meta)) return false;
  if (typeof meta.org_id !== 'string' || !isIsoDate(meta.start_date) || !isIsoDate(meta.end_date)) {
    return false;
  }
  for (const flag of [meta.has_more, meta.hasMore]) {
    if (flag !== undefined && typeof flag !== 'boolean') return false;
  }
  for (const cursor of [meta.next_cursor, meta.nextCursor]) {
    if (cursor !== undefined && cursor !== null && typeof cursor !== 'string') return false;
  }
  let lastDate: unknown;
  for (const row of data) {
    if (!isObject(row)) return false;
    // Rows of a page share few dates: test the pattern only when the date changes.
    if (row.date !== lastDate) {
      if (!isIsoDate(row.date)) return false;
      lastDate = row.date;
    }
    if (!isPlainUserDay(row)) return false;
  }
  return true;
}

function isPlainUserDay(row: Record<string, unknown>): boolean {
  if (typeof row.user_id !== 'string') return false;
  if (row.user_email !== null && typeof row.user_email !== 'string') return false;
  if (typeof row.tool_calls !== 'number' || typeof row.billable_tokens !== 'number') return false;
  if (!isOptionalNullable(row.primary_model, 'string')) return false;
  if (!isOptionalNullable(row.primary_model_tier, 'string')) return false;
  if (!isOptionalNullable(row.autonomy_ratio, 'number')) return false;
  if (!isOptionalNullable(row.delegation_level, 'string')) return false;
  for (const key of DEFAULTED_COUNTS) if (typeof row[key] !== 'number') return false;
  const languages = row.languages;
  if (!Array.isArray(languages)) return false;
  for (const language of languages) if (typeof language !== 'string') return false;
  return true;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isIsoDate(value: unknown): boolean {
  return typeof value === 'string' && ISO_DATE.test(value);
}

function isOptionalNullable(value: unknown, type: 'string' | 'number'): boolean {
  return value === undefined || value === null || typeof value === type;
}
