/** Enterprise-control change history: `GET /api/v0/organization/enterprise-controls/history`. */
import { hasMoreStyle } from '../page-styles.ts';
import { PagePromise } from '../pagination.ts';
import { type ControlChange, type ControlHistoryResponse, controlHistoryResponseSchema } from '../schemas.ts';
import type { RequestOptions } from '../transport.ts';
import { checkIntegerRange } from '../validation.ts';
import type { ClientContext } from './context.ts';

/** Items per page of the v0 listings when `limit` is not given (the maximum, for fewer requests). */
export const DEFAULT_V0_PAGE_SIZE = 100;

export interface ControlHistoryParams {
  /** Changes per page, 1 to 100 (default 100). */
  limit?: number;
  /** Stop after this many changes in total, without fetching further pages. */
  maxItems?: number;
}

/** The `controls` resource of {@link OrgClient}. */
export class Controls {
  constructor(private readonly ctx: ClientContext) {}

  /**
   * Every revision of the organization settings, newest first. `settings` may hold secrets
   * (`customModels[].apiKey`): redact before storing or showing.
   *
   * @example
   * for await (const change of client.controls.history()) console.log(change.revision, change.updatedAt);
   */
  history(
    params: ControlHistoryParams = {},
    options?: RequestOptions,
  ): PagePromise<ControlChange, ControlHistoryResponse> {
    const limit = checkIntegerRange(params.limit, 'limit', 1, 100) ?? DEFAULT_V0_PAGE_SIZE;
    const maxItems = checkIntegerRange(params.maxItems, 'maxItems', 0, Number.POSITIVE_INFINITY);
    const operation = 'controls.history';
    return new PagePromise(
      hasMoreStyle(
        operation,
        (b: ControlHistoryResponse) => b.changes,
        (b) => ({ hasMore: b.pagination.hasMore, cursor: b.pagination.nextCursor }),
      ),
      (cursor) =>
        this.ctx.transport.request({
          operation,
          method: 'GET',
          host: 'api',
          path: '/api/v0/organization/enterprise-controls/history',
          query: { limit, cursor },
          schema: controlHistoryResponseSchema,
          retry: 'idempotent',
          options,
        }),
      maxItems,
    );
  }
}
