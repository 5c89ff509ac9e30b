/** Enterprise-control change history: `GET /api/v0/organization/enterprise-controls/history`. */
import type { PagePromise } from '../pagination.ts';
import { type ControlChange, type ControlHistoryResponse, controlHistoryResponseSchema } from '../schemas.ts';
import type { RequestOptions } from '../transport.ts';
import type { ClientContext } from './context.ts';
import { listV0, type V0ListParams } from './v0-list.ts';

export { DEFAULT_V0_PAGE_SIZE } from './v0-list.ts';

/** `limit`: changes per page, 1 to 100 (default 100); `maxItems`: stop after this many changes. */
export type ControlHistoryParams = V0ListParams;

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
    return listV0(
      this.ctx,
      {
        operation: 'controls.history',
        listing: 'controls',
        path: '/api/v0/organization/enterprise-controls/history',
        schema: controlHistoryResponseSchema,
        items: (b) => b.changes,
      },
      params,
      options,
    );
  }
}
