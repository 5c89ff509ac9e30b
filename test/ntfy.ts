/**
 * An ntfy server on loopback for the end-to-end tests, as https://docs.ntfy.sh/publish/ describes
 * publishing: a POST or PUT to /<topic> (letters, digits, - and _, up to 64) publishes the body as
 * the message, with `Title`, `Tags` and `Click` (or their `X-` aliases; RFC 2047 words decoded) and
 * an optional `Authorization: Bearer <token>`; the answer is 200 with the message as JSON, or
 * ntfy's JSON error (404 for another path, 400 for a body over 4,096 bytes, which ntfy would keep
 * as an attachment).
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface NtfyMessage {
  id: string;
  topic: string;
  message: string;
  title?: string;
  tags?: string[];
  click?: string;
  /** The Authorization header it came with, if any. */
  authorization?: string;
}

export interface TestNtfy {
  url: string;
  messages: NtfyMessage[];
  close(): Promise<void>;
}

const TOPIC_PATH = /^\/([-_A-Za-z0-9]{1,64})$/;

/** A header's value with RFC 2047 base64 words (`=?UTF-8?B?...?=`) decoded, as ntfy decodes them. */
function header(req: IncomingMessage, ...names: string[]): string | undefined {
  for (const name of names) {
    const value = req.headers[name];
    if (typeof value === 'string' && value.trim() !== '') {
      return value
        .replace(/=\?utf-8\?b\?([^?]*)\?=/gi, (_, text: string) =>
          Buffer.from(text, 'base64').toString('utf8'),
        )
        .trim();
    }
  }
  return undefined;
}

/** Starts the server on 127.0.0.1 (any free port); every topic is open. */
export async function startNtfy(): Promise<TestNtfy> {
  const messages: NtfyMessage[] = [];
  const answer = (res: ServerResponse, status: number, body: unknown) =>
    res.writeHead(status, { 'content-type': 'application/json' }).end(`${JSON.stringify(body)}\n`);
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const topic = TOPIC_PATH.exec(new URL(req.url ?? '/', 'http://127.0.0.1').pathname)?.[1];
    if ((req.method !== 'POST' && req.method !== 'PUT') || !topic) {
      return answer(res, 404, { code: 40401, http: 404, error: 'page not found' });
    }
    if (body.length > 4096) {
      return answer(res, 400, { code: 40014, http: 400, error: 'invalid request: attachments not allowed' });
    }
    const title = header(req, 'x-title', 'title', 'ti', 't');
    const tags = header(req, 'x-tags', 'tags', 'tag', 'ta');
    const click = header(req, 'x-click', 'click');
    const message: NtfyMessage = {
      id: randomBytes(6).toString('base64url'),
      topic,
      message: body.toString('utf8').trim(),
      ...(title && { title }),
      ...(tags && { tags: tags.split(',') }),
      ...(click && { click }),
      ...(req.headers.authorization && { authorization: req.headers.authorization }),
    };
    messages.push(message);
    const time = Math.floor(Date.now() / 1000);
    const { authorization: _, ...published } = message;
    return answer(res, 200, { ...published, time, expires: time + 43_200, event: 'message' });
  };
  const server = createServer((req, res) => {
    handle(req, res).catch(() => res.writeHead(500).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    messages,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
