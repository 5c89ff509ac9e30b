/**
 * One pagination mechanism for every listing of the API, modelled on openai-node's `core/pagination.ts`.
 * A list call returns a {@link PagePromise}: `for await` it item by item without awaiting first, await
 * it for the first {@link Page}, or walk `.pages()`. A {@link PageStyle} tells the mechanism where the
 * items and the next cursor are in a body (readiness, analytics `/users`, v0 `pagination`).
 * While a page is being consumed the next one is already on its way (one page of lookahead, never past
 * the last page or `maxItems`); a cursor that repeats, a run of empty pages that claim more, and a
 * list that grows past its bound (`limitItems`, a runaway server) raise {@link PaginationError}.
 */
import { PaginationError } from './errors.ts';
import type { ResponseMeta } from './transport.ts';

/** Where a page's items and the next cursor are in a response body. */
export interface PageStyle<Body, Item> {
  operation: string;
  /** The items of a page; `position` is the page's (0 = first), for styles that drop repeats. */
  items(body: Body, position: number): Item[];
  /** The cursor of the following page, or null when this page is the last one. */
  nextCursor(body: Body, items: Item[]): string | null;
}

/** Fetches the page at `cursor` (undefined for the first page). */
export type PageLoader<Body> = (cursor: string | undefined) => Promise<{ data: Body; meta: ResponseMeta }>;

/** Empty pages in a row that claim more before the list is taken for a runaway. */
export const MAX_EMPTY_PAGES_IN_A_ROW = 3;

interface Chain<Body, Item> {
  style: PageStyle<Body, Item>;
  load: PageLoader<Body>;
  /** Where the caller wants to stop (not an error). */
  maxItems: number | undefined;
  /** Most items the list may hold: beyond it the server is taken for a runaway (an error). */
  limitItems: number;
  /**
   * Each cursor requested so far, with the position (0 = first page) of the page it loaded. One map
   * per chain, so checking a cursor is O(1); asking again for the same position is not a repeat.
   */
  seen: Map<string, number>;
}

/** One page of a listing: its raw items, its parsed body and the response meta. */
export class Page<Item, Body = unknown> implements AsyncIterable<Item> {
  /** The items of this page as the server sent them (all of them, even past `maxItems`). */
  readonly items: Item[];
  /** The parsed response body (`meta`, `pagination` and other envelope fields are here). */
  readonly body: Body;
  /** Status, request id, bytes and attempts of the response. */
  readonly response: ResponseMeta;
  /** The cursor this page was requested with (undefined for the first page). */
  readonly cursor: string | undefined;
  /** The cursor of the next page, or null when this is the last page. */
  readonly nextCursor: string | null;
  /** Items on the pages before this one. */
  readonly itemsBefore: number;
  readonly #chain: Chain<Body, Item>;
  /** 0 for the first page. */
  readonly #position: number;
  /** Empty pages in a row up to and including this one. */
  readonly #emptyRun: number;

  constructor(
    chain: Chain<Body, Item>,
    loaded: { data: Body; meta: ResponseMeta },
    cursor: string | undefined,
    itemsBefore: number,
    position: number,
    emptyBefore = 0,
  ) {
    this.#chain = chain;
    this.body = loaded.data;
    this.response = loaded.meta;
    this.items = chain.style.items(loaded.data, position);
    this.cursor = cursor;
    this.itemsBefore = itemsBefore;
    this.nextCursor = chain.style.nextCursor(loaded.data, this.items);
    this.#position = position;
    this.#emptyRun = this.items.length === 0 ? emptyBefore + 1 : 0;
    this.#checkBounds();
  }

