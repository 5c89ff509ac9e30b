/**
 * A small server of the organization API written for these tests alone (plain node:http, none of the
 * emulator's code): a tiny organization served correctly, or misbehaving in ONE named way, to try the
 * client against a server we did not write. Each misbehaviour is a row of issue 13's table.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createGzip } from 'node:zlib';

export type Misbehaviour =
  | 'none'
  | 'users-empty-pages-forever'
  | 'readiness-endless'
  | 'readiness-capped-pages'
  | 'tokens-trickle'
  | 'tools-announces-2gb-then-idles'
  | 'tools-2gb-body'
  | 'activity-gzip-bomb'
  | 'controls-deep-json'
  | 'users-bad-counts'
  | 'users-bad-dates'
  | 'echo-key'
  | 'api-key-policy-change'
  | 'tokens-in-text'
  | 'users-duplicates'
  | 'activity-redirect-elsewhere'
  | 'users-camel-case-paging'
  | 'users-no-continuation'
  /** A web server that is not the API (a wrong base URL): 404 and an HTML page to every request. */
  | 'not-the-api';

export interface ForeignServer {
  url: string;
  /** Requests answered so far. */
  requests(): number;
  close(): Promise<void>;
}

export interface ForeignOptions {
  misbehaviour: Misbehaviour;
  /** The key the server accepts (and, in `echo-key`, echoes back). */
  key: string;
  /** Users of the organization (default 3). */
  users?: number;
  /** Where `activity-redirect-elsewhere` sends the client. */
  elsewhere?: string;
}

const START = '2026-09-01';
const END = '2026-10-31';
/** The token-shaped secrets `tokens-in-text` hides in free text (built here: none is in the repo). */
export const TEXT_TOKEN = `sk-${'Zq3'.repeat(8)}`;
export const TEXT_BEARER = `Bearer ${'Kx9'.repeat(7)}`;

function days(): string[] {
  const out: string[] = [];
  for (let t = Date.parse(`${START}T00:00:00Z`); t <= Date.parse(`${END}T00:00:00Z`); t += 86_400_000)
    out.push(new Date(t).toISOString().slice(0, 10));
  return out;
}

function userId(i: number): string {
  return `user-${String(i).padStart(4, '0')}`;
}

function userRow(i: number, date: string, o: ForeignOptions) {
  const email =
    o.misbehaviour === 'echo-key' && i === 0 ? `ops+${o.key}@example.com` : `${userId(i)}@example.com`;
  return {
    user_id: userId(i),
    user_email: email,
    date,
    tool_calls: 20,
    billable_tokens: 1500,
    primary_model: 'model-standard',
    primary_model_tier: 'standard',
    files_created: 1,
    files_edited: 2,
    git_commits: 1,
    git_prs_created: 0,
    mcp_calls: 0,
    skill_calls: 0,
    slash_commands: 0,
    hooks: 0,
    sessions: 2,
    messages: 10,
    user_messages: 4,
    assistant_messages: 6,
    autonomy_ratio: 5,
    delegation_level: 'auto-medium',
    languages: ['typescript'],
  };
}

function meta(extra: Record<string, unknown> = {}) {
  return { org_id: 'org-foreign', start_date: START, end_date: END, ...extra };
}

function dayRows(path: string, users: number, o: ForeignOptions): unknown[] {
  return days().map((date) => {
    if (path === 'tokens')
      return {
        date,
        billable_tokens: 1500 * users,
        input_tokens: 1000 * users,
        output_tokens: 500 * users,
        cache_read_tokens: 0,
        cache_write_tokens: 0,
        by_model: [
          {
            model_id: 'model-standard',
            model_tier: 'standard',
            billable_tokens: 1500 * users,
            input_tokens: 1000 * users,
            output_tokens: 500 * users,
          },
        ],
      };
    if (path === 'tools')
      return {
        date,
        tool_calls: 20 * users,
        by_tool: [{ tool: 'Read', invocations: 20 * users }],
        mcp_by_server: [],
        skills_invocations: 0,
        skills_by_name: [],
        slash_commands_invocations: 0,
        slash_commands_by_name: [],
        hooks_invocations: 1,
        hooks_by_event: [
          {
            event: 'PostToolUse',
            matcher: '*',
            command:
              o.misbehaviour === 'tokens-in-text'
                ? `curl -H "Authorization: ${TEXT_BEARER}" https://hooks.example/n?k=${TEXT_TOKEN}`
                : 'notify-send done',
            count: 1,
          },
        ],
        tool_autonomy_level_ratio: { auto_high: 0.25, auto_medium: 0.25, auto_low: 0.25, manual: 0.25 },
      };
    if (path === 'activity')
      return {
        date,
        daily_active_users: users,
        weekly_active_users: users,
        monthly_active_users: users,
        daily_active_users_by_client: { 'terminal-ui': users },
        sessions: 2 * users,
        messages: 10 * users,
        user_messages: 4 * users,
      };
    return {
      date,
      files_created: users,
      files_edited: 2 * users,
      by_extension: [],
      by_language: [],
      git_commits: users,
      git_prs_created: 0,
    };
  });
}

