// An ntfy server on loopback for the tests, written from ntfy's public documentation
// (https://docs.ntfy.sh/publish/, "Authentication", "Limitations", "List of all parameters") and
// its error answers: a POST or PUT to /<topic> (letters, digits, - and _, up to 64) publishes the
// body as the message; Title, Tags and Click (and their X- and short aliases) are read, encoded
// as RFC 2047 words or not; `Authorization: Bearer <token>` must name a known token (401
// otherwise), and a protected topic takes only tokens allowed to write to it (403); a body over
// 4,096 bytes would become an attachment, which this server, like one without an attachment
// cache, refuses (400); success is 200 with the message as JSON. Faults (429 with or without
// Retry-After, 5xx) can be queued.
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';

const TOPIC_PATH = /^\/([-_A-Za-z0-9]{1,64})$/;
const MESSAGE_LIMIT = 4096;

/** ntfy's JSON errors, by what went wrong. */
const ERRORS = {
  notFound: { code: 40401, http: 404, error: 'page not found' },
  notUtf8: { code: 40011, http: 400, error: 'invalid request: message must be UTF-8 encoded' },
  attachmentsDisallowed: {
    code: 40014,
    http: 400,
    error: 'invalid request: attachments not allowed',
    link: 'https://ntfy.sh/docs/config/#attachments',
  },
  unauthorized: {
    code: 40101,
    http: 401,
    error: 'unauthorized',
    link: 'https://ntfy.sh/docs/publish/#authentication',
  },
  forbidden: {
    code: 40301,
    http: 403,
    error: 'forbidden',
    link: 'https://ntfy.sh/docs/publish/#authentication',
  },
  tooManyRequests: {
    code: 42901,
    http: 429,
    error: 'limit reached: too many requests',
    link: 'https://ntfy.sh/docs/publish/#limitations',
  },
  internal: { code: 50001, http: 500, error: 'internal server error' },
};

/**
 * A header value decoded as ntfy decodes it: RFC 2047 words (`=?UTF-8?B?...?=`, `=?UTF-8?Q?...?=`)
 * replaced by their text.
 *
 * @param {string} value
 */
function decodeWords(value) {
  return value.replace(/=\?utf-8\?([bq])\?([^?]*)\?=/gi, (_, encoding, text) =>
    encoding.toLowerCase() === 'b' ? Buffer.from(text, 'base64').toString('utf8') : quotedPrintable(text),
  );
}

/**
 * The text of an RFC 2047 "Q" word: `_` a space, `=XX` a byte.
 *
 * @param {string} text
 */
function quotedPrintable(text) {
  const bytes = [];
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '=' && /^[0-9A-Fa-f]{2}$/.test(text.slice(i + 1, i + 3))) {
      bytes.push(Number.parseInt(text.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(text[i] === '_' ? 0x20 : text.charCodeAt(i));
  }
  return Buffer.from(bytes).toString('utf8');
}

/**
 * The first of the named headers that is set, decoded.
 *
 * @param {import('node:http').IncomingMessage} req
 * @param {string[]} names
 */
function param(req, ...names) {
  for (const name of names) {
    const value = req.headers[name.toLowerCase()];
    if (typeof value === 'string' && value.trim() !== '') return decodeWords(value).trim();
  }
  return undefined;
}

/**
 * @typedef {{ status: number, retryAfter?: string }} NtfyFault
 * @typedef {{ id: string, time: number, expires: number, event: 'message', topic: string, message: string, title?: string, tags?: string[], click?: string }} NtfyMessage
 * @typedef {{ method: string, path: string, headers: import('node:http').IncomingHttpHeaders, status: number }} NtfyRequest
 */

/**
 * Starts the server on 127.0.0.1 (any free port).
 *
 * @param {{ tokens?: Record<string, string[]>, protectedTopics?: string[] }} [options]
 *   `tokens`: each known token and the topics it may write to; `protectedTopics`: the topics no
 *   anonymous visitor may write to (the others are open to everyone, as on ntfy.sh).
 */
export async function startNtfy(options = {}) {
  const tokens = new Map(Object.entries(options.tokens ?? {}).map(([t, topics]) => [t, new Set(topics)]));
  const protectedTopics = new Set(options.protectedTopics ?? []);
  /** @type {NtfyMessage[]} */
  const messages = [];
  /** @type {NtfyRequest[]} */
  const requests = [];
  /** @type {NtfyFault[]} */
  const faults = [];

  /**
   * @param {import('node:http').IncomingMessage} req
   * @param {import('node:http').ServerResponse} res
   */
  async function handle(req, res) {
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const raw = Buffer.concat(chunks);
    const record = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, status: 0 };
    requests.push(record);
    /**
     * @param {number} status
     * @param {unknown} body
     * @param {Record<string, string>} [headers]
     */
    const answer = (status, body, headers = {}) => {
      record.status = status;
      res
        .writeHead(status, { 'content-type': 'application/json', ...headers })
        .end(`${JSON.stringify(body)}\n`);
    };

    const fault = faults.shift();
    if (fault) {
      const error =
        fault.status === 429 ? ERRORS.tooManyRequests : { ...ERRORS.internal, http: fault.status };
      return answer(fault.status, error, fault.retryAfter ? { 'retry-after': fault.retryAfter } : {});
    }
    const topic = TOPIC_PATH.exec(new URL(req.url ?? '/', 'http://127.0.0.1').pathname)?.[1];
    if ((req.method !== 'POST' && req.method !== 'PUT') || !topic) return answer(404, ERRORS.notFound);

    // Authentication: a Bearer token must be known; no header is an anonymous visitor.
    const authorization = (req.headers.authorization ?? '').trim();
    let allowed;
    if (/^bearer /i.test(authorization)) {
      allowed = tokens.get(authorization.slice('bearer '.length).trim());
      if (!allowed) return answer(401, ERRORS.unauthorized);
    }
    if (protectedTopics.has(topic) && !allowed?.has(topic)) return answer(403, ERRORS.forbidden);

    if (raw.length > MESSAGE_LIMIT) return answer(400, ERRORS.attachmentsDisallowed);
    const text = raw.toString('utf8');
    if (!Buffer.from(text, 'utf8').equals(raw)) return answer(400, ERRORS.notUtf8);
    const time = Math.floor(Date.now() / 1000);
    const title = param(req, 'x-title', 'title', 'ti', 't');
    const tags = param(req, 'x-tags', 'tags', 'tag', 'ta');
    const click = param(req, 'x-click', 'click');
    /** @type {NtfyMessage} */
    const message = {
      id: randomBytes(6).toString('base64url'),
      time,
      expires: time + 12 * 3600,
      event: 'message',
      topic,
      message: text.trim(),
      ...(title && { title }),
      ...(tags && { tags: tags.split(',').map((t) => t.trim()) }),
      ...(click && { click }),
    };
    messages.push(message);
    return answer(200, message);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch(() => res.writeHead(500).end());
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
  const address = /** @type {import('node:net').AddressInfo} */ (server.address());
  return {
    url: `http://127.0.0.1:${address.port}`,
    messages,
    requests,
    /** @param {...NtfyFault} more */
    fail: (...more) => faults.push(...more),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve(undefined));
      }),
  };
}
