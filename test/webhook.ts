/**
 * A webhook receiver on loopback that does what docs/destinations.md tells a receiver to do: it
 * verifies `X-Orgreport-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`
 * against the raw bytes in constant time, refuses a timestamp more than five minutes from its clock,
 * and keeps each `X-Orgreport-Delivery` key once (a repeat is answered 200 and counted, not kept).
 * Any path is a hook: what each one received is kept apart.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedHook {
  /** The request's path (`/security`). */
  path: string;
  /** The delivery key. */
  key: string;
  /** The body as it came. */
  raw: string;
  body: { kind: string; subject: string; summary: string; text: string; meta: Record<string, string> };
}

export interface TestWebhooks {
  /** `http://127.0.0.1:PORT`. */
  origin: string;
  /** Verified deliveries, the first of each key only, in order. */
  received: ReceivedHook[];
  /** Keys received again. */
  repeats: string[];
  /** Requests refused, with why. */
  refused: string[];
  close(): Promise<void>;
}

async function rawBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Whether `raw` was signed with `secret` less than five minutes ago (the check of docs/destinations.md). */
function verified(raw: Buffer, header: string, secret: string): boolean {
  const parts = Object.fromEntries(header.split(',').map((p) => p.split('=', 2) as [string, string]));
  const t = Number(parts.t);
  if (!Number.isInteger(t) || !parts.v1 || Math.abs(Date.now() / 1000 - t) > 300) return false;
  const expected = createHmac('sha256', secret).update(`${t}.`).update(raw).digest();
  const given = Buffer.from(parts.v1, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Starts the receiver on 127.0.0.1 (any free port). */
export async function startWebhooks(secret: string): Promise<TestWebhooks> {
  const received: ReceivedHook[] = [];
  const repeats: string[] = [];
  const refused: string[] = [];
  const server = createServer((req, res) => {
    rawBody(req)
      .then((raw) => {
        if (
          req.method !== 'POST' ||
          !verified(raw, String(req.headers['x-orgreport-signature'] ?? ''), secret)
        ) {
          refused.push(`${req.method} ${req.url}`);
          res.writeHead(401).end('signature does not match');
          return;
        }
        const key = String(req.headers['x-orgreport-delivery'] ?? '');
        if (received.some((r) => r.key === key)) {
          repeats.push(key);
          res.writeHead(200).end();
          return;
        }
        const text = raw.toString('utf8');
        received.push({ path: req.url ?? '', key, raw: text, body: JSON.parse(text) });
        res.writeHead(204).end();
      })
      .catch(() => res.writeHead(500).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    received,
    repeats,
    refused,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
