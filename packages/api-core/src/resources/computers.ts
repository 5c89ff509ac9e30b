/** Computers: `GET /api/v0/computers` (one response, no paging). */
import { type Computer, computersResponseSchema } from '../schemas.ts';
import type { RequestOptions } from '../transport.ts';
import type { ClientContext } from './context.ts';

/** The `computers` resource of {@link OrgClient}. */
export class Computers {
  constructor(private readonly ctx: ClientContext) {}

  /**
   * The computers available to the caller.
   *
   * @example
   * const computers = await client.computers.list();
   */
  async list(options?: RequestOptions): Promise<Computer[]> {
    const { data } = await this.ctx.transport.request({
      operation: 'computers.list',
      method: 'GET',
      host: 'api',
      path: '/api/v0/computers',
      schema: computersResponseSchema,
      retry: 'idempotent',
      options,
    });
    return data.computers;
  }
}