function report(n: number, o: ForeignOptions) {
  return {
    reportId: `rep-${String(n).padStart(6, '0')}`,
    createdAt: Date.parse('2026-10-15T00:00:00Z') + n * 1000,
    repoUrl:
      o.misbehaviour === 'echo-key'
        ? `https://git.example/r${n % 3}?token=${o.key}`
        : `https://git.example/r${n % 3}`,
    apps: {},
    report: {
      lint: {
        numerator: 1,
        denominator: 1,
        rationale: o.misbehaviour === 'tokens-in-text' ? `CI uses ${TEXT_TOKEN} to lint` : 'lint passes',
      },
      tests: { numerator: 0, denominator: 1, rationale: 'no tests' },
    },
  };
}

function controls(o: ForeignOptions) {
  const user = { id: 'admin', email: 'admin@example.com', name: 'Ada Admin' };
  const base = {
    restrictApiKeyCreationToManagers: true,
    serviceRouterGuidance: 'prefer the fast model',
    sessionRetentionDays: 30,
  };
  const changed =
    o.misbehaviour === 'api-key-policy-change'
      ? { ...base, restrictApiKeyCreationToManagers: false }
      : o.misbehaviour === 'tokens-in-text'
        ? { ...base, serviceRouterGuidance: `call the router with ${TEXT_TOKEN}` }
        : { ...base, sessionRetentionDays: 60 };
  return [
    { revision: 2, settings: changed, user, updatedAt: '2026-10-10T12:00:00Z' },
    { revision: 1, settings: base, user, updatedAt: '2026-08-01T12:00:00Z' },
  ];
}

