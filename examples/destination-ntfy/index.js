// An example destination from another team: a report's summary and figures pushed to an ntfy topic
// (https://docs.ntfy.sh/publish/), declared once with `defineDestination`: how a target is
// written (`ntfy:TOPIC`), the settings it reads (the server in NTFY_URL, an access token in
// NTFY_TOKEN, a secret), how it sends, and how it fails (429 and 5xx may pass, any other 4xx will
// not). The delivery core records each send in the ledger, so a rerun sends nothing twice.
import {
  DestinationError,
  defineDestination,
  PermanentDeliveryError,
  RetryableDeliveryError,
} from '@orgreport/deliver';

/** The variable holding the ntfy server's address. */
export const NTFY_URL_ENV = 'NTFY_URL';
/** The variable holding the access token of a protected topic (a secret). */
export const NTFY_TOKEN_ENV = 'NTFY_TOKEN';
/** The server when NTFY_URL is unset: the public one. */
export const NTFY_DEFAULT_URL = 'https://ntfy.sh';
/**
 * ntfy keeps a message of up to 4,096 bytes as text and turns a longer one into an attachment
 * (refused where attachments are off), so the body is cut to fit.
 */
export const NTFY_MESSAGE_LIMIT_BYTES = 4096;

/** How long one request may take before it counts as a timeout (retried). */
const REQUEST_TIMEOUT_MS = 30_000;
/** ntfy's topic names: letters, digits, `-` and `_`, up to 64 characters. */
const TOPIC = /^[-_A-Za-z0-9]{1,64}$/;
const SYNTAX =
  'ntfy:TOPIC (letters, digits, - and _, up to 64; the server in NTFY_URL, default https://ntfy.sh)';
const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);
/** Characters a token may hold: an HTTP header value's visible ASCII. */
const TOKEN = /^[\x21-\x7e]+$/;

/**
 * The server's address, or why it cannot be used (the explanation never quotes the value).
 *
 * @param {string | undefined} text
 * @returns {URL | string}
 */
function serverUrl(text) {
  if (text === undefined || text.trim() === '') return new URL(`${NTFY_DEFAULT_URL}/`);
  if (!URL.canParse(text)) return 'not a URL';
  const url = new URL(text);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'not an http(s) URL';
  // The token would cross the network in the clear.
  if (url.protocol === 'http:' && !LOOPBACK_HOSTS.has(url.hostname)) {
    return 'http: is accepted only for loopback hosts (127.0.0.1, ::1, localhost); use https:';
  }
  if (url.username !== '' || url.password !== '') {
    return `credentials do not belong in the URL: put an access token in ${NTFY_TOKEN_ENV}`;
  }
  if (url.search !== '' || url.hash !== '') return 'the server address takes no query string or fragment';
  if (!url.pathname.endsWith('/')) url.pathname += '/';
  return url;
}

/**
 * A header value as ntfy reads it: ASCII as it is, anything else as an RFC 2047 encoded word
 * (`=?UTF-8?B?...?=`), which ntfy decodes (HTTP headers carry no UTF-8 of their own).
 *
 * @param {string} text
 */
function headerValue(text) {
  const line = text.replace(/\s+/g, ' ').trim();
  return /^[\x20-\x7e]*$/.test(line) ? line : `=?UTF-8?B?${Buffer.from(line, 'utf8').toString('base64')}?=`;
}

/**
 * The notification's text: the summary, then a line per figure, cut at `limit` bytes of UTF-8
 * (whole characters, an ellipsis at the cut).
 *
 * @param {import('@orgreport/deliver').DeliveryMessage} message
 * @param {number} [limit]
 */
export function ntfyBody(message, limit = NTFY_MESSAGE_LIMIT_BYTES) {
  const facts = message.facts.map((f) => `${f.label}: ${f.value}`).join('\n');
  const text = [message.summary.trim(), facts].filter((part) => part !== '').join('\n\n') || message.subject;
  if (Buffer.byteLength(text, 'utf8') <= limit) return text;
  const ellipsis = '…';
  let out = '';
  let bytes = Buffer.byteLength(ellipsis, 'utf8');
  for (const char of text) {
    bytes += Buffer.byteLength(char, 'utf8');
    if (bytes > limit) break;
    out += char;
  }
  return out + ellipsis;
}

/**
 * How long the server asked to wait, in ms: `Retry-After` in seconds, or as an HTTP date measured
 * against the response's own `Date` (no clock of ours is read).
 *
 * @param {Headers} headers
 * @returns {number | undefined}
 */
function retryAfterMs(headers) {
  const value = headers.get('retry-after')?.trim();
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  const now = Date.parse(headers.get('date') ?? '');
  return Number.isNaN(at) || Number.isNaN(now) ? undefined : Math.max(0, at - now);
}

/**
 * What ntfy said of a refusal: its JSON error (`{"code":40301,"http":403,"error":"forbidden"}`),
 * else the start of the body, with the token taken out should a proxy echo it.
 *
 * @param {Response} response
 * @param {string | undefined} token
 */
async function reasonOf(response, token) {
  let text = '';
  try {
    text = await response.text();
  } catch {
    return '';
  }
  let reason = text.replace(/\s+/g, ' ').trim().slice(0, 200);
  try {
    const body = JSON.parse(text);
    if (typeof body?.error === 'string') reason = `${body.error}${body.code ? ` (code ${body.code})` : ''}`;
  } catch {
    // Not JSON: a proxy's page; its start is quoted.
  }
  return token && token.length >= 4 ? reason.split(token).join('***') : reason;
}

