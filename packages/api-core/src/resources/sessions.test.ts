import { describe, expect, it } from 'vitest';
import { message, session } from '../__fixtures__/samples.ts';
import { stubClient } from '../__fixtures__/stub-fetch.ts';

describe('sessions, messages and computers', () => {
  it('creates a session with POST and the given body', async () => {
    const { client, calls } = stubClient([{ status: 201, body: session('ses_1') }]);
    const created = await client.sessions.create({
      computerId: 'cmp_1',
      cwd: '/home/dev/app',
      sessionSettings: { model: 'model-a', tags: [{ name: 'report', metadata: {} }] },
    });
    expect(created.sessionId).toBe('ses_1');
    expect(calls[0]).toMatchObject({ method: 'POST' });
    expect(calls[0]?.url.pathname).toBe('/api/v0/sessions');
    expect(calls[0]?.headers.get('content-type')).toBe('application/json');
    expect(calls[0]?.body).toEqual({
      computerId: 'cmp_1',
      cwd: '/home/dev/app',
      sessionSettings: { model: 'model-a', tags: [{ name: 'report', metadata: {} }] },
    });
  });

  it('gets and updates a session, escaping ids and passing computerId', async () => {
    const { client, calls } = stubClient([{ body: session('a/b') }]);
    await client.sessions.get('a/b', { computerId: 'cmp 1' });
    await client.sessions.update('a/b', { sessionSettings: { runInWorktree: true } });
    expect(calls[0]?.url.pathname).toBe('/api/v0/sessions/a%2Fb');
    expect(calls[0]?.url.searchParams.get('computerId')).toBe('cmp 1');
    expect(calls[1]).toMatchObject({ method: 'PATCH', body: { sessionSettings: { runInWorktree: true } } });
  });

  it('reads one message of a session', async () => {
    const { client, calls } = stubClient([{ body: message('m1') }]);
    const m = await client.sessions.messages.get('s1', 'm1', { computerId: 'c1' });
    expect(m).toMatchObject({ id: 'm1', role: 'user', content: [{ text: 'hello' }] });
    expect(`${calls[0]?.url.pathname}${calls[0]?.url.search}`).toBe(
      '/api/v0/sessions/s1/messages/m1?computerId=c1',
    );
  });

  it('rejects a session whose status is missing, naming the field', async () => {
    const { sessionId, messageCount, createdAt, updatedAt } = session('s1');
    const { client } = stubClient([{ body: { sessionId, messageCount, createdAt, updatedAt } }]);
    await expect(client.sessions.get('s1')).rejects.toMatchObject({
      operation: 'sessions.get',
      path: 'status',
    });
  });

  it('lists computers', async () => {
    const { client, calls } = stubClient([{ body: { computers: [{ id: 'cmp_1', hostname: 'dev-box' }] } }]);
    expect(await client.computers.list()).toEqual([{ id: 'cmp_1', hostname: 'dev-box' }]);
    expect(calls[0]?.url.pathname).toBe('/api/v0/computers');
  });
});
