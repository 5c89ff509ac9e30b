/**
 * The three pagination styles of the API, as {@link PageStyle}s for the one mechanism of pagination.ts:
 * readiness (`startAfter` = last `reportId`; ends on an empty page or one with no new report id),
 * analytics `/users` and v0 listings (a "more" flag and a cursor, in either spelling: our spec writes
 * `has_more` / `next_cursor`, the service's published pages `hasMore` / `nextCursor`).
 * A style never takes a silent guess for the end of a list: a full page without a continuation it
 * recognises is an error, not the last page.
 */
import { PaginationError } from './errors.ts';
import type { PageStyle } from './pagination.ts';

/**
 * Readiness reports: the next cursor is the last `reportId`. The list ends on an empty page or on a
 * page that brings no report id not seen before (a short page is not the end: a server may cap its
 * page below `limit`). Reports seen before are dropped, so overlapping pages give each report once.
 */
export function lastIdStyle<Body, Item>(
  operation: string,
  items: (body: Body) => Item[],
  idOf: (item: Item) => string,
): PageStyle<Body, Item> {
  // Each id with the position of the page that brought it first: walking the list again (a second
  // iteration of the same listing) sees the same pages as new.
  const firstSeenAt = new Map<string, number>();
  return {
    operation,
    items: (body, position) => {
      const fresh: Item[] = [];
      const onThisPage = new Set<string>();
      for (const item of items(body)) {
        const id = idOf(item);
        const at = firstSeenAt.get(id);
        if (onThisPage.has(id) || (at !== undefined && at !== position)) continue;
        firstSeenAt.set(id, position);
        onThisPage.add(id);
        fresh.push(item);
      }
      return fresh;
    },
    nextCursor: (body, fresh) => {
      const all = items(body);
      const last = all[all.length - 1];
      return fresh.length === 0 || last === undefined ? null : idOf(last);
    },
  };
}

/** The continuation a page announces: the "more" flag and cursor as found, and the fields it had. */
export interface Continuation {
  /** The "more" flag, or undefined when the page has none in any spelling the client knows. */
  hasMore: boolean | undefined;
  cursor: string | null | undefined;
  /** Names of the fields of the object the continuation is read from (for error messages). */
  fields: string[];
}

/** The first of `names` that `obj` has (not undefined), so either spelling of a paging field is read. */
export function eitherSpelling(obj: unknown, ...names: string[]): unknown {
  if (obj === null || typeof obj !== 'object') return undefined;
  for (const name of names) {
    const value = (obj as Record<string, unknown>)[name];
    if (value !== undefined) return value;
  }
  return undefined;
}

/** A continuation read from a paging object (`meta` or `pagination`) in either spelling. */
export function continuationOf(paging: unknown): Continuation {
  const hasMore = eitherSpelling(paging, 'has_more', 'hasMore');
  const cursor = eitherSpelling(paging, 'next_cursor', 'nextCursor');
  return {
    hasMore: typeof hasMore === 'boolean' ? hasMore : undefined,
    cursor: typeof cursor === 'string' ? cursor : cursor === null ? null : undefined,
    fields: paging !== null && typeof paging === 'object' ? Object.keys(paging) : [],
  };
}

/**
 * A body that says whether more pages exist and, if so, their cursor. `isFull` tells whether a page
 * holds as much as was asked for: such a page without a recognised continuation cannot be the last
 * one with any certainty, so it raises {@link PaginationError} naming the fields it had.
 */
export function hasMoreStyle<Body, Item>(
  operation: string,
  items: (body: Body) => Item[],
  more: (body: Body) => Continuation,
  isFull: (items: Item[]) => boolean,
): PageStyle<Body, Item> {
  return {
    operation,
    items,
    nextCursor: (body, list) => {
      const { hasMore, cursor, fields } = more(body);
      if (hasMore === undefined && typeof cursor === 'string' && cursor !== '') return cursor;
      if (hasMore === undefined && isFull(list)) {
        throw new PaginationError(
          operation,
          null,
          `a full page came without a continuation the client recognises (has_more/hasMore with next_cursor/nextCursor; the page's paging fields: ${fields.length > 0 ? fields.join(', ') : 'none'}), so the end of the list is unknown; stopping rather than reporting part of it`,
        );
      }
      if (!hasMore) return null;
      if (!cursor)
        throw new PaginationError(operation, null, 'the server said more pages exist but sent no cursor');
      return cursor;
    },
  };
}
