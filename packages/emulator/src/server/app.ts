/**
 * The fastify application: request ids, seeded latency and faults, API-key authentication,
 * uniform error bodies, the request log, and every route of the spec on one origin.
 */
import { Readable } from 'node:stream';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import type { Organization } from '../organization.ts';
import { registerAnalyticsRoutes, type UsersPaging } from './analytics-routes.ts';
import { droppingStream, type FaultKind, type FaultPlan, faultyStream, malformedBody } from './faults.ts';
import { countingStream, DEFAULT_STREAM_ABOVE } from './json-body.ts';
import { HttpProblem, sendProblem } from './problem.ts';
import { registerReadinessRoutes } from './readiness-routes.ts';
import type { EmulatorKeys, EmulatorState, Role } from './state.ts';
import { registerV0Routes } from './v0-routes.ts';

/** One served request, for tests to inspect. */
export interface RequestLogEntry {
  requestId: string;
  method: string;
  path: string;
  query: Record<string, string | string[]>;
  status: number;
  /** The injected fault, or null. */
  fault: FaultKind | null;
  /** Body bytes actually sent. */
  bytes: number;
  delayMs: number;
  role: Role | null;
}

interface RequestInfo {
  fault: FaultKind | null;
  delayMs: number;
  role: Role | null;
}

function queryOf(url: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  const q = url.indexOf('?');
  if (q < 0) return out;
  for (const [k, v] of new URLSearchParams(url.slice(q + 1))) {
    const prev = out[k];
    out[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
  }
  return out;
}

/** Builds (but does not start) the emulator's HTTP application. */
export function buildApp(deps: {
  org: Organization;
  state: EmulatorState;
  keys: EmulatorKeys;
  plan: FaultPlan;
  log: RequestLogEntry[];
  /** Analytics bodies longer than this many characters are streamed (default 4 MiB). */
  streamAbove?: number;
  /** Spelling of the `/users` paging fields. */
  paging: UsersPaging;
}): FastifyInstance {
  const { org, state, keys, plan, log } = deps;
  let sequence = 0;
  const app = Fastify({
    logger: false,
    forceCloseConnections: true,
    genReqId: () => `emu-req-${String(++sequence).padStart(6, '0')}`,
    bodyLimit: 5 * 1024 * 1024,
  });
  const info = new WeakMap<FastifyRequest, RequestInfo>();
  const roleByKey = new Map<string, Role>(
    (Object.entries(keys) as [Role, string][]).map(([role, key]) => [key, role]),
  );
  const roleOf = (request: FastifyRequest): Role => info.get(request)?.role ?? 'member';

  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', String(request.id));
    const { delayMs, fault } = plan.decide(request.method, request.url);
    const entry: RequestInfo = { fault, delayMs, role: null };
    info.set(request, entry);
    if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
    if (fault === 'server-error') return sendProblem(request, reply, 500, 'emulated internal error');
    if (fault === 'unavailable') return sendProblem(request, reply, 503, 'emulated outage; try again');
    if (fault === 'rate-limit') {
      reply.header('retry-after', String(plan.retryAfterSeconds));
      return sendProblem(request, reply, 429, 'emulated rate limit; retry after the Retry-After delay');
    }
    const header = request.headers.authorization;
    const match = typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
    const role = match ? roleByKey.get(match[1] as string) : undefined;
    if (!role) {
      return sendProblem(
        request,
        reply,
        401,
        header ? 'the API key is not valid' : 'missing Authorization: Bearer <API key> header',
      );
    }
    entry.role = role;
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const entry = info.get(request);
    let out: unknown = payload;
    let bytes = typeof payload === 'string' || Buffer.isBuffer(payload) ? Buffer.byteLength(payload) : 0;
    // Body faults apply to successful responses only: the failure is in transport, not in the API.
    const fault = entry?.fault ?? null;
    const bodyFault = reply.statusCode < 400 && (fault === 'drop' || fault === 'malformed') ? fault : null;
    const logged: RequestLogEntry = {
      requestId: String(request.id),
      method: request.method,
      path: request.url.split('?')[0] as string,
      query: queryOf(request.url),
      status: reply.statusCode,
      fault,
      bytes,
      delayMs: entry?.delayMs ?? 0,
      role: entry?.role ?? null,
    };
    // A streamed body's size is known only once it has been sent: the entry is updated as it goes.
    const countBytes = (n: number) => {
      logged.bytes = n;
    };
    if (bodyFault === 'malformed' && typeof payload === 'string') {
      out = malformedBody(payload);
      bytes = Buffer.byteLength(out as string);
    } else if (bodyFault === 'drop' && typeof payload === 'string') {
      const buffer = Buffer.from(payload);
      reply.header('content-length', String(buffer.length));
      out = droppingStream(buffer);
      bytes = Math.max(1, Math.floor(buffer.length / 2));
    } else if (payload instanceof Readable) {
      out = bodyFault ? faultyStream(payload, bodyFault, countBytes) : countingStream(payload, countBytes);
    }
    logged.bytes = bytes;
    if (fault === 'drop' || fault === 'malformed') logged.fault = out === payload ? null : fault;
    log.push(logged);
    return out;
  });

  app.setErrorHandler((error, request, reply) => {
    if (error instanceof HttpProblem) return sendProblem(request, reply, error.status, error.detail);
    const status = (error as { statusCode?: number }).statusCode;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      return sendProblem(request, reply, status, (error as Error).message);
    }
    return sendProblem(request, reply, 500, 'internal error');
  });
  app.setNotFoundHandler((request, reply) =>
    sendProblem(request, reply, 404, `no route ${request.method} ${request.url.split('?')[0]}`),
  );

  registerReadinessRoutes(app, org);
  registerAnalyticsRoutes(app, org, roleOf, deps.streamAbove ?? DEFAULT_STREAM_ABOVE, deps.paging);
  registerV0Routes(app, org, state);
  return app;
}
