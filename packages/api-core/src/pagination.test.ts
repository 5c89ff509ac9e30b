import { describe, expect, it } from 'vitest';
import { controlChange, orgUser, readinessReport, userDay } from './__fixtures__/samples.ts';
import { envelope, type StubCall, stubClient } from './__fixtures__/stub-fetch.ts';
import { PaginationError } from './errors.ts';

const range = { startDate: '2026-10-01', endDate: '2026-10-31' };
const reports = (...ids: string[]) => ({ reports: ids.map(readinessReport) });
const usersPage = (ids: string[], more: { has_more?: boolean; next_cursor?: string | null }) =>
  envelope(
    ids.map((id) => userDay(id)),
    more,
  );
const orgPage = (ids: string[], hasMore: boolean, nextCursor?: string) => ({
  users: ids.map(orgUser),
  pagination: { hasMore, nextCursor },
});
const query = (c: StubCall) => Object.fromEntries(c.url.searchParams);

describe('readiness: startAfter = last reportId, ends on an empty page or one with no new report', () => {
  it('follows pages past a short one (a server may cap its pages) and stops on an empty page', async () => {
    const { client, calls } = stubClient(
      [reports('r1', 'r2'), reports('r3'), reports('r4', 'r5'), reports()].map((body) => ({ body })),
    );
    const ids: string[] = [];
    for await (const r of client.readiness.list({ limit: 5, repoId: 'repo9' })) ids.push(r.reportId);
    expect(ids).toEqual(['r1', 'r2', 'r3', 'r4', 'r5']);
    expect(calls.map((c) => `${c.url.origin}${c.url.pathname}`)).toEqual(
      Array(4).fill('http://app.test/api/organization/maturity-level-reports'),
    );
    expect(calls.map(query)).toEqual([
      { repoId: 'repo9', limit: '5' },
      { repoId: 'repo9', limit: '5', startAfter: 'r2' },
      { repoId: 'repo9', limit: '5', startAfter: 'r3' },
      { repoId: 'repo9', limit: '5', startAfter: 'r5' },
    ]);
  });

  it('stops on an empty page after full ones, and handles an empty first page', async () => {
    const a = stubClient([{ body: reports('r1', 'r2') }, { body: reports() }]);
    expect((await a.client.readiness.list({ limit: 2 }).toArray()).map((r) => r.reportId)).toEqual([
      'r1',
      'r2',
    ]);
    expect(a.calls).toHaveLength(2);
    const b = stubClient([{ body: reports() }]);
    const page = await b.client.readiness.list();
    expect(page.items).toEqual([]);
    expect(page.hasNextPage()).toBe(false);
    expect(b.calls.map(query)).toEqual([{ limit: '100' }]);
  });

  it('gives each report once when pages overlap, and ends on a page with no new report', async () => {
    const { client, calls } = stubClient(
      [reports('r1', 'r2'), reports('r2', 'r3'), reports('r2', 'r3')].map((body) => ({ body })),
    );
    const ids = (await client.readiness.list({ limit: 2 }).toArray()).map((r) => r.reportId);
    expect(ids).toEqual(['r1', 'r2', 'r3']);
    expect(calls.map((c) => query(c).startAfter)).toEqual([undefined, 'r2', 'r3']);
  });

  it('stops a server that keeps sending full pages of new reports at the list bound', async () => {
    let n = 0;
    const { client, calls } = stubClient(() => ({ body: reports(`r${++n}`, `r${++n}`) }), {
      maxListItems: 7,
    });
    const error = await client.readiness
      .list({ limit: 2 })
      .toArray()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaginationError);
    expect((error as Error).message).toMatch(
      /^readiness\.list: pagination stopped: the list grew past 7 items/,
    );
    expect(calls).toHaveLength(4);
  });
});

