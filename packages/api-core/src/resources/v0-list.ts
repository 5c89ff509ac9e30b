/**
 * The v0 listings (control history, organization users): `limit` and `cursor` in the query, and
 * `pagination.hasMore` / `pagination.nextCursor` in the body (snake_case spellings accepted too).
 */
import type { z } from 'zod';
import { continuationOf, hasMoreStyle } from '../page-styles.ts';
import { PagePromise } from '../pagination.ts';
import type { V0Pagination } from '../schemas.ts';
import type { RequestOptions } from '../transport.ts';
import { checkIntegerRange } from '../validation.ts';
import type { ClientContext, Listing } from './context.ts';

/** Items per page of the v0 listings when `limit` is not given (the maximum, for fewer requests). */
export const DEFAULT_V0_PAGE_SIZE = 100;

export interface V0ListParams {
  /** Items per page, 1 to 100 (default 100). */
  limit?: number;
  /** Stop after this many items in total, without fetching further pages. */
  maxItems?: number;
}

/** One v0 listing: the operation's name, its path, the schema of a page and where its items are. */
export interface V0Listing<Body extends { pagination?: V0Pagination | undefined }, Item> {
  operation: string;
  listing: Listing;
  path: string;
  schema: z.ZodType<Body>;
  items: (body: Body) => Item[];
}

/** Every item of a v0 listing, page by page (checks `limit` and `maxItems` before sending). */
export function listV0<Body extends { pagination?: V0Pagination | undefined }, Item>(
  ctx: ClientContext,
  listing: V0Listing<Body, Item>,
  params: V0ListParams,
  options: RequestOptions | undefined,
): PagePromise<Item, Body> {
  const limit = checkIntegerRange(params.limit, 'limit', 1, 100) ?? DEFAULT_V0_PAGE_SIZE;
  const maxItems = checkIntegerRange(params.maxItems, 'maxItems', 0, Number.POSITIVE_INFINITY);
  const { operation, path, schema } = listing;
  return new PagePromise(
    hasMoreStyle(
      operation,
      listing.items,
      (b) => continuationOf(b.pagination),
      (items) => items.length >= limit,
    ),
    (cursor) =>
      ctx.transport.request({
        operation,
        method: 'GET',
        host: 'api',
        path,
        query: { limit, cursor },
        schema,
        retry: 'idempotent',
        options,
      }),
    maxItems,
    ctx.listLimit(listing.listing),
  );
}
