/**
 * The `webhook` destination: the message as JSON, POSTed to a URL and signed the way GitHub and
 * Stripe sign theirs, so that the receiver can tell it comes from us and is not a replay: an
 * HMAC-SHA256 over `<timestamp>.<body>` with a shared secret, in `X-Orgreport-Signature:
 * t=<unix seconds>,v1=<hex>`. `X-Orgreport-Delivery` carries the delivery's key, the same on every
 * retry and rerun, so a receiver can drop a repeat. Documents travel by name, checksum and link
 * (where a storing destination of the same group put them), never inline.
 */
import { createHmac } from 'node:crypto';
import {
  type DeliveryMessage,
  DestinationError,
  defineDestination,
  PermanentDeliveryError,
  type SendContext,
} from '../destination.ts';
import { failureOf, post, readHttpUrl } from './http.ts';

/** The variable holding the signing secret. */
export const WEBHOOK_SECRET_ENV = 'ORGREPORT_WEBHOOK_SECRET';
/** The header carrying `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>`. */
export const WEBHOOK_SIGNATURE_HEADER = 'X-Orgreport-Signature';
/** The header carrying the delivery's key. */
export const WEBHOOK_DELIVERY_HEADER = 'X-Orgreport-Delivery';

/** A webhook target: where to POST. */
export interface WebhookAddress {
  url: string;
}

/** The JSON a webhook receives. */
export interface WebhookPayload {
  kind: DeliveryMessage['kind'];
  subject: string;
  summary: string;
  text: string;
  facts: ReadonlyArray<{ label: string; value: string }>;
  /** What to do this month (a scoped report's actions); empty for the others. */
  actions: ReadonlyArray<{ title: string; text: string }>;
  meta: Readonly<Record<string, string>>;
  documents: ReadonlyArray<{ filename: string; contentType: string; sha256: string; bytes: number }>;
  links: ReadonlyArray<{ url: string; label: string }>;
}

export interface WebhookOptions {
  /**
   * The clock the signature's timestamp is read from, in ms since the epoch. A signature is made
   * when a request leaves (a retry gets a fresh one), so the clock is read at send time; tests
   * pass their own.
   */
  now?: () => number;
}

const SYNTAX = 'webhook:https://host/path (http: only for loopback hosts)';

/** The webhook destination with a given clock; {@link webhook} uses the system's. */
export function webhookDestination(options: WebhookOptions = {}) {
  const now = options.now ?? Date.now;
  return defineDestination<WebhookAddress>({
    scheme: 'webhook',
    title: 'Signed webhook',
    syntax: SYNTAX,
    settings: [
      {
        env: WEBHOOK_SECRET_ENV,
        help: 'Shared secret the JSON body is signed with (HMAC-SHA256); the receiver checks the signature with it',
        secret: true,
        required: true,
      },
    ],
    parse: parseWebhookTarget,
    label: (address) => webhookLabel(address.url),
    send: (message, address, context) => sendWebhook(message, address, context, now),
  });
}

/** The `webhook` destination: `webhook:https://host/path`, the secret in `ORGREPORT_WEBHOOK_SECRET`. */
export const webhook = webhookDestination();

function parseWebhookTarget(target: string): WebhookAddress {
  if (!target.startsWith('webhook:')) {
    throw new DestinationError(`not a webhook target: write ${SYNTAX}`);
  }
  const url = readHttpUrl(target.slice('webhook:'.length));
  if (typeof url === 'string') throw new DestinationError(`webhook target: ${url}; write ${SYNTAX}`);
  return { url: url.href };
}

/**
 * The target as it may be printed: scheme, host and path; no query string, which may hold a
 * receiver's token.
 */
function webhookLabel(href: string): string {
  const url = new URL(href);
  return `webhook:${url.origin}${url.pathname}`;
}

/** The JSON body: the message without its HTML and without the documents' local paths. */
function payloadOf(message: DeliveryMessage, context: SendContext): WebhookPayload {
  return {
    kind: message.kind,
    subject: message.subject,
    summary: message.summary,
    text: message.text,
    facts: message.facts.map(({ label, value }) => ({ label, value })),
    actions: (message.actions ?? []).map(({ title, text }) => ({ title, text })),
    meta: { ...message.meta },
    documents: message.documents.map(({ filename, contentType, sha256, bytes }) => ({
      filename,
      contentType,
      sha256,
      bytes,
    })),
    links: context.links.map(({ url, label }) => ({ url, label })),
  };
}

/** `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>`. */
function signature(secret: string, unixSeconds: number, body: string): string {
  const mac = createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex');
  return `t=${unixSeconds},v1=${mac}`;
}

async function sendWebhook(
  message: DeliveryMessage,
  address: WebhookAddress,
  context: SendContext,
  now: () => number,
) {
  const label = webhookLabel(address.url);
  const secret = context.settings[WEBHOOK_SECRET_ENV];
  if (!secret) {
    throw new PermanentDeliveryError(label, `${WEBHOOK_SECRET_ENV} is not set: webhooks are always signed`);
  }
  const body = JSON.stringify(payloadOf(message, context));
  const url = new URL(address.url);
  const response = await post({
    destination: label,
    url,
    headers: {
      'content-type': 'application/json',
      'user-agent': 'orgreport-webhook',
      [WEBHOOK_SIGNATURE_HEADER]: signature(secret, Math.floor(now() / 1000), body),
      [WEBHOOK_DELIVERY_HEADER]: context.key,
    },
    body,
    signal: context.signal,
  });
  if (response.status >= 200 && response.status < 300) {
    await response.body?.cancel();
    context.log(`${label}: HTTP ${response.status} (${body.length} bytes)`);
    return { id: `HTTP ${response.status}` };
  }
  throw await failureOf(label, response, [secret, address.url, url.search.slice(1)], (status) =>
    status === 401 || status === 403
      ? `the receiver refused the request: check that it verifies with the same ${WEBHOOK_SECRET_ENV} and that both clocks are right`
      : undefined,
  );
}
