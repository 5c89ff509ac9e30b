import { describe, expect, it } from 'vitest';
import { chainsOf, dropsByUser, replayRequests } from './replay.ts';

const requests = [
  { operation: 'users', url: 'http://x/u1' },
  { operation: 'tokens', url: 'http://x/t' },
  { operation: 'users', url: 'http://x/u2' },
  { operation: 'users', url: 'http://x/u3' },
  { operation: 'tools', url: 'http://x/tl' },
];

describe('replayRequests', () => {
  it('groups requests into chains by operation, in order', () => {
    expect(chainsOf(requests).map((c) => c.map((r) => r.url))).toEqual([
      ['http://x/u1', 'http://x/u2', 'http://x/u3'],
      ['http://x/t'],
      ['http://x/tl'],
    ]);
  });

  it('keeps each chain in order, overlaps chains under the limit and counts bytes', async () => {
    const started: string[] = [];
    let inFlight = 0;
    let maxInFlight = 0;
    const fetchStub = (async (url: string, init: RequestInit) => {
      expect((init.headers as Record<string, string>).Authorization).toBe('Bearer test-key');
      started.push(url);
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      await new Promise((r) => setTimeout(r, 5));
      inFlight--;
      return new Response(JSON.stringify({ url }));
    }) as typeof fetch;
    const result = await replayRequests(requests, { apiKey: 'test-key', concurrency: 2, fetch: fetchStub });
    expect(result.requests).toBe(5);
    expect(result.bytes).toBe(requests.reduce((a, r) => a + JSON.stringify({ url: r.url }).length, 0));
    expect(maxInFlight).toBe(2);
    const users = started.filter((u) => u.includes('/u'));
    expect(users).toEqual(['http://x/u1', 'http://x/u2', 'http://x/u3']);
  });

  it("drops /tokens' by_user member while streaming (never parsed), and counts every byte received", async () => {
    // The by_user value is not valid JSON: the replay succeeds only if it never reaches JSON.parse.
    const body = '{"data":[{"date":"2026-10-01","by_user":[1,,2],"total":5}]}';
    const fetchStub = (async () => new Response(body)) as unknown as typeof fetch;
    const tokens = [{ operation: 'tokens', url: 'http://x/api/v1/analytics/tokens?startDate=2026-10-01' }];
    const result = await replayRequests(tokens, { apiKey: 'k', concurrency: 1, fetch: fetchStub });
    expect(result).toMatchObject({ requests: 1, bytes: body.length });
    const grouped = [{ operation: 'tokens', url: 'http://x/api/v1/analytics/tokens?group_by=model' }];
    await expect(replayRequests(grouped, { apiKey: 'k', concurrency: 1, fetch: fetchStub })).rejects.toThrow(
      SyntaxError,
    );
    expect(dropsByUser('http://x/api/v1/analytics/tools')).toBe(false);
  });

  it('fails on an error status', async () => {
    const fetchStub = (async () => new Response('{}', { status: 500 })) as unknown as typeof fetch;
    await expect(replayRequests(requests, { apiKey: 'k', concurrency: 1, fetch: fetchStub })).rejects.toThrow(
      /500/,
    );
  });
});
