/**
 * The three pagination styles of the API, as {@link PageStyle}s for the one mechanism of pagination.ts:
 * readiness (`startAfter` = last `reportId`, ends on an empty or short page), analytics `/users`
 * (`meta.has_more` / `meta.next_cursor`) and v0 listings (`pagination.hasMore` / `pagination.nextCursor`).
 */
import { PaginationError } from './errors.ts';
import type { PageStyle } from './pagination.ts';

/** Readiness reports: the next cursor is the last `reportId`; an empty or short page is the last one. */
export function lastIdStyle<Body, Item>(
  operation: string,
  items: (body: Body) => Item[],
  idOf: (item: Item) => string,
  pageSize: number,
): PageStyle<Body, Item> {
  return {
    operation,
    items,
    nextCursor: (_body, list) => {
      const last = list[list.length - 1];
      return last === undefined || list.length < pageSize ? null : idOf(last);
    },
  };
}

/** A body that says whether more pages exist and, if so, their cursor. */
export function hasMoreStyle<Body, Item>(
  operation: string,
  items: (body: Body) => Item[],
  more: (body: Body) => { hasMore: boolean | undefined; cursor: string | null | undefined },
): PageStyle<Body, Item> {
  return {
    operation,
    items,
    nextCursor: (body) => {
      const { hasMore, cursor } = more(body);
      if (!hasMore) return null;
      if (!cursor)
        throw new PaginationError(operation, null, 'the server said more pages exist but sent no cursor');
      return cursor;
    },
  };
}
