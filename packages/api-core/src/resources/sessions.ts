/**
 * Sessions and their messages under `/api/v0/sessions`. Creating (POST) and updating (PATCH) are
 * repeated only when the connection failed before the request was sent: a PATCH of settings is
 * idempotent in practice, but the API does not promise it (tags, for instance), so it is not
 * retried after the server may have seen it.
 */
import {
  type Message,
  messageSchema,
  type Session,
  type SessionSettingsRequest,
  sessionSchema,
  sessionSettingsRequestSchema,
} from '../schemas.ts';
import type { RequestOptions } from '../transport.ts';
import { checkLength, checkNonEmptyString, checkWithSchema } from '../validation.ts';
import type { ClientContext } from './context.ts';

export interface CreateSessionParams {
  /** The computer to connect. */
  computerId: string;
  /** Working directory on the computer, 1 to 4096 characters. */
  cwd?: string;
  /** Settings of the new session (response-only fields such as `tokenUsage` are refused). */
  sessionSettings?: SessionSettingsRequest;
}

export interface UpdateSessionParams {
  sessionSettings?: SessionSettingsRequest;
}

export interface GetSessionParams {
  /** Query this computer directly. */
  computerId?: string;
}

const enc = encodeURIComponent;

/** `client.sessions.messages`. */
export class SessionMessages {
  constructor(private readonly ctx: ClientContext) {}

  /**
   * One message of a session.
   *
   * @example
   * const message = await client.sessions.messages.get(sessionId, messageId);
   */
  get(
    sessionId: string,
    messageId: string,
    params: GetSessionParams = {},
    options?: RequestOptions,
  ): Promise<Message> {
    checkNonEmptyString(sessionId, 'sessionId');
    checkNonEmptyString(messageId, 'messageId');
    if (params.computerId !== undefined) checkNonEmptyString(params.computerId, 'computerId');
    return this.ctx.transport
      .request({
        operation: 'sessions.messages.get',
        method: 'GET',
        host: 'api',
        path: `/api/v0/sessions/${enc(sessionId)}/messages/${enc(messageId)}`,
        query: { computerId: params.computerId },
        schema: messageSchema,
        retry: 'idempotent',
        options,
      })
      .then((r) => r.data);
  }
}

/** The `sessions` resource of {@link OrgClient}. */
export class Sessions {
  readonly messages: SessionMessages;

  constructor(private readonly ctx: ClientContext) {
    this.messages = new SessionMessages(ctx);
  }

  /**
   * Creates a session on a computer (201).
   *
   * @example
   * const session = await client.sessions.create({ computerId: 'cmp_1', cwd: '/home/dev/app' });
   */
  create(params: CreateSessionParams, options?: RequestOptions): Promise<Session> {
    checkNonEmptyString(params?.computerId, 'computerId');
    checkLength(params.cwd, 'cwd', 1, 4096);
    if (params.sessionSettings !== undefined) {
      checkWithSchema(sessionSettingsRequestSchema, params.sessionSettings, 'sessionSettings');
    }
    const body: CreateSessionParams = { computerId: params.computerId };
    if (params.cwd !== undefined) body.cwd = params.cwd;
    if (params.sessionSettings !== undefined) body.sessionSettings = params.sessionSettings;
    return this.ctx.transport
      .request({
        operation: 'sessions.create',
        method: 'POST',
        host: 'api',
        path: '/api/v0/sessions',
        body,
        schema: sessionSchema,
        retry: 'unsent-only',
        options,
      })
      .then((r) => r.data);
  }

  /**
   * Reads a session.
   *
   * @example
   * const session = await client.sessions.get('ses_1');
   */
  get(sessionId: string, params: GetSessionParams = {}, options?: RequestOptions): Promise<Session> {
    checkNonEmptyString(sessionId, 'sessionId');
    if (params.computerId !== undefined) checkNonEmptyString(params.computerId, 'computerId');
    return this.ctx.transport
      .request({
        operation: 'sessions.get',
        method: 'GET',
        host: 'api',
        path: `/api/v0/sessions/${enc(sessionId)}`,
        query: { computerId: params.computerId },
        schema: sessionSchema,
        retry: 'idempotent',
        options,
      })
      .then((r) => r.data);
  }

  /**
   * Changes a session's settings.
   *
   * @example
   * await client.sessions.update('ses_1', { sessionSettings: { model: 'model-a' } });
   */
  update(sessionId: string, params: UpdateSessionParams = {}, options?: RequestOptions): Promise<Session> {
    checkNonEmptyString(sessionId, 'sessionId');
    if (params.sessionSettings !== undefined) {
      checkWithSchema(sessionSettingsRequestSchema, params.sessionSettings, 'sessionSettings');
    }
    const body: UpdateSessionParams = {};
    if (params.sessionSettings !== undefined) body.sessionSettings = params.sessionSettings;
    return this.ctx.transport
      .request({
        operation: 'sessions.update',
        method: 'PATCH',
        host: 'api',
        path: `/api/v0/sessions/${enc(sessionId)}`,
        body,
        schema: sessionSchema,
        retry: 'unsent-only',
        options,
      })
      .then((r) => r.data);
  }
}
