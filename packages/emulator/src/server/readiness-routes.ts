/** The readiness endpoint (`{app_url}/api/organization/maturity-level-reports`). */
import type { FastifyInstance } from 'fastify';
import type { Organization } from '../organization.ts';
import { optionalString, parseLimit, type Query } from './params.ts';
import { badRequest } from './problem.ts';

const DEFAULT_PAGE = 50;

/** Registers the readiness route: newest first, `startAfter` a report id, a short or empty last page. */
export function registerReadinessRoutes(app: FastifyInstance, org: Organization) {
  app.get('/api/organization/maturity-level-reports', async (request) => {
    const query = request.query as Query;
    const limit = parseLimit(query, 'limit', 1, Number.POSITIVE_INFINITY, DEFAULT_PAGE);
    const repoId = optionalString(query, 'repoId');
    const startAfter = optionalString(query, 'startAfter');
    let reports = org.readinessReports;
    if (repoId !== undefined) {
      const repo = org.repositories.find(
        (r) => r.id === repoId || r.url === repoId || r.id.endsWith(`/${repoId}`),
      );
      reports = repo ? reports.filter((r) => r.repoUrl === repo.url) : [];
    }
    let from = 0;
    if (startAfter !== undefined) {
      const at = reports.findIndex((r) => r.reportId === startAfter);
      if (at < 0) throw badRequest('startAfter', startAfter, 'expected the reportId of a listed report');
      from = at + 1;
    }
    return { reports: reports.slice(from, from + limit) };
  });
}
