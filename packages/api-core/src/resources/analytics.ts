/**
 * Usage analytics: `GET {base_url}/api/v1/analytics/{tokens,tools,activity,productivity,users}`.
 * The day endpoints return typed ungrouped rows, or grouped rows when `groupBy` is given (the
 * overloads make the row type follow `groupBy`); `/users` is paged by `meta.next_cursor`.
 */
import type { z } from 'zod';
import { type BodyFilter, dropJsonMembers } from '../json-member-filter.ts';
import { continuationOf, hasMoreStyle } from '../page-styles.ts';
import { PagePromise } from '../pagination.ts';
import {
  type ActivityByClientRow,
  type ActivityDay,
  type AnalyticsMeta,
  type AnalyticsResponse,
  activityByClientRowSchema,
  activityDaySchema,
  analyticsResponseSchema,
  type ProductivityDay,
  productivityDaySchema,
  type TokensByModelRow,
  type TokensDay,
  type ToolsByNameRow,
  type ToolsDay,
  tokensByModelRowSchema,
  tokensDaySchema,
  toolsByNameRowSchema,
  toolsDaySchema,
  type UserDay,
  userDaySchema,
} from '../schemas.ts';
import type { RequestOptions, ResponseMeta } from '../transport.ts';
import {
  checkDateRange,
  checkGroupBy,
  checkIntegerRange,
  checkNotGrouped,
  type DateRangeParams,
} from '../validation.ts';
import type { ClientContext } from './context.ts';
import { isPlainUsersPage } from './user-day-check.ts';

/** Parameters of `/tokens`, `/tools` and `/activity`; `groupBy` must be the endpoint's one value. */
export interface GroupableParams<G extends string> extends DateRangeParams {
  groupBy?: G | undefined;
}

/** Parameters of ungrouped `/tokens`. */
export interface TokensParams extends DateRangeParams {
  groupBy?: undefined;
  /**
   * `false` drops each day's `by_user` while the body streams in: the largest response of the API
   * (about 6 KiB per user per day) is then never held whole, and the days come without `by_user`.
   * Default true.
   */
  byUser?: boolean | undefined;
}

/** Parameters of `/users`. */
export interface AnalyticsUsersParams extends DateRangeParams {
  /** Users per page, 1 to 100 (default 100, to make few requests). */
  limit?: number;
  /** Stop after this many rows in total, without fetching further pages. */
  maxItems?: number;
}

/** Rows of a day endpoint with the envelope's `meta` and the response meta. */
export interface AnalyticsResult<Row> {
  data: Row[];
  meta: AnalyticsMeta;
  response: ResponseMeta;
}

/** Distinct `user_id`s of a page's rows (rows of one user come together, so this is cheap). */
function distinctUsers(rows: readonly UserDay[]): number {
  let n = 0;
  let last: string | undefined;
  const seen = new Set<string>();
  for (const row of rows) {
    if (row.user_id === last) continue;
    last = row.user_id;
    if (!seen.has(last)) {
      seen.add(last);
      n++;
    }
  }
  return n;
}

/** Rows of `/users` asked for per page when `limit` is not given. */
export const DEFAULT_ANALYTICS_USERS_PAGE_SIZE = 100;

type Ungrouped = { groupBy?: undefined };

const schemas = {
  tokens: analyticsResponseSchema(tokensDaySchema),
  tokensByModel: analyticsResponseSchema(tokensByModelRowSchema),
  tools: analyticsResponseSchema(toolsDaySchema),
  toolsByName: analyticsResponseSchema(toolsByNameRowSchema),
  activity: analyticsResponseSchema(activityDaySchema),
  activityByClient: analyticsResponseSchema(activityByClientRowSchema),
  productivity: analyticsResponseSchema(productivityDaySchema),
  users: analyticsResponseSchema(userDaySchema),
};

/** The `analytics` resource of {@link OrgClient}. Needs a key of a Manager or Owner. */
export class Analytics {
  constructor(private readonly ctx: ClientContext) {}

