/**
 * Readiness reports: `GET {app_url}/api/organization/maturity-level-reports`, paged by `startAfter`.
 * The response says nothing of the end: a page shorter than `limit` is not taken for it (a server
 * may cap its pages), only an empty page or one that brings no new report id.
 */
import { ValidationError } from '../errors.ts';
import { lastIdStyle } from '../page-styles.ts';
import { PagePromise } from '../pagination.ts';
import { type ReadinessListResponse, type ReadinessReport, readinessListResponseSchema } from '../schemas.ts';
import type { RequestOptions } from '../transport.ts';
import { checkIntegerRange, checkNonEmptyString } from '../validation.ts';
import type { ClientContext } from './context.ts';

/** Reports asked for per page when `limit` is not given. */
export const DEFAULT_READINESS_PAGE_SIZE = 100;

export interface ReadinessListParams {
  /** Only the reports of this repository. */
  repoId?: string;
  /** Reports per page (a positive integer; default 100). The list ends on an empty page or one with no new report. */
  limit?: number;
  /** Stop after this many reports in total, without fetching further pages. */
  maxItems?: number;
}

/** The `readiness` resource of {@link OrgClient}. */
export class Readiness {
  constructor(private readonly ctx: ClientContext) {}

  /**
   * Every readiness report, page by page (`startAfter` = the last `reportId` of the previous page).
   *
   * @example
   * for await (const report of client.readiness.list({ limit: 50 })) console.log(report.repoUrl);
   */
  list(
    params: ReadinessListParams = {},
    options?: RequestOptions,
  ): PagePromise<ReadinessReport, ReadinessListResponse> {
    if (!this.ctx.hasAppUrl) {
      throw new ValidationError(
        'appUrl',
        undefined,
        'readiness reports live on the web application host: pass appUrl to OrgClient',
      );
    }
    const pageSize =
      checkIntegerRange(params.limit, 'limit', 1, Number.POSITIVE_INFINITY) ?? DEFAULT_READINESS_PAGE_SIZE;
    const maxItems = checkIntegerRange(params.maxItems, 'maxItems', 0, Number.POSITIVE_INFINITY);
    if (params.repoId !== undefined) checkNonEmptyString(params.repoId, 'repoId');
    const operation = 'readiness.list';
    return new PagePromise(
      lastIdStyle(
        operation,
        (b: ReadinessListResponse) => b.reports,
        (r) => r.reportId,
      ),
      (cursor) =>
        this.ctx.transport.request({
          operation,
          method: 'GET',
          host: 'app',
          path: '/api/organization/maturity-level-reports',
          query: { repoId: params.repoId, limit: pageSize, startAfter: cursor },
          schema: readinessListResponseSchema,
          retry: 'idempotent',
          options,
        }),
      maxItems,
      this.ctx.listLimit('readiness'),
    );
  }
}
