/** The analytics endpoints under `/api/v1/analytics` (Manager or Owner only). */
import { eachDay, type IsoDate } from '@orgreport/api-core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Organization } from '../organization.ts';
import { dataEnvelope, JsonText } from './json-body.ts';
import { parseDateRange, parseGroupBy, parseLimit, type Query } from './params.ts';
import { badRequest, HttpProblem } from './problem.ts';
import type { Role } from './state.ts';

const USERS_PAGE_DEFAULT = 20;
const USERS_PAGE_MAX = 100;

/** Spelling of the `/users` paging fields: our spec's snake_case or the published camelCase. */
export type UsersPaging = 'spec' | 'published';

/** Registers the analytics routes; `roleOf` gives the caller's role (auth already passed). */
export function registerAnalyticsRoutes(
  app: FastifyInstance,
  org: Organization,
  roleOf: (r: FastifyRequest) => Role,
  streamAbove: number,
  paging: UsersPaging = 'spec',
) {
  const meta = (range: { start: string; end: string }) => ({
    org_id: org.orgId,
    start_date: range.start,
    end_date: range.end,
  });
  const guard = (request: FastifyRequest) => {
    if (roleOf(request) === 'member') {
      throw new HttpProblem(403, 'analytics require the Manager or Owner role');
    }
    const query = request.query as Query;
    return { query, range: parseDateRange(query, org.today) };
  };

  /**
   * Serves the rows of each day of the range as they are produced: a day's data is computed (or
   * taken from the cache) just before its rows are written, and the event loop gets a turn between
   * days so paged requests interleave with a long response.
   */
  const serveDays = async (
    request: FastifyRequest,
    reply: FastifyReply,
    rowsFor: (query: Query) => (date: IsoDate) => readonly unknown[],
  ) => {
    const { query, range } = guard(request);
    const rowsOf = rowsFor(query);
    async function* rows() {
      for (const date of eachDay(range.start, range.end)) {
        await org.prepareDay(date);
        yield* rowsOf(date);
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
    }
    const body = await dataEnvelope(rows(), meta(range), streamAbove);
    return reply.type('application/json; charset=utf-8').send(body);
  };

  app.get('/api/v1/analytics/tokens', (request, reply) =>
    serveDays(request, reply, (query) =>
      parseGroupBy(query, 'model') ? org.tokensByModelRows : (d) => [new JsonText(org.tokensDayJsonParts(d))],
    ),
  );

  app.get('/api/v1/analytics/tools', (request, reply) =>
    serveDays(request, reply, (query) =>
      parseGroupBy(query, 'tool_name') ? org.toolsByNameRows : (d) => [org.toolsDay(d)],
    ),
  );

  app.get('/api/v1/analytics/activity', (request, reply) =>
    serveDays(request, reply, (query) =>
      parseGroupBy(query, 'client') ? org.activityByClientRows : (d) => [org.activityDay(d)],
    ),
  );

  app.get('/api/v1/analytics/productivity', (request, reply) =>
    serveDays(request, reply, (query) => {
      parseGroupBy(query, null);
      return (d) => [org.productivityDay(d)];
    }),
  );

  // Paged by user: a page holds every day row of up to `limit` users who were active in the
  // range; `next_cursor` is the id of the first user of the next page.
  app.get('/api/v1/analytics/users', async (request) => {
    const { query, range } = guard(request);
    parseGroupBy(query, null);
    const limit = parseLimit(query, 'limit', 1, USERS_PAGE_MAX, USERS_PAGE_DEFAULT);
    const cursor = query.cursor;
    let from = 0;
    if (cursor !== undefined) {
      const index = typeof cursor === 'string' ? org.userIndexOf(cursor) : undefined;
      if (index === undefined) throw badRequest('cursor', cursor, 'expected a user id from meta.next_cursor');
      from = index;
    }
    const data = [];
    let taken = 0;
    let next: number | undefined;
    for (let i = from; i < org.userCount; i++) {
      if (!org.hasActivity(i, range)) continue;
      if (taken === limit) {
        next = i;
        break;
      }
      taken++;
      for (const row of org.userDaysOf(i, range)) data.push(row);
    }
    return {
      data,
      meta: {
        ...meta(range),
        ...(paging === 'published'
          ? { hasMore: next !== undefined, nextCursor: next === undefined ? null : org.identity(next).id }
          : { has_more: next !== undefined, next_cursor: next === undefined ? null : org.identity(next).id }),
      },
    };
  });
}
