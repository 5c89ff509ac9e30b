/** Organization users: `GET /api/v0/organization/users`, paged by `pagination.nextCursor`. */
import type { z } from 'zod';
import { hasMoreStyle } from '../page-styles.ts';
import { PagePromise } from '../pagination.ts';
import { type OrgUser, orgUsersResponseSchema, type V0Pagination } from '../schemas.ts';
import type { RequestOptions } from '../transport.ts';
import { checkIntegerRange } from '../validation.ts';
import type { ClientContext } from './context.ts';
import { DEFAULT_V0_PAGE_SIZE } from './controls.ts';

/** The body of one page of organization users. */
export interface OrgUsersResponse {
  users: OrgUser[];
  pagination: V0Pagination;
}

export interface OrgUsersListParams {
  /** Users per page, 1 to 100 (default 100). */
  limit?: number;
  /** Stop after this many users in total, without fetching further pages. */
  maxItems?: number;
}

/** The `orgUsers` resource of {@link OrgClient}. */
export class OrgUsers {
  constructor(private readonly ctx: ClientContext) {}

  /**
   * Every user of the organization.
   *
   * @example
   * const users = await client.orgUsers.list().toArray();
   */
  list(params: OrgUsersListParams = {}, options?: RequestOptions): PagePromise<OrgUser, OrgUsersResponse> {
    const limit = checkIntegerRange(params.limit, 'limit', 1, 100) ?? DEFAULT_V0_PAGE_SIZE;
    const maxItems = checkIntegerRange(params.maxItems, 'maxItems', 0, Number.POSITIVE_INFINITY);
    const operation = 'orgUsers.list';
    return new PagePromise(
      hasMoreStyle(
        operation,
        (b: OrgUsersResponse) => b.users,
        (b) => ({ hasMore: b.pagination.hasMore, cursor: b.pagination.nextCursor }),
      ),
      (cursor) =>
        this.ctx.transport.request({
          operation,
          method: 'GET',
          host: 'api',
          path: '/api/v0/organization/users',
          query: { limit, cursor },
          schema: orgUsersResponseSchema as z.ZodType<OrgUsersResponse>,
          retry: 'idempotent',
          options,
        }),
      maxItems,
    );
  }
}
