/**
 * A webhook receiver on loopback for the tests, doing what docs/destinations.md tells receivers to
 * do, written from that description and not from our sender: it recomputes the HMAC-SHA256 of
 * `<t>.<raw body>` and compares it in constant time, refuses a timestamp more than five minutes
 * old (a replay) or a body that was changed, and records each delivery key once. Faults (429 with
 * Retry-After, 5xx) can be queued.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  key: string;
  /** The parsed JSON body. */
  body: unknown;
  /** The raw body and signature header, as they came (to replay them). */
  raw: string;
  signature: string;
}

export interface WebhookFault {
  status: number;
  retryAfter?: string;
  body?: string;
}

export interface TestWebhookReceiver {
  /** `http://127.0.0.1:PORT/hooks/orgreport`. */
  url: string;
  /** Verified deliveries, the first of each key only. */
  deliveries: ReceivedWebhook[];
  /** Requests with a key already delivered (answered 200, not recorded again). */
  duplicates: string[];
  /** Requests refused, with the reason the receiver gave. */
  refused: Array<{ status: number; reason: string }>;
  /** Answers the next requests with these faults, in order, before any check. */
  fail(...faults: WebhookFault[]): void;
  close(): Promise<void>;
}

export interface WebhookReceiverOptions {
  secret: string;
  /** The receiver's clock in ms (to make a captured request old). */
  now?: () => number;
  /** Oldest accepted timestamp, in seconds before now. */
  toleranceSeconds?: number;
}

/** Starts a receiver on 127.0.0.1 (any free port). */
export async function startWebhookReceiver(options: WebhookReceiverOptions): Promise<TestWebhookReceiver> {
  const now = options.now ?? Date.now;
  const tolerance = options.toleranceSeconds ?? 300;
  const deliveries: ReceivedWebhook[] = [];
  const duplicates: string[] = [];
  const refused: Array<{ status: number; reason: string }> = [];
  const faults: WebhookFault[] = [];

  const refuse = (res: ServerResponse, status: number, reason: string) => {
    refused.push({ status, reason });
    res.writeHead(status, { 'content-type': 'text/plain' }).end(reason);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const raw = await readBody(req);
    const fault = faults.shift();
    if (fault) {
      const headers: Record<string, string> = { 'content-type': 'text/plain' };
      if (fault.retryAfter !== undefined) headers['retry-after'] = fault.retryAfter;
      res.writeHead(fault.status, headers).end(fault.body ?? 'try again later');
      return;
    }
    if (req.method !== 'POST' || req.url !== '/hooks/orgreport') return refuse(res, 404, 'no such hook');
    const header = String(req.headers['x-orgreport-signature'] ?? '');
    const parts = new Map<string, string[]>();
    for (const item of header.split(',')) {
      const [k, v] = item.split('=', 2);
      if (k && v) parts.set(k.trim(), [...(parts.get(k.trim()) ?? []), v.trim()]);
    }
    const t = parts.get('t')?.[0];
    const candidates = parts.get('v1') ?? [];
    if (!t || !/^\d+$/.test(t) || candidates.length === 0)
      return refuse(res, 400, 'missing or malformed signature');
    const expected = createHmac('sha256', options.secret).update(`${t}.${raw}`).digest();
    const matches = candidates.some((hex) => {
      const given = Buffer.from(hex, 'hex');
      return given.length === expected.length && timingSafeEqual(given, expected);
    });
    if (!matches) return refuse(res, 401, 'signature does not match');
    if (Math.abs(now() / 1000 - Number(t)) > tolerance)
      return refuse(res, 401, 'timestamp outside the tolerance');
    const key = String(req.headers['x-orgreport-delivery'] ?? '');
    if (key === '') return refuse(res, 400, 'no delivery key');
    if (deliveries.some((d) => d.key === key)) {
      duplicates.push(key);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"duplicate":true}');
      return;
    }
    let body: unknown;
    try {
      body = JSON.parse(raw);
    } catch {
      return refuse(res, 400, 'body is not JSON');
    }
    deliveries.push({ key, body, raw, signature: header });
    res.writeHead(204).end();
  };

  const server = createServer((req, res) => {
    handle(req, res).catch(() => res.writeHead(500).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/orgreport`,
    deliveries,
    duplicates,
    refused,
    fail: (...more) => faults.push(...more),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
