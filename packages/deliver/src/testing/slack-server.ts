/**
 * A Slack Web API on loopback for the tests, written from Slack's public method reference for the
 * methods the `slack` destination's client calls, not from that client:
 *
 * - every method is `POST /api/<method>`, form-encoded or JSON, authenticated by
 *   `Authorization: Bearer <token>` (or a `token` field); answers are HTTP 200 with `ok: true` or
 *   `ok: false` and an `error` (`not_authed`, `invalid_auth`, `token_revoked`, ...);
 * - `conversations.list` pages by `limit` and `cursor` (`response_metadata.next_cursor`), listing
 *   public channels and the private ones the app is in;
 * - `chat.postMessage` needs a channel the app is in (`channel_not_found`, `not_in_channel`,
 *   `is_archived`) and a text (`no_text`);
 * - `files.getUploadURLExternal` takes `filename` and `length` and returns an `upload_url` on this
 *   server and a `file_id`; the bytes are POSTed there (raw or multipart), and their length must be
 *   the one announced; `files.completeUploadExternal` rejects a file never uploaded
 *   (`file_not_found`), then shares the files in `channel_id` with `initial_comment` as one post.
 *
 * A fault can be queued for a method (or for `upload`, the upload URL): HTTP 429 with Retry-After
 * and `ok: false, error: ratelimited`, a 5xx, or an `ok: false` error.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SlackChannelSpec {
  id: string;
  name: string;
  /** The app is a member (default true). */
  member?: boolean;
  private?: boolean;
  archived?: boolean;
}

export interface SlackServerOptions {
  /** The one valid bot token. */
  token: string;
  channels: SlackChannelSpec[];
  /** Most channels a page of `conversations.list` holds, whatever the limit asked (default 1000). */
  pageSize?: number;
  /** Tokens answered with `token_revoked`. */
  revokedTokens?: string[];
}

export interface SlackFault {
  /** A Web API method (`files.completeUploadExternal`) or `upload` for the upload URL. */
  method: string;
  /** 429 (rate limited, with Retry-After) or a 5xx; without it, HTTP 200 with `ok: false`. */
  status?: number;
  retryAfter?: number;
  error?: string;
}

export interface SlackFile {
  id: string;
  filename: string;
  title?: string;
  /** The length announced to getUploadURLExternal. */
  length: number;
  /** The bytes received at the upload URL (none yet: never uploaded). */
  bytes?: Buffer;
  completed: boolean;
}

export interface SlackPost {
  channel: string;
  text: string;
  ts: string;
  /** File ids shared with the post. */
  files: string[];
}

export interface TestSlack {
  /** The Web API base URL, for ORGREPORT_SLACK_API_URL (`http://127.0.0.1:PORT/api/`). */
  apiUrl: string;
  /** Every call, in order: method names, and `upload` for the upload URL. */
  calls: string[];
  /** Messages that appeared in channels. */
  posts: SlackPost[];
  files: Map<string, SlackFile>;
  fail(...faults: SlackFault[]): void;
  close(): Promise<void>;
}

type Params = Record<string, unknown>;
type Answer = { status: number; headers?: Record<string, string>; body: string };

const ok = (payload: Params): Answer => ({ status: 200, body: JSON.stringify({ ok: true, ...payload }) });
const refuse = (error: string, extra: Params = {}): Answer => ({
  status: 200,
  body: JSON.stringify({ ok: false, error, ...extra }),
});

