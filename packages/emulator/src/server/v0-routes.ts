/** The `/api/v0` endpoints: control history, sessions and messages, computers, users, credit limits. */
import {
  createSessionRequestSchema,
  type Message,
  type Session,
  updateSessionRequestSchema,
} from '@orgreport/api-core';
import type { FastifyInstance } from 'fastify';
import type { Organization } from '../organization.ts';
import { Rng } from '../prng.ts';
import { optionalString, parseLimit, type Query } from './params.ts';
import { badRequest, HttpProblem } from './problem.ts';
import type { EmulatorState } from './state.ts';

const PAGE_DEFAULT = 20;
const PAGE_MAX = 100;
const MAX_LIMIT_ENTRIES = 100;
const TAG_CREATED_SESSION = 21;

function zodDetail(error: { issues: { path: PropertyKey[]; message: string }[] }): string {
  return error.issues.map((i) => `${i.path.map(String).join('.') || 'body'}: ${i.message}`).join('; ');
}

/** Registers the v0 routes. */
export function registerV0Routes(app: FastifyInstance, org: Organization, state: EmulatorState) {
  const history = org.controlHistory;

  app.get('/api/v0/organization/enterprise-controls/history', async (request) => {
    const query = request.query as Query;
    const limit = parseLimit(query, 'limit', 1, PAGE_MAX, PAGE_DEFAULT);
    const cursor = optionalString(query, 'cursor');
    let from = 0;
    if (cursor !== undefined) {
      from = history.findIndex((c) => `rev_${c.revision}` === cursor);
      if (from < 0) throw badRequest('cursor', cursor, 'expected pagination.nextCursor of a previous page');
    }
    const changes = history.slice(from, from + limit);
    const next = history[from + limit];
    return {
      changes,
      pagination: { hasMore: next !== undefined, nextCursor: next ? `rev_${next.revision}` : null },
    };
  });

  app.get('/api/v0/organization/users', async (request) => {
    const query = request.query as Query;
    const limit = parseLimit(query, 'limit', 1, PAGE_MAX, PAGE_DEFAULT);
    const cursor = optionalString(query, 'cursor');
    let from = 0;
    if (cursor !== undefined) {
      const index = org.userIndexOf(cursor);
      if (index === undefined)
        throw badRequest('cursor', cursor, 'expected pagination.nextCursor of a previous page');
      from = index;
    }
    const end = Math.min(org.userCount, from + limit);
    const users = [];
    for (let i = from; i < end; i++) users.push(org.orgUser(i));
    const hasMore = end < org.userCount;
    return { users, pagination: { hasMore, nextCursor: hasMore ? org.identity(end).id : null } };
  });

  app.put('/api/v0/organization/usage/limits/users', async (request) => {
    const body = request.body as { users?: unknown } | null;
    const entries = body && typeof body === 'object' ? body.users : undefined;
    if (!Array.isArray(entries) || entries.length < 1 || entries.length > MAX_LIMIT_ENTRIES) {
      throw badRequest(
        'users',
        Array.isArray(entries) ? `${entries.length} entries` : entries,
        `an array of 1 to ${MAX_LIMIT_ENTRIES} {email, limit} entries`,
      );
    }
    const updated: { email: string; limit: number }[] = [];
    const errors: { email: string; error: string }[] = [];
    for (const entry of entries as unknown[]) {
      const e = (entry && typeof entry === 'object' ? entry : {}) as { email?: unknown; limit?: unknown };
      const email = typeof e.email === 'string' ? e.email : '';
      if (email === '') errors.push({ email, error: 'email is required' });
      else if (org.userIndexOfEmail(email) === undefined)
        errors.push({ email, error: 'no user with this e-mail' });
      else if (typeof e.limit !== 'number' || !Number.isFinite(e.limit) || e.limit < 0) {
        errors.push({ email, error: 'limit must be a finite number of credits, 0 or more' });
      } else {
        state.creditLimits.set(email.toLowerCase(), e.limit);
        updated.push({ email, limit: e.limit });
      }
    }
    return { updated, errors };
  });

  app.get('/api/v0/computers', async () => ({ computers: org.computers }));

  const findSession = (sessionId: string, computerId: string | undefined) => {
    const stored = state.sessions.get(sessionId);
    if (!stored || (computerId !== undefined && stored.session.computerId !== computerId)) {
      throw new HttpProblem(404, `no session ${JSON.stringify(sessionId)}`);
    }
    return stored;
  };

  app.post('/api/v0/sessions', async (request, reply) => {
    const parsed = createSessionRequestSchema.safeParse(request.body);
    if (!parsed.success) throw new HttpProblem(400, zodDetail(parsed.error));
    const { computerId, cwd, sessionSettings } = parsed.data;
    if (!org.computers.some((c) => c.id === computerId)) {
      throw new HttpProblem(404, `no computer ${JSON.stringify(computerId)}`);
    }
    const n = state.nextSessionNumber();
    const r = Rng.of(org.seed, TAG_CREATED_SESSION, n);
    const at = state.now();
    const sessionId = `sess_${r.hex(16)}`;
    const systemMessage: Message = {
      id: `msg_${r.hex(16)}`,
      role: 'system',
      content: [{ id: `blk_${r.hex(8)}`, text: `Session started in ${cwd ?? '~'}` }],
      createdAt: at,
      updatedAt: at,
      visibility: 'llm_only',
    };
    const session: Session = {
      sessionId,
      status: 'pending',
      messageCount: 1,
      createdAt: at,
      updatedAt: at,
      computerId,
      sessionSettings: {
        ...sessionSettings,
        tokenUsage: {
          inputTokens: 0,
          outputTokens: 0,
          cacheCreationTokens: 0,
          cacheReadTokens: 0,
          thinkingTokens: 0,
          serviceCredits: 0,
        },
      },
    };
    state.sessions.set(sessionId, { session, messages: new Map([[systemMessage.id, systemMessage]]) });
    return reply.code(201).send(session);
  });

  app.patch<{ Params: { sessionId: string } }>('/api/v0/sessions/:sessionId', async (request) => {
    const stored = findSession(request.params.sessionId, undefined);
    const parsed = updateSessionRequestSchema.safeParse(request.body ?? {});
    if (!parsed.success) throw new HttpProblem(400, zodDetail(parsed.error));
    const s = stored.session;
    s.sessionSettings = { ...s.sessionSettings, ...parsed.data.sessionSettings };
    s.updatedAt = Math.max(state.now(), s.updatedAt);
    return s;
  });

  app.get<{ Params: { sessionId: string } }>('/api/v0/sessions/:sessionId', async (request) => {
    return findSession(request.params.sessionId, optionalString(request.query as Query, 'computerId'))
      .session;
  });

  app.get<{ Params: { sessionId: string; messageId: string } }>(
    '/api/v0/sessions/:sessionId/messages/:messageId',
    async (request) => {
      const stored = findSession(
        request.params.sessionId,
        optionalString(request.query as Query, 'computerId'),
      );
      const message = stored.messages.get(request.params.messageId);
      if (!message)
        throw new HttpProblem(404, `no message ${JSON.stringify(request.params.messageId)} in this session`);
      return message;
    },
  );
}