describe('analytics /users: meta.has_more and meta.next_cursor -> cursor', () => {
  it('follows next_cursor until has_more is false, one page at a time', async () => {
    const { client, calls } = stubClient([
      { body: usersPage(['u1', 'u2'], { has_more: true, next_cursor: 'u2' }) },
      { body: usersPage([], { has_more: true, next_cursor: 'u3' }) },
      { body: usersPage(['u4'], { has_more: false, next_cursor: null }) },
    ]);
    const pages = [];
    for await (const page of client.analytics.users({ ...range, limit: 2 }).pages()) {
      pages.push({
        ids: page.items.map((r) => r.user_id),
        meta: page.body.meta.has_more,
        bytes: page.response.bytes,
      });
    }
    expect(pages.map((p) => p.ids)).toEqual([['u1', 'u2'], [], ['u4']]);
    expect(pages.every((p) => p.bytes > 0)).toBe(true);
    expect(calls.map((c) => query(c).cursor)).toEqual([undefined, 'u2', 'u3']);
    expect(query(calls[0]!)).toEqual({ ...range, limit: '2' });
  });

  it('stops on an empty last page and on a short page that says no more', async () => {
    const a = stubClient([{ body: usersPage([], { has_more: false }) }]);
    expect(await a.client.analytics.users(range).toArray()).toEqual([]);
    const b = stubClient([{ body: usersPage(['u1'], { has_more: false, next_cursor: 'u1' }) }]);
    expect(await b.client.analytics.users({ ...range, limit: 50 }).toArray()).toHaveLength(1);
    expect(b.calls).toHaveLength(1);
  });

  it('raises PaginationError on a repeated cursor or has_more without a cursor', async () => {
    const loop = stubClient([
      { body: usersPage(['u1'], { has_more: true, next_cursor: 'c1' }) },
      { body: usersPage(['u2'], { has_more: true, next_cursor: 'c2' }) },
      { body: usersPage(['u3'], { has_more: true, next_cursor: 'c1' }) },
    ]);
    const seen: string[] = [];
    const err = await (async () => {
      for await (const r of loop.client.analytics.users(range)) seen.push(r.user_id);
    })().catch((e) => e);
    expect(err).toBeInstanceOf(PaginationError);
    expect(err.cursor).toBe('c1');
    expect(seen).toEqual(['u1', 'u2', 'u3']);
    expect(loop.calls).toHaveLength(3);

    const noCursor = stubClient([{ body: usersPage(['u1'], { has_more: true }) }]);
    await expect(noCursor.client.analytics.users(range)).rejects.toThrow(/no cursor/);
  });
});

describe('either spelling of the paging fields, and no silent end of a list', () => {
  const camelPage = (ids: string[], more: { hasMore?: boolean; nextCursor?: string | null }) =>
    envelope(
      ids.map((id) => userDay(id)),
      more,
    );

  it('follows /users pages that carry meta.hasMore / meta.nextCursor (the published spelling)', async () => {
    const { client, calls } = stubClient([
      { body: camelPage(['u1', 'u2'], { hasMore: true, nextCursor: 'u3' }) },
      { body: camelPage(['u3', 'u4'], { hasMore: true, nextCursor: 'u5' }) },
      { body: camelPage(['u5'], { hasMore: false, nextCursor: null }) },
    ]);
    const ids = (await client.analytics.users({ ...range, limit: 2 }).toArray()).map((r) => r.user_id);
    expect(ids).toEqual(['u1', 'u2', 'u3', 'u4', 'u5']);
    expect(calls.map((c) => query(c).cursor)).toEqual([undefined, 'u3', 'u5']);
  });

  it('refuses to end the list on a full /users page with no continuation, naming the fields seen', async () => {
    const { client } = stubClient([{ body: envelope([userDay('u1'), userDay('u2')], { more: 'yes' }) }]);
    const error = await client.analytics
      .users({ ...range, limit: 2 })
      .toArray()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaginationError);
    expect((error as Error).message).toContain('analytics.users: pagination stopped: a full page');
    expect((error as Error).message).toContain('org_id, start_date, end_date, more');
  });

  it('takes a short /users page without continuation as the last one (two rows of one user is one user)', async () => {
    const { client } = stubClient([{ body: envelope([userDay('u1'), userDay('u1')]) }]);
    const rows = await client.analytics.users({ ...range, limit: 2 }).toArray();
    expect(rows).toHaveLength(2);
  });

  it('stops a list of empty pages that keep claiming more', async () => {
    let n = 0;
    const { client, calls } = stubClient(() => ({
      body: usersPage([], { has_more: true, next_cursor: `c${++n}` }),
    }));
    const error = await client.analytics
      .users(range)
      .toArray()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaginationError);
    expect((error as Error).message).toContain('3 empty pages in a row');
    expect(calls).toHaveLength(3);
  });

  it('reads v0 paging in snake_case too, and refuses a full v0 page without any', async () => {
    const a = stubClient([
      { body: { users: ['a', 'b'].map(orgUser), pagination: { has_more: true, next_cursor: 'c2' } } },
      { body: { users: ['c'].map(orgUser), pagination: { has_more: false } } },
    ]);
    expect((await a.client.orgUsers.list({ limit: 2 }).toArray()).map((u) => u.id)).toEqual(['a', 'b', 'c']);
    const b = stubClient([{ body: { users: ['a', 'b'].map(orgUser) } }]);
    await expect(b.client.orgUsers.list({ limit: 2 }).toArray()).rejects.toThrow(
      /orgUsers\.list: pagination stopped: a full page .*paging fields: none/,
    );
  });
});