  /**
   * Standard credits per day (`/tokens`), or per model per day with `groupBy: 'model'`.
   *
   * @example
   * const { data } = await client.analytics.tokens({ startDate: '2026-10-01', endDate: '2026-10-31' });
   */
  tokens(params: TokensParams, options?: RequestOptions): Promise<AnalyticsResult<TokensDay>>;
  tokens(
    params: DateRangeParams & { groupBy: 'model' },
    options?: RequestOptions,
  ): Promise<AnalyticsResult<TokensByModelRow>>;
  tokens(
    params: GroupableParams<'model'> & Pick<TokensParams, 'byUser'>,
    options?: RequestOptions,
  ): Promise<AnalyticsResult<TokensDay | TokensByModelRow>>;
  tokens(
    params: GroupableParams<'model'> & Pick<TokensParams, 'byUser'>,
    options?: RequestOptions,
  ): Promise<AnalyticsResult<TokensDay | TokensByModelRow>> {
    const groupBy = this.#check(params, 'model', '/tokens');
    const dropByUser = !groupBy && params.byUser === false;
    return this.#days(
      'analytics.tokens',
      '/tokens',
      params,
      groupBy,
      groupBy ? schemas.tokensByModel : schemas.tokens,
      options,
      dropByUser ? () => dropJsonMembers('by_user') : undefined,
    );
  }

  /** Tool calls per day (`/tools`), or per tool per day with `groupBy: 'tool_name'`. */
  tools(params: DateRangeParams & Ungrouped, options?: RequestOptions): Promise<AnalyticsResult<ToolsDay>>;
  tools(
    params: DateRangeParams & { groupBy: 'tool_name' },
    options?: RequestOptions,
  ): Promise<AnalyticsResult<ToolsByNameRow>>;
  tools(
    params: GroupableParams<'tool_name'>,
    options?: RequestOptions,
  ): Promise<AnalyticsResult<ToolsDay | ToolsByNameRow>>;
  tools(
    params: GroupableParams<'tool_name'>,
    options?: RequestOptions,
  ): Promise<AnalyticsResult<ToolsDay | ToolsByNameRow>> {
    const groupBy = this.#check(params, 'tool_name', '/tools');
    return this.#days(
      'analytics.tools',
      '/tools',
      params,
      groupBy,
      groupBy ? schemas.toolsByName : schemas.tools,
      options,
    );
  }

  /** Active users, sessions and messages per day (`/activity`), or per client with `groupBy: 'client'`. */
  activity(
    params: DateRangeParams & Ungrouped,
    options?: RequestOptions,
  ): Promise<AnalyticsResult<ActivityDay>>;
  activity(
    params: DateRangeParams & { groupBy: 'client' },
    options?: RequestOptions,
  ): Promise<AnalyticsResult<ActivityByClientRow>>;
  activity(
    params: GroupableParams<'client'>,
    options?: RequestOptions,
  ): Promise<AnalyticsResult<ActivityDay | ActivityByClientRow>>;
  activity(
    params: GroupableParams<'client'>,
    options?: RequestOptions,
  ): Promise<AnalyticsResult<ActivityDay | ActivityByClientRow>> {
    const groupBy = this.#check(params, 'client', '/activity');
    return this.#days(
      'analytics.activity',
      '/activity',
      params,
      groupBy,
      groupBy ? schemas.activityByClient : schemas.activity,
      options,
    );
  }

  /** Files and git activity per day (`/productivity`; cannot be grouped). */
  productivity(params: DateRangeParams, options?: RequestOptions): Promise<AnalyticsResult<ProductivityDay>> {
    checkDateRange(params, this.ctx.now);
    checkNotGrouped(params, '/productivity');
    return this.#days(
      'analytics.productivity',
      '/productivity',
      params,
      undefined,
      schemas.productivity,
      options,
    );
  }

  /**
   * Per-user per-day rows (`/users`), paged by `meta.next_cursor` (or `meta.nextCursor`, as the
   * service's published pages write it); each page is parsed on its own. A page of `limit` users that
   * carries no continuation in either spelling raises a PaginationError instead of ending the list.
   *
   * @example
   * for await (const page of client.analytics.users({ startDate, endDate }).pages()) builder.push(page.items);
   */
  users(
    params: AnalyticsUsersParams,
    options?: RequestOptions,
  ): PagePromise<UserDay, AnalyticsResponse<UserDay>> {
    checkDateRange(params, this.ctx.now);
    checkNotGrouped(params, '/users');
    const limit = checkIntegerRange(params.limit, 'limit', 1, 100) ?? DEFAULT_ANALYTICS_USERS_PAGE_SIZE;
    const maxItems = checkIntegerRange(params.maxItems, 'maxItems', 0, Number.POSITIVE_INFINITY);
    const operation = 'analytics.users';
    return new PagePromise(
      hasMoreStyle(
        operation,
        (b: AnalyticsResponse<UserDay>) => b.data,
        (b) => continuationOf(b.meta),
        // A page holds every day row of up to `limit` users: it is full when it has `limit` users.
        (rows) => distinctUsers(rows) >= limit,
      ),
      (cursor) =>
        this.ctx.transport.request({
          operation,
          method: 'GET',
          host: 'api',
          path: '/api/v1/analytics/users',
          query: { startDate: params.startDate, endDate: params.endDate, limit, cursor },
          schema: schemas.users as z.ZodType<AnalyticsResponse<UserDay>>,
          fastCheck: isPlainUsersPage,
          retry: 'idempotent',
          options,
        }),
      maxItems,
      this.ctx.listLimit('userDays'),
    );
  }

  #check<G extends string>(params: GroupableParams<G>, allowed: G, endpoint: string): G | undefined {
    checkDateRange(params, this.ctx.now);
    return checkGroupBy(params.groupBy, allowed, endpoint);
  }

  async #days<Row>(
    operation: string,
    path: string,
    params: DateRangeParams,
    groupBy: string | undefined,
    schema: z.ZodType,
    options: RequestOptions | undefined,
    bodyFilter?: () => BodyFilter,
  ): Promise<AnalyticsResult<Row>> {
    const { data, meta } = await this.ctx.transport.request({
      operation,
      method: 'GET',
      host: 'api',
      path: `/api/v1/analytics${path}`,
      query: { startDate: params.startDate, endDate: params.endDate, group_by: groupBy },
      schema: schema as z.ZodType<AnalyticsResponse<Row>>,
      retry: 'idempotent',
      options,
      bodyFilter,
    });
    return { data: data.data, meta: data.meta, response: meta };
  }
}
