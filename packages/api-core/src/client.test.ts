import { describe, expect, it } from 'vitest';
import { stubClient, TEST_KEY } from './__fixtures__/stub-fetch.ts';
import { OrgClient } from './client.ts';
import { ValidationError } from './errors.ts';

const good = { apiKey: TEST_KEY, baseUrl: 'http://api.test/', appUrl: 'http://app.test' };

describe('OrgClient', () => {
  it('validates its options and never echoes the key', () => {
    const bad: Array<[Record<string, unknown>, string]> = [
      [{ ...good, apiKey: '' }, 'apiKey'],
      [{ ...good, baseUrl: 'ftp://x' }, 'baseUrl'],
      [{ ...good, appUrl: 'not a url' }, 'appUrl'],
      [{ ...good, baseUrl: `http://user:${TEST_KEY}@api.test` }, 'baseUrl'],
      [{ ...good, maxRetries: -1 }, 'maxRetries'],
      [{ ...good, timeoutMs: 0 }, 'timeoutMs'],
      [{ ...good, concurrency: 0 }, 'concurrency'],
      [{ ...good, now: 'today' }, 'now'],
    ];
    for (const [options, parameter] of bad) {
      try {
        new OrgClient(options as never);
        expect.unreachable(parameter);
      } catch (e) {
        expect(e, parameter).toBeInstanceOf(ValidationError);
        expect((e as ValidationError).parameter).toBe(parameter);
        expect((e as Error).message).not.toContain(TEST_KEY);
      }
    }
  });

  it('trims trailing slashes of the hosts and keeps the key out of inspection', () => {
    const client = new OrgClient(good);
    expect(client.baseUrl).toBe('http://api.test');
    expect(JSON.stringify(client)).not.toContain(TEST_KEY);
    expect(client.stats).toEqual({
      requests: 0,
      retries: 0,
      bytesReceived: 0,
      failures: 0,
      redirectedTo: [],
    });
  });

  it('needs appUrl only for readiness reports', async () => {
    const { client } = stubClient([{ body: { computers: [] } }], { appUrl: undefined });
    expect(() => client.readiness.list()).toThrow(/appUrl/);
    await expect(client.computers.list()).resolves.toEqual([]);
  });
});