describe('v0 pagination.hasMore / nextCursor (organization users, control history)', () => {
  it('walks organization users with hasNextPage() / getNextPage()', async () => {
    const { client, calls } = stubClient([
      { body: orgPage(['a', 'b'], true, 'b') },
      { body: orgPage(['c'], false) },
    ]);
    const first = await client.orgUsers.list({ limit: 2 });
    expect(first.items.map((u) => u.id)).toEqual(['a', 'b']);
    expect(first.hasNextPage()).toBe(true);
    const second = await first.getNextPage();
    expect(second.cursor).toBe('b');
    expect(second.items.map((u) => u.id)).toEqual(['c']);
    expect(second.hasNextPage()).toBe(false);
    await expect(second.getNextPage()).rejects.toBeInstanceOf(PaginationError);
    expect(calls.map(query)).toEqual([{ limit: '2' }, { limit: '2', cursor: 'b' }]);
  });

  it('walks control history, stops on an empty page, and catches a cursor loop', async () => {
    const history = (revs: number[], hasMore: boolean, nextCursor?: string) => ({
      body: { changes: revs.map(controlChange), pagination: { hasMore, nextCursor } },
    });
    const a = stubClient([history([3, 2], true, 'x'), history([], false)]);
    expect((await a.client.controls.history().toArray()).map((c) => c.revision)).toEqual([3, 2]);
    expect(a.calls.map((c) => c.url.pathname)).toEqual(
      Array(2).fill('/api/v0/organization/enterprise-controls/history'),
    );
    const b = stubClient([history([3], true, 'x'), history([2], true, 'x')]);
    await expect(b.client.controls.history({ limit: 1 }).toArray()).rejects.toBeInstanceOf(PaginationError);
    expect(b.calls).toHaveLength(2);
  });
});

describe('maxItems and laziness', () => {
  it('stops at maxItems without fetching further pages', async () => {
    const { client, calls } = stubClient([
      { body: orgPage(['a', 'b'], true, 'b') },
      { body: orgPage(['c', 'd'], true, 'd') },
      { body: orgPage(['e'], false) },
    ]);
    const ids = (await client.orgUsers.list({ limit: 2, maxItems: 3 }).toArray()).map((u) => u.id);
    expect(ids).toEqual(['a', 'b', 'c']);
    expect(calls).toHaveLength(2);

    const exact = stubClient([{ body: orgPage(['a', 'b'], true, 'b') }]);
    let pages = 0;
    for await (const _ of exact.client.orgUsers.list({ maxItems: 2 }).pages()) pages++;
    expect(pages).toBe(1);
    expect(exact.calls).toHaveLength(1);

    const none = stubClient([{ body: orgPage(['a'], false) }]);
    expect(await none.client.orgUsers.list({ maxItems: 0 }).toArray()).toEqual([]);
    expect(none.calls).toHaveLength(0);
  });

  it('sends nothing until the list is awaited or iterated', async () => {
    const { client, calls } = stubClient([{ body: orgPage(['a'], false) }]);
    const listing = client.orgUsers.list();
    expect(calls).toHaveLength(0);
    const page = await listing;
    expect(page.items).toHaveLength(1);
    expect(page.response).toMatchObject({ status: 200, operation: 'orgUsers.list', attempts: 1 });
    await listing; // the first page is fetched once
    expect(calls).toHaveLength(1);
  });
});