  /** Stops a list that a server keeps alive with empty pages, or that grows past its bound. */
  #checkBounds(): void {
    const { style, limitItems } = this.#chain;
    const total = this.itemsBefore + this.items.length;
    if (total > limitItems) {
      throw new PaginationError(
        style.operation,
        this.cursor ?? null,
        `the list grew past ${limitItems.toLocaleString('en-US')} items, far more than a real organization has; if it really is that large, raise the limit (maxListItems, --max-list-items)`,
      );
    }
    if (this.nextCursor !== null && this.#emptyRun >= MAX_EMPTY_PAGES_IN_A_ROW) {
      throw new PaginationError(
        style.operation,
        this.cursor ?? null,
        `${this.#emptyRun} empty pages in a row each claimed more pages; stopping instead of following them forever`,
      );
    }
  }

  /** True when another page exists and `maxItems` (if any) is not reached yet. */
  hasNextPage(): boolean {
    const max = this.#chain.maxItems;
    if (max !== undefined && this.itemsBefore + this.items.length >= max) return false;
    return this.nextCursor !== null;
  }

  /** Fetches the next page; check {@link hasNextPage} first. Rejects with PaginationError on a repeated cursor. */
  async getNextPage(): Promise<Page<Item, Body>> {
    const next = this.nextCursor;
    const operation = this.#chain.style.operation;
    if (!this.hasNextPage() || next === null) {
      throw new PaginationError(operation, null, 'there is no next page (check hasNextPage() first)');
    }
    const position = this.#position + 1;
    const seenAt = this.#chain.seen.get(next);
    if (seenAt !== undefined && seenAt !== position) {
      throw new PaginationError(
        operation,
        next,
        `the server returned the cursor "${next}" a second time; stopping instead of looping`,
      );
    }
    this.#chain.seen.set(next, position);
    const loaded = await this.#chain.load(next);
    return new Page(
      this.#chain,
      loaded,
      next,
      this.itemsBefore + this.items.length,
      position,
      this.#emptyRun,
    );
  }

  /**
   * This page and every following one. The next page is requested before the current one is
   * yielded, so the server works on it while the caller processes this one.
   */
  async *iterPages(): AsyncGenerator<Page<Item, Body>> {
    let page: Page<Item, Body> = this;
    for (;;) {
      const next = page.hasNextPage() ? page.getNextPage() : undefined;
      // Its failure surfaces at the await below; a caller that stops early must not see it unhandled.
      next?.catch(() => {});
      yield page;
      if (!next) return;
      page = await next;
    }
  }

  /** Every item from this page on, stopping at `maxItems` (counted from the first page). */
  async *[Symbol.asyncIterator](): AsyncGenerator<Item> {
    const max = this.#chain.maxItems ?? Number.POSITIVE_INFINITY;
    for await (const page of this.iterPages()) {
      let n = page.itemsBefore;
      for (const item of page.items) {
        if (n++ >= max) return;
        yield item;
      }
    }
  }
}

/**
 * The result of a list call: awaitable for the first page, async-iterable over every item,
 * with `.pages()` for page-by-page work. Nothing is fetched until it is awaited or iterated.
 */
export class PagePromise<Item, Body = unknown> implements PromiseLike<Page<Item, Body>>, AsyncIterable<Item> {
  readonly #chain: Chain<Body, Item>;
  #first: Promise<Page<Item, Body>> | undefined;

  /**
   * `maxItems`: where the caller wants to stop; `limitItems`: most items the list may hold before it
   * is taken for a runaway server (a {@link PaginationError}).
   */
  constructor(
    style: PageStyle<Body, Item>,
    load: PageLoader<Body>,
    maxItems?: number,
    limitItems: number = Number.POSITIVE_INFINITY,
  ) {
    this.#chain = { style, load, maxItems, limitItems, seen: new Map() };
  }

  #firstPage(): Promise<Page<Item, Body>> {
    this.#first ??= this.#chain
      .load(undefined)
      .then((loaded) => new Page(this.#chain, loaded, undefined, 0, 0));
    return this.#first;
  }

  // biome-ignore lint/suspicious/noThenProperty: a PagePromise is awaitable by design, like openai-node's.
  then<A = Page<Item, Body>, B = never>(
    onFulfilled?: ((page: Page<Item, Body>) => A | PromiseLike<A>) | null,
    onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    return this.#firstPage().then(onFulfilled, onRejected);
  }

  catch<B = never>(
    onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<Page<Item, Body> | B> {
    return this.#firstPage().catch(onRejected);
  }

  finally(onFinally?: (() => void) | null): Promise<Page<Item, Body>> {
    return this.#firstPage().finally(onFinally);
  }

  /** Every page, with one page of lookahead; stops once `maxItems` items have been delivered. */
  async *pages(): AsyncGenerator<Page<Item, Body>> {
    yield* (await this.#firstPage()).iterPages();
  }

  /** Every item of every page, up to `maxItems`. */
  async *[Symbol.asyncIterator](): AsyncGenerator<Item> {
    if (this.#chain.maxItems === 0) return;
    yield* await this.#firstPage();
  }

  /** Every item in one array (up to `maxItems`); prefer iterating for large listings. */
  async toArray(): Promise<Item[]> {
    const out: Item[] = [];
    for await (const item of this) out.push(item);
    return out;
  }
}
