/** Organization users: `GET /api/v0/organization/users`, paged by `pagination.nextCursor`. */
import type { z } from 'zod';
import type { PagePromise } from '../pagination.ts';
import { type OrgUser, orgUsersResponseSchema, type V0Pagination } from '../schemas.ts';
import type { RequestOptions } from '../transport.ts';
import type { ClientContext } from './context.ts';
import { listV0, type V0ListParams } from './v0-list.ts';

/** The body of one page of organization users. */
export interface OrgUsersResponse {
  users: OrgUser[];
  pagination?: V0Pagination | undefined;
}

/** `limit`: users per page, 1 to 100 (default 100); `maxItems`: stop after this many users. */
export type OrgUsersListParams = V0ListParams;

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
    return listV0(
      this.ctx,
      {
        operation: 'orgUsers.list',
        listing: 'orgUsers',
        path: '/api/v0/organization/users',
        schema: orgUsersResponseSchema as z.ZodType<OrgUsersResponse>,
        items: (b) => b.users,
      },
      params,
      options,
    );
  }
}