/** Starts the server on 127.0.0.1 (any free port). */
export async function startSlack(options: SlackServerOptions): Promise<TestSlack> {
  const calls: string[] = [];
  const posts: SlackPost[] = [];
  const files = new Map<string, SlackFile>();
  const faults: SlackFault[] = [];
  const tickets = new Map<string, string>();
  let origin = '';
  let sequence = 0;
  const nextTs = () => `${1_790_000_000 + ++sequence}.000100`;

  const channelFor = (value: unknown): SlackChannelSpec | Answer => {
    const channel = options.channels.find((c) => c.id === value || c.name === value);
    if (!channel) return refuse('channel_not_found');
    if (channel.archived) return refuse('is_archived');
    if (channel.member === false) return refuse('not_in_channel');
    return channel;
  };

  const methods: Record<string, (params: Params) => Answer> = {
    'conversations.list'(params) {
      const types = String(params['types'] ?? 'public_channel').split(',');
      const visible = options.channels.filter(
        (c) =>
          (c.private
            ? types.includes('private_channel') && c.member !== false
            : types.includes('public_channel')) &&
          !(params['exclude_archived'] && String(params['exclude_archived']) !== 'false' && c.archived),
      );
      const limit = Math.min(Number(params['limit'] ?? 100) || 100, options.pageSize ?? 1000);
      const cursor = String(params['cursor'] ?? '');
      const offset =
        cursor === '' ? 0 : Number(Buffer.from(cursor, 'base64').toString().replace('offset:', ''));
      if (!Number.isInteger(offset) || offset < 0) return refuse('invalid_cursor');
      const page = visible.slice(offset, offset + limit);
      const next =
        offset + limit < visible.length ? Buffer.from(`offset:${offset + limit}`).toString('base64') : '';
      return ok({
        channels: page.map((c) => ({
          id: c.id,
          name: c.name,
          is_channel: true,
          is_private: Boolean(c.private),
          is_archived: Boolean(c.archived),
          is_member: c.member !== false,
        })),
        response_metadata: { next_cursor: next },
      });
    },
    'chat.postMessage'(params) {
      const channel = channelFor(params['channel']);
      if ('status' in channel) return channel;
      const text = params['text'];
      if (typeof text !== 'string' || text === '') return refuse('no_text');
      const ts = nextTs();
      posts.push({ channel: channel.id, text, ts, files: [] });
      return ok({ channel: channel.id, ts, message: { type: 'message', text, ts } });
    },
    'files.getUploadURLExternal'(params) {
      const filename = params['filename'];
      const length = Number(params['length']);
      if (typeof filename !== 'string' || filename === '') return refuse('invalid_arguments');
      if (!Number.isInteger(length) || length <= 0) return refuse('missing_argument');
      const id = `F${randomBytes(5).toString('hex').toUpperCase()}`;
      const ticket = randomBytes(12).toString('hex');
      tickets.set(ticket, id);
      files.set(id, { id, filename, length, completed: false });
      return ok({ upload_url: `${origin}/upload/v1/${ticket}`, file_id: id });
    },
    'files.completeUploadExternal'(params) {
      let list: unknown = params['files'];
      if (typeof list === 'string') {
        try {
          list = JSON.parse(list);
        } catch {
          return refuse('invalid_arguments');
        }
      }
      if (!Array.isArray(list) || list.length === 0) return refuse('invalid_arguments');
      const entries = list as Array<{ id?: unknown; title?: unknown }>;
      for (const entry of entries) {
        const file = files.get(String(entry?.id));
        if (!file || file.bytes === undefined) return refuse('file_not_found');
      }
      let channel: SlackChannelSpec | undefined;
      if (params['channel_id'] !== undefined) {
        const found = channelFor(params['channel_id']);
        if ('status' in found) return found;
        channel = found;
      }
      const done = entries.map((entry) => {
        const file = files.get(String(entry.id)) as SlackFile;
        file.completed = true;
        if (typeof entry.title === 'string') file.title = entry.title;
        return file;
      });
      if (channel) {
        const text = typeof params['initial_comment'] === 'string' ? params['initial_comment'] : '';
        posts.push({ channel: channel.id, text, ts: nextTs(), files: done.map((f) => f.id) });
      }
      return ok({
        files: done.map((f) => ({
          id: f.id,
          name: f.filename,
          title: f.title ?? f.filename,
          size: f.length,
        })),
      });
    },
  };

  const handleApi = (method: string, req: IncomingMessage, raw: Buffer): Answer => {
    const handler = methods[method];
    if (!handler) return { status: 404, body: JSON.stringify({ ok: false, error: 'unknown_method' }) };
    const params = parseParams(String(req.headers['content-type'] ?? ''), raw);
    if (params === undefined) return refuse('invalid_form_data');
    const bearer = /^Bearer (.+)$/.exec(String(req.headers.authorization ?? ''))?.[1];
    const token = bearer ?? (typeof params['token'] === 'string' ? params['token'] : undefined);
    if (!token) return refuse('not_authed');
    if (options.revokedTokens?.includes(token)) return refuse('token_revoked');
    if (token !== options.token) return refuse('invalid_auth');
    return handler(params);
  };

  const handleUpload = async (ticket: string, req: IncomingMessage, raw: Buffer): Promise<Answer> => {
    const id = tickets.get(ticket);
    const file = id === undefined ? undefined : files.get(id);
    if (!file) return { status: 404, body: 'unknown upload' };
    const type = String(req.headers['content-type'] ?? '');
    let bytes = raw;
    if (type.startsWith('multipart/form-data')) {
      const form = await new Response(raw, { headers: { 'content-type': type } }).formData();
      const part = [...form.values()].find((v) => typeof v !== 'string');
      if (part === undefined || typeof part === 'string') return { status: 400, body: 'no file in the form' };
      bytes = Buffer.from(await part.arrayBuffer());
    }
    if (bytes.length !== file.length) {
      return { status: 400, body: `expected ${file.length} bytes, received ${bytes.length}` };
    }
    file.bytes = bytes;
    return { status: 200, body: `OK - ${bytes.length}` };
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const raw = await readBody(req);
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const api = /^\/api\/([\w.]+)$/.exec(url.pathname)?.[1];
    const ticket = /^\/upload\/v1\/(\w+)$/.exec(url.pathname)?.[1];
    const name = api ?? (ticket ? 'upload' : url.pathname);
    calls.push(name);
    const at = faults.findIndex((f) => f.method === name);
    const fault = at === -1 ? undefined : faults.splice(at, 1)[0];
    let answer: Answer;
    if (req.method !== 'POST') answer = { status: 405, body: 'method not allowed' };
    else if (fault) answer = faultAnswer(fault);
    else if (api) answer = handleApi(api, req, raw);
    else if (ticket) answer = await handleUpload(ticket, req, raw);
    else answer = { status: 404, body: 'not found' };
    const json = answer.body.startsWith('{');
    res
      .writeHead(answer.status, {
        'content-type': json ? 'application/json; charset=utf-8' : 'text/plain',
        ...answer.headers,
      })
      .end(answer.body);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch(() => res.writeHead(500).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    apiUrl: `${origin}/api/`,
    calls,
    posts,
    files,
    fail: (...more) => faults.push(...more),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function faultAnswer(fault: SlackFault): Answer {
  if (fault.status === 429) {
    return {
      status: 429,
      headers: { 'retry-after': String(fault.retryAfter ?? 1) },
      body: JSON.stringify({ ok: false, error: 'ratelimited' }),
    };
  }
  if (fault.status !== undefined) {
    return { status: fault.status, body: '<html><body>Service Unavailable</body></html>' };
  }
  return refuse(fault.error ?? 'internal_error');
}

/** A form-encoded or JSON body as parameters; undefined when it cannot be read. */
function parseParams(type: string, raw: Buffer): Params | undefined {
  const text = raw.toString('utf8');
  if (type.startsWith('application/json')) {
    try {
      const value = JSON.parse(text === '' ? '{}' : text);
      return typeof value === 'object' && value !== null ? value : undefined;
    } catch {
      return undefined;
    }
  }
  if (type.startsWith('application/x-www-form-urlencoded') || text === '') {
    return Object.fromEntries(new URLSearchParams(text));
  }
  return undefined;
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
