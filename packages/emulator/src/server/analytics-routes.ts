/** The analytics endpoints under `/api/v1/analytics` (Manager or Owner only). */
import { eachDay } from '@orgreport/api-core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Organization } from '../organization.ts';
import { parseDateRange, parseGroupBy, parseLimit, type Query } from './params.ts';
import { badRequest, HttpProblem } from './problem.ts';
import type { Role } from './state.ts';

const USERS_PAGE_DEFAULT = 20;
const USERS_PAGE_MAX = 100;

/** Registers the analytics routes; `roleOf` gives the caller's role (auth already passed). */
export function registerAnalyticsRoutes(
  app: FastifyInstance,
  org: Organization,
  roleOf: (r: FastifyRequest) => Role,
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

  app.get('/api/v1/analytics/tokens', async (request) => {
    const { query, range } = guard(request);
    const days = eachDay(range.start, range.end);
    const data = parseGroupBy(query, 'model')
      ? days.flatMap((d) => org.tokensByModelRows(d))
      : days.map((d) => org.tokensDay(d));
    return { data, meta: meta(range) };
  });

  app.get('/api/v1/analytics/tools', async (request) => {
    const { query, range } = guard(request);
    const days = eachDay(range.start, range.end);
    const data = parseGroupBy(query, 'tool_name')
      ? days.flatMap((d) => org.toolsByNameRows(d))
      : days.map((d) => org.toolsDay(d));
    return { data, meta: meta(range) };
  });

  app.get('/api/v1/analytics/activity', async (request) => {
    const { query, range } = guard(request);
    const days = eachDay(range.start, range.end);
    const data = parseGroupBy(query, 'client')
      ? days.flatMap((d) => org.activityByClientRows(d))
      : days.map((d) => org.activityDay(d));
    return { data, meta: meta(range) };
  });

  app.get('/api/v1/analytics/productivity', async (request) => {
    const { query, range } = guard(request);
    parseGroupBy(query, null);
    return { data: eachDay(range.start, range.end).map((d) => org.productivityDay(d)), meta: meta(range) };
  });

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
      for (const d of eachDay(range.start, range.end)) {
        const row = org.userDay(i, d);
        if (row) data.push(row);
      }
    }
    return {
      data,
      meta: {
        ...meta(range),
        has_more: next !== undefined,
        next_cursor: next === undefined ? null : org.identity(next).id,
      },
    };
  });
}