/** A JSON value nested `depth` levels deep, as text (built without recursion). */
function deepJson(depth: number): string {
  return `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** Writes `chunks` chunks of `chunk` as fast as the client reads, until done or the client goes away. */
function stream(res: ServerResponse, chunk: Buffer, chunks: number, sink: NodeJS.WritableStream = res): void {
  let sent = 0;
  const pump = () => {
    while (sent < chunks) {
      sent++;
      if (res.destroyed) return;
      if (!sink.write(chunk)) return void sink.once('drain', pump);
    }
    sink.end();
  };
  res.on('close', () => {
    sent = chunks;
  });
  pump();
}

function users(url: URL, o: ForeignOptions, res: ServerResponse) {
  const count = o.users ?? 3;
  const limit = Number(url.searchParams.get('limit') ?? 20);
  const cursor = url.searchParams.get('cursor');
  if (o.misbehaviour === 'users-empty-pages-forever') {
    const n = cursor ? Number(cursor.slice(1)) + 1 : 0;
    return send(res, 200, { data: [], meta: meta({ has_more: true, next_cursor: `c${n}` }) });
  }
  const from = cursor ? Number(cursor.replace('user-', '')) : 0;
  const to = Math.min(count, from + limit);
  const rows = [];
  for (let i = from; i < to; i++) {
    for (const date of days()) {
      const row: Record<string, unknown> = userRow(i, date, o);
      if (o.misbehaviour === 'users-bad-counts' && i === 0 && date === '2026-10-05') row.tool_calls = -40;
      if (o.misbehaviour === 'users-bad-counts' && i === 1 && date === '2026-10-06') row.sessions = 2.5;
      rows.push(row);
    }
    if (o.misbehaviour === 'users-bad-dates' && i === 0) {
      rows.push(userRow(i, '2026-07-15', o), userRow(i, '2026-12-01', o));
    }
  }
  // Overlapping pages: every page after the first starts with the previous page's last user again.
  if (o.misbehaviour === 'users-duplicates' && from > 0) {
    for (const date of days()) rows.unshift(userRow(from - 1, date, o));
  }
  const more = to < count;
  const next = more ? userId(to) : null;
  if (o.misbehaviour === 'users-camel-case-paging')
    return send(res, 200, { data: rows, meta: meta({ hasMore: more, nextCursor: next }) });
  if (o.misbehaviour === 'users-no-continuation') return send(res, 200, { data: rows, meta: meta() });
  send(res, 200, { data: rows, meta: meta({ has_more: more, next_cursor: next }) });
}

function readiness(url: URL, o: ForeignOptions, res: ServerResponse) {
  const limit = Number(url.searchParams.get('limit') ?? 100);
  const after = url.searchParams.get('startAfter');
  const from = after ? Number(after.replace('rep-', '')) + 1 : 0;
  if (o.misbehaviour === 'readiness-endless') {
    const reports = Array.from({ length: limit }, (_, i) => report(from + i, o));
    return send(res, 200, { reports });
  }
  const total = 7;
  // A server that caps its pages below the limit asked for: 2 reports a page.
  const size = o.misbehaviour === 'readiness-capped-pages' ? Math.min(2, limit) : limit;
  const reports = [];
  for (let n = from; n < Math.min(total, from + size); n++) reports.push(report(n, o));
  send(res, 200, { reports });
}

function handle(req: IncomingMessage, res: ServerResponse, o: ForeignOptions) {
  const url = new URL(req.url ?? '/', 'http://localhost');
  if (o.misbehaviour === 'not-the-api') {
    const page = '<html><body><h1>File not found</h1></body></html>';
    res.writeHead(404, { 'content-type': 'text/html', 'content-length': Buffer.byteLength(page) });
    return res.end(page);
  }
  if (req.headers.authorization !== `Bearer ${o.key}`) {
    return send(res, 401, { title: 'Unauthorized', detail: 'bad key', status: 401, requestId: 'r-401' });
  }
  const path = url.pathname;
  const m = o.misbehaviour;
  const analytics = path.match(/^\/api\/v1\/analytics\/(tokens|tools|activity|productivity|users)$/);
  if (analytics) {
    const which = analytics[1]!;
    if (which === 'users') return users(url, o, res);
    if (which === 'tokens' && m === 'tokens-trickle') {
      res.writeHead(200, { 'content-type': 'application/json' });
      const timer = setInterval(() => res.write(' '), 1000);
      res.on('close', () => clearInterval(timer));
      return;
    }
    if (which === 'tools' && m === 'tools-announces-2gb-then-idles') {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': 2 * 1024 ** 3 });
      res.flushHeaders();
      return;
    }
    if (which === 'tools' && m === 'tools-2gb-body') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"data":[');
      return stream(res, Buffer.from('0,'.repeat(512 * 1024)), 2048);
    }
    if (which === 'activity' && m === 'activity-gzip-bomb') {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      const gzip = createGzip();
      gzip.pipe(res);
      gzip.write('{"data":["');
      return stream(res, Buffer.alloc(1024 * 1024, 0x61), 2048, gzip);
    }
    if (which === 'activity' && m === 'activity-redirect-elsewhere' && o.elsewhere) {
      res.writeHead(302, { location: `${o.elsewhere}${req.url}` });
      return void res.end();
    }
    return send(res, 200, { data: dayRows(which, o.users ?? 3, o), meta: meta() });
  }
  if (path === '/api/organization/maturity-level-reports') return readiness(url, o, res);
  if (path === '/api/v0/organization/enterprise-controls/history') {
    if (m === 'controls-deep-json') {
      const change = `{"revision":2,"user":{"id":"a"},"updatedAt":"2026-10-10T12:00:00Z","settings":{"extraArgs":${deepJson(100_000)}}}`;
      return send(res, 200, `{"changes":[${change}],"pagination":{"hasMore":false}}`);
    }
    return send(res, 200, { changes: controls(o), pagination: { hasMore: false, nextCursor: null } });
  }
  if (path === '/api/v0/organization/users') {
    const list = Array.from({ length: o.users ?? 3 }, (_, i) => ({
      id: userId(i),
      email: `${userId(i)}@example.com`,
      createdAt: '2026-02-01T00:00:00Z',
    }));
    return send(res, 200, { users: list, pagination: { hasMore: false, nextCursor: null } });
  }
  if (path === '/api/v0/organization/usage/limits/users' && req.method === 'PUT') {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      const entries = (JSON.parse(body) as { users: Array<{ email: string; limit: number }> }).users;
      send(res, 200, {
        updated: entries.slice(1),
        errors: entries
          .slice(0, 1)
          .map((e) => ({ email: e.email, error: `key ${o.key} may not set limits` })),
      });
    });
    return;
  }
  send(res, 404, { title: 'Not Found', detail: `no route ${path}`, status: 404, requestId: 'r-404' });
}

/** Starts the server on a free loopback port. */
export async function startForeignServer(options: ForeignOptions): Promise<ForeignServer> {
  let requests = 0;
  const server: Server = createServer((req, res) => {
    requests++;
    handle(req, res, options);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests: () => requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
