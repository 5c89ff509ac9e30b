/**
 * The fetch floor: the recorded requests replayed with plain `fetch` + `JSON.parse` and nothing
 * else (no schema validation, no redaction, no columns). Requests of one operation are replayed in
 * order, one after the other (a paged list is a cursor chain); different operations run at once,
 * under the same limit of requests in flight as the client. Like the client, the floor drops
 * `/tokens`' per-user member while the body streams in: the report never uses it, and at 100k users
 * it is longer than the longest string V8 can parse.
 */
import { ConcurrencyLimiter, dropJsonMembers } from '@orgreport/api-core';
import type { RecordedRequest } from './request-recorder.ts';

/** Whether the client streams this URL's body without `by_user` (ungrouped `/tokens`). */
export function dropsByUser(url: string): boolean {
  const { pathname, searchParams } = new URL(url);
  return pathname.endsWith('/analytics/tokens') && !searchParams.has('group_by');
}

export interface ReplayOptions {
  apiKey: string;
  /** Requests in flight at once (the client's limit). */
  concurrency: number;
  fetch?: typeof globalThis.fetch;
}

export interface ReplayResult {
  ms: number;
  requests: number;
  bytes: number;
}

/** The requests grouped into chains by operation, in first-seen order. */
export function chainsOf(requests: readonly RecordedRequest[]): RecordedRequest[][] {
  const chains = new Map<string, RecordedRequest[]>();
  for (const r of requests) {
    const chain = chains.get(r.operation) ?? [];
    chain.push(r);
    chains.set(r.operation, chain);
  }
  return [...chains.values()];
}

/** Replays the requests and returns the wall time, request count and body bytes. */
export async function replayRequests(
  requests: readonly RecordedRequest[],
  options: ReplayOptions,
): Promise<ReplayResult> {
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const limiter = new ConcurrencyLimiter(options.concurrency);
  const headers = { Authorization: `Bearer ${options.apiKey}`, Accept: 'application/json' };
  const decoder = new TextDecoder();
  let bytes = 0;
  let count = 0;
  const one = async (url: string) => {
    const response = await fetchImpl(url, { headers });
    if (!response.ok) throw new Error(`replay: ${response.status} for ${url}`);
    if (dropsByUser(url) && response.body) {
      const filter = dropJsonMembers('by_user');
      for await (const chunk of response.body) {
        filter.push(chunk);
        bytes += chunk.byteLength;
      }
      JSON.parse(decoder.decode(filter.end()));
    } else {
      const body = new Uint8Array(await response.arrayBuffer());
      JSON.parse(decoder.decode(body));
      bytes += body.byteLength;
    }
    count++;
  };
  const started = performance.now();
  await Promise.all(
    chainsOf(requests).map(async (chain) => {
      for (const r of chain) {
        const release = await limiter.acquire();
        try {
          await one(r.url);
        } finally {
          release();
        }
      }
    }),
  );
  return { ms: performance.now() - started, requests: count, bytes };
}