describe('one page of lookahead', () => {
  it('requests the next page before yielding the current one, and nothing past the last page', async () => {
    const { client, calls } = stubClient([
      { body: usersPage(['u1'], { has_more: true, next_cursor: 'c1' }) },
      { body: usersPage(['u2'], { has_more: true, next_cursor: 'c2' }) },
      { body: usersPage(['u3'], { has_more: false, next_cursor: null }) },
    ]);
    const callsWhileConsuming: number[] = [];
    for await (const _ of client.analytics.users({ ...range, limit: 1 }).pages()) {
      await new Promise((resolve) => setTimeout(resolve, 5)); // the consumer's work on a page
      callsWhileConsuming.push(calls.length);
    }
    // Page 1 is consumed while page 2 is on its way, page 2 while page 3 is; page 3 is the last.
    expect(callsWhileConsuming).toEqual([2, 3, 3]);
    expect(calls.map((c) => query(c).cursor)).toEqual([undefined, 'c1', 'c2']);
  });

  it('never prefetches a page that maxItems makes unnecessary', async () => {
    const { client, calls } = stubClient([
      { body: orgPage(['a', 'b'], true, 'b') },
      { body: orgPage(['c', 'd'], true, 'd') },
      { body: orgPage(['e', 'f'], true, 'f') },
    ]);
    const callsWhileConsuming: number[] = [];
    for await (const _ of client.orgUsers.list({ limit: 2, maxItems: 3 }).pages()) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      callsWhileConsuming.push(calls.length);
    }
    expect(callsWhileConsuming).toEqual([2, 2]);
    expect(calls).toHaveLength(2);
  });

  it('lets a consumer stop early even when the prefetched page fails', async () => {
    const { client, calls } = stubClient([
      { body: orgPage(['a'], true, 'a') },
      { status: 400, body: { title: 'bad cursor' } },
    ]);
    const seen: string[] = [];
    for await (const page of client.orgUsers.list({ limit: 1 }).pages()) {
      seen.push(...page.items.map((u) => u.id));
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 5)); // an unhandled rejection would fail the run
    expect(seen).toEqual(['a']);
    expect(calls).toHaveLength(2);
  });

  it('reports the failure of a prefetched page after the page before it was consumed', async () => {
    const { client } = stubClient(
      [{ body: orgPage(['a'], true, 'a') }, { status: 400, body: { title: 'no' } }],
      {
        maxRetries: 0,
      },
    );
    const seen: string[] = [];
    const err = await (async () => {
      for await (const user of client.orgUsers.list({ limit: 1 })) seen.push(user.id);
    })().catch((e) => e);
    expect(seen).toEqual(['a']);
    expect(err).toBeInstanceOf(Error);
    expect(String(err.message)).toContain('orgUsers.list');
  });

  it('may ask a page for its next page twice, but still catches a cursor seen at another position', async () => {
    const { client, calls } = stubClient([
      { body: orgPage(['a'], true, 'x') },
      { body: orgPage(['b'], true, 'y') },
      { body: orgPage(['c'], true, 'x') },
    ]);
    const first = await client.orgUsers.list({ limit: 1 });
    const second = await first.getNextPage();
    const again = await first.getNextPage(); // the same position: not a loop
    expect(again.cursor).toBe('x');
    const third = await second.getNextPage();
    expect(third.cursor).toBe('y');
    const err = await third.getNextPage().catch((e) => e);
    expect(err).toBeInstanceOf(PaginationError);
    expect(err.cursor).toBe('x');
    expect(calls).toHaveLength(4);
  });
});
