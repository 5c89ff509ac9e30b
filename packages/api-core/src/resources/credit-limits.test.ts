import { describe, expect, it } from 'vitest';
import { type StubCall, stubClient } from '../__fixtures__/stub-fetch.ts';
import { ValidationError } from '../errors.ts';
import type { CreditLimitsResult } from './credit-limits.ts';

/** A server that updates every entry except e-mails starting with "bad", which it rejects. */
function server(call: StubCall) {
  const users = (call.body as { users: Array<{ email: string; limit: number }> }).users;
  return {
    body: {
      updated: users.filter((u) => !u.email.startsWith('bad')),
      errors: users
        .filter((u) => u.email.startsWith('bad'))
        .map((u) => ({ email: u.email, error: 'unknown user' })),
    },
  };
}

/** Every input index, from all three lists, sorted. */
function accounted(r: CreditLimitsResult): number[] {
  return [...r.updated, ...r.rejected, ...r.notSent].map((e) => e.index).sort((a, b) => a - b);
}

describe('creditLimits.set', () => {
  it('sends batches of at most 100 with PUT and accounts for every entry once', async () => {
    const entries = Array.from({ length: 250 }, (_, i) => ({
      email: i === 7 ? 'bad7@example.com' : `user${i}@example.com`,
      limit: i,
    }));
    const { client, calls } = stubClient(server);
    const result = await client.creditLimits.set(entries);
    expect(calls.map((c) => (c.body as { users: unknown[] }).users.length)).toEqual([100, 100, 50]);
    expect(
      calls.every((c) => c.method === 'PUT' && c.url.pathname === '/api/v0/organization/usage/limits/users'),
    ).toBe(true);
    expect(result.batches).toBe(3);
    expect(result.updated).toHaveLength(249);
    expect(result.rejected).toEqual([
      { index: 7, email: 'bad7@example.com', limit: 7, error: 'unknown user' },
    ]);
    expect(result.notSent).toEqual([]);
    expect(accounted(result)).toEqual(entries.map((_, i) => i));
  });

  it('does not send invalid entries or duplicate e-mails, and says why', async () => {
    const entries = [
      { email: 'a@example.com', limit: 10 }, // 0 sent
      { email: 'not-an-email', limit: 10 }, // 1 invalid e-mail
      { email: 'b@example.com', limit: -1 }, // 2 invalid limit
      { email: 'A@example.com', limit: 10 }, // 3 duplicate of 0, same limit
      { email: 'c@example.com', limit: 1 }, // 4 conflicting with 5
      { email: 'c@example.com', limit: 2 }, // 5 conflicting with 4
      null, // 6 not an object
      { email: 'd@example.com', limit: Number.NaN }, // 7 invalid limit
    ];
    const { client, calls } = stubClient(server);
    const result = await client.creditLimits.set(entries as never);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.body).toEqual({ users: [{ email: 'a@example.com', limit: 10 }] });
    expect(result.updated).toEqual([{ index: 0, email: 'a@example.com', limit: 10 }]);
    const reasons = Object.fromEntries(result.notSent.map((n) => [n.index, n.reason]));
    expect(Object.keys(reasons).map(Number)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(reasons[1]).toMatch(/email "not-an-email" is invalid/);
    expect(reasons[2]).toMatch(/limit -1 is invalid/);
    expect(reasons[3]).toMatch(/duplicate e-mail: same as entry #0/);
    expect(reasons[4]).toMatch(/conflicting limits in entries #4, #5/);
    expect(reasons[5]).toMatch(/conflicting limits/);
    expect(reasons[6]).toMatch(/expected an object/);
    expect(result.notSent.find((n) => n.index === 6)?.entry).toBeNull();
    expect(accounted(result)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });

  it('reports an entry the server did not mention as rejected', async () => {
    const { client } = stubClient([{ body: { updated: [], errors: [] } }]);
    const result = await client.creditLimits.set([{ email: 'x@example.com', limit: 1 }]);
    expect(result.rejected[0]?.error).toMatch(/does not mention/);
  });

  it('a 400 fails its batch only; a 401 stops sending the rest', async () => {
    const entries = Array.from({ length: 201 }, (_, i) => ({ email: `u${i}@example.com`, limit: 1 }));
    const a = stubClient([{ status: 400, body: { title: 'Bad Request' } }, server, server]);
    const r1 = await a.client.creditLimits.set(entries);
    expect(a.calls).toHaveLength(3);
    expect(r1.notSent.map((n) => n.index)).toEqual(entries.slice(0, 100).map((_, i) => i));
    expect(r1.notSent[0]?.reason).toMatch(/^request failed: .*400/);
    expect(r1.updated).toHaveLength(101);
    expect(r1.error).toBeUndefined();

    const b = stubClient([server, { status: 401, body: { title: 'Unauthorized' } }]);
    const r2 = await b.client.creditLimits.set(entries);
    expect(b.calls).toHaveLength(2);
    expect(r2.updated).toHaveLength(100);
    expect(r2.notSent).toHaveLength(101);
    expect(r2.notSent.at(-1)?.reason).toMatch(/earlier batch failed \(AuthenticationError\)/);
    expect(r2.error?.name).toBe('AuthenticationError');
    expect(accounted(r2)).toEqual(entries.map((_, i) => i));
  });

  it('needs an array, and sends nothing for an empty one', async () => {
    const { client, calls } = stubClient(server);
    expect(() => client.creditLimits.set('a@example.com' as never)).toThrow(ValidationError);
    expect(await client.creditLimits.set([])).toEqual({ updated: [], rejected: [], notSent: [], batches: 0 });
    expect(calls).toHaveLength(0);
  });
});