/**
 * What to check after a refusal, by status.
 *
 * @param {number} status
 * @param {string} topic
 * @param {boolean} hasToken
 */
function advice(status, topic, hasToken) {
  if (status === 401) return `the server did not accept ${NTFY_TOKEN_ENV}: check the token (ntfy token list)`;
  if (status === 403) {
    return hasToken
      ? `the token in ${NTFY_TOKEN_ENV} may not publish to "${topic}": grant it write access (ntfy access)`
      : `"${topic}" is protected: set ${NTFY_TOKEN_ENV} to an access token that may publish to it`;
  }
  if (status === 413) return 'the message is larger than the server accepts';
  if (status >= 300 && status < 400) {
    return `the server answered with a redirect, which is not followed (the token goes nowhere else): set ${NTFY_URL_ENV} to its final address`;
  }
  return undefined;
}

/**
 * Publishes one message to its topic: POST <server>/<topic>, the summary and figures as the body,
 * the subject as `Title`, a `Click` link to where a storing destination of the same delivery put
 * the documents (the documents themselves are not uploaded).
 *
 * @param {import('@orgreport/deliver').DeliveryMessage} message
 * @param {{ topic: string }} address
 * @param {import('@orgreport/deliver').SendContext} context
 * @returns {Promise<import('@orgreport/deliver').SentReceipt>}
 */
async function publish(message, { topic }, context) {
  const label = `ntfy:${topic}`;
  const server = serverUrl(context.settings[NTFY_URL_ENV]);
  if (typeof server === 'string') throw new PermanentDeliveryError(label, `${NTFY_URL_ENV}: ${server}`);
  const token = context.settings[NTFY_TOKEN_ENV] || undefined;
  /** @type {Record<string, string>} */
  const headers = {
    'content-type': 'text/plain; charset=utf-8',
    title: headerValue(message.subject),
    tags: message.kind === 'alert' ? 'warning,orgreport' : 'bar_chart,orgreport',
  };
  const link = context.links[0];
  if (link) headers['click'] = headerValue(link.url);
  if (token) headers['authorization'] = `Bearer ${token}`;
  const body = ntfyBody(message);
  const url = new URL(encodeURIComponent(topic), server);

  const timeout = AbortSignal.timeout(REQUEST_TIMEOUT_MS);
  let response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers,
      body,
      redirect: 'manual',
      signal: AbortSignal.any([context.signal, timeout]),
    });
  } catch (error) {
    // The error is not passed on as a cause: a library's message may quote the request.
    const why = context.signal.aborted
      ? 'the delivery was cancelled before ntfy answered'
      : timeout.aborted
        ? `ntfy at ${url.host} did not answer within ${REQUEST_TIMEOUT_MS / 1000} s`
        : `could not reach ntfy at ${url.host} (${codeOf(error)})`;
    throw new RetryableDeliveryError(label, why);
  }

  if (response.status >= 200 && response.status < 300) {
    /** @type {{ id?: unknown }} */
    let sent = {};
    try {
      sent = await response.json();
    } catch {
      // An empty or non-JSON answer from a proxy: the status says enough.
    }
    context.log(`${label}: published on ${url.host} (${Buffer.byteLength(body, 'utf8')} bytes)`);
    return { id: typeof sent.id === 'string' ? sent.id : `HTTP ${response.status}` };
  }
  const reason = await reasonOf(response, token);
  const said = [advice(response.status, topic, token !== undefined), reason && `ntfy said: ${reason}`]
    .filter(Boolean)
    .join('; ');
  const text = `ntfy at ${url.host} answered HTTP ${response.status}${said ? `: ${said}` : ''}`;
  if (response.status === 429 || response.status >= 500) {
    throw new RetryableDeliveryError(label, text, retryAfterMs(response.headers));
  }
  throw new PermanentDeliveryError(label, text);
}

/**
 * The code of a network error or of one of its causes (`ECONNREFUSED`).
 *
 * @param {unknown} error
 */
function codeOf(error) {
  for (let e = error, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    const code = /** @type {{ code?: unknown }} */ (e).code;
    if (typeof code === 'string') return code;
    e = /** @type {{ cause?: unknown }} */ (e).cause;
  }
  return 'network error';
}

/** The `ntfy` destination: `ntfy:TOPIC`, the server in NTFY_URL, a token in NTFY_TOKEN. */
export const destination = defineDestination({
  scheme: 'ntfy',
  title: 'ntfy topic',
  syntax: SYNTAX,
  settings: [
    {
      env: NTFY_URL_ENV,
      help: `the ntfy server (default ${NTFY_DEFAULT_URL}); http: only for loopback hosts`,
    },
    {
      env: NTFY_TOKEN_ENV,
      help: 'an access token (tk_...) that may publish to the topic, for protected topics',
      secret: true,
    },
  ],
  check(settings) {
    const server = serverUrl(settings[NTFY_URL_ENV]);
    if (typeof server === 'string') throw new DestinationError(`${NTFY_URL_ENV}: ${server}`);
    const token = settings[NTFY_TOKEN_ENV];
    if (token && !TOKEN.test(token)) {
      throw new DestinationError(`${NTFY_TOKEN_ENV}: a token is one word of printable ASCII`);
    }
  },
  parse(target) {
    const topic = target.startsWith('ntfy:') ? target.slice('ntfy:'.length) : '';
    if (!TOPIC.test(topic)) throw new DestinationError(`write ${SYNTAX}`);
    return { topic };
  },
  label: ({ topic }) => `ntfy:${topic}`,
  send: publish,
});

export default destination;
