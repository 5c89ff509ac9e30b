/** What the watch reads from the store equals what the API served. */
import { eachDay } from '@orgreport/api-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syncStore } from './sync.ts';
import { emulated, now, tempStore } from './testing/emulated.ts';
import { readWatchHistory } from './watch-history.ts';

let env: Awaited<ReturnType<typeof emulated>>;
beforeAll(async () => {
  env = await emulated({
    plant: [{ kind: 'security-change', day: '2026-10-05', setting: 'sandbox.enabled' }],
  });
});
afterAll(() => env.emulator.close());

describe('readWatchHistory', () => {
  it("reads the days held, each day's and each user's credits, and the control revisions as the API sent them", async () => {
    const store = tempStore();
    const { orgId } = await syncStore(store, {
      client: env.client,
      now,
      toolVersion: 't',
      since: '2026-09-20',
      until: '2026-10-10',
    });
    const org = env.emulator.organization;
    const h = await readWatchHistory(store, orgId, { since: '2026-10-01' });
    expect(h.held).toEqual([{ start: '2026-10-01', end: '2026-10-10' }]);
    expect(h.orgDays).toEqual(
      eachDay('2026-10-01', '2026-10-10').map((date) => ({
        date,
        credits: org.tokensDay(date).billable_tokens,
      })),
    );
    const expected = [...org.userDays({ start: '2026-10-01', end: '2026-10-10' })]
      .map((r) => ({ date: r.date, userId: r.user_id, email: r.user_email, credits: r.billable_tokens }))
      .sort((a, b) => (a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : a.date < b.date ? -1 : 1));
    expect(h.userDays).toEqual(expected);
    // The revisions the sync kept (up to its last day), with who and when, settings parsed back.
    const planted = h.controls.find((c) => c.updatedAt === '2026-10-05T12:00:00.000Z')!;
    const served = org.controlHistory.find((c) => c.revision === planted.revision)!;
    expect(planted.user).toEqual(served.user);
    expect(planted.settings.sandbox).toEqual(served.settings.sandbox);
    expect(h.controls.every((c) => c.updatedAt < '2026-10-11')).toBe(true);
    expect(h.controls.map((c) => c.revision)).toEqual(
      [...h.controls.map((c) => c.revision)].sort((a, b) => a - b),
    );
    await expect(readWatchHistory(store, 'org_nobody')).rejects.toThrow(
      /holds no data of organization org_nobody/,
    );
  });
});
