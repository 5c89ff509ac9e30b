import {
  analyticsResponseSchema,
  controlHistoryResponseSchema,
  eachDay,
  tokensDaySchema,
  type UserDay,
  userDaySchema,
} from '@orgreport/api-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creditsOf } from './activity.ts';
import { createOrganization, type RunningEmulator, startEmulator } from './index.ts';

const TODAY = '2026-11-22';
const BASE = { seed: 7, users: 30, today: TODAY } as const;
const clean = createOrganization(BASE);
/** A user active on most days, so that the spike shows. */
const SPIKED = 8;
const FROM = '2026-10-07';

describe('planted security change', () => {
  const planted = createOrganization({
    ...BASE,
    plant: [{ kind: 'security-change', day: '2026-10-05', setting: 'enableAgentShield' }],
  });
  const cleanAsc = [...clean.controlHistory].reverse();
  const plantedAsc = [...planted.controlHistory].reverse();

  it('is one more revision on its day, by the owner, flipping the setting of the revision before it', () => {
    expect(plantedAsc.length).toBe(cleanAsc.length + 1);
    const at = plantedAsc.findIndex(
      (c) => c.updatedAt.startsWith('2026-10-05') && c.updatedAt.endsWith('T12:00:00.000Z'),
    );
    expect(at).toBeGreaterThan(0);
    const change = plantedAsc[at]!;
    const before = plantedAsc[at - 1]!;
    expect(change.revision).toBe(before.revision + 1);
    const owner = planted.identity(0);
    expect(change.user).toEqual({
      id: owner.id,
      email: owner.email,
      name: `${owner.firstName} ${owner.lastName}`,
    });
    expect(change.settings.enableAgentShield).toBe(!before.settings.enableAgentShield);
    // Nothing else of the settings moved.
    expect({ ...change.settings, enableAgentShield: null }).toEqual({
      ...before.settings,
      enableAgentShield: null,
    });
  });

  it('leaves the natural revisions on their days and carries the flipped value into every later one', () => {
    const natural = plantedAsc.filter((c) => !c.updatedAt.endsWith('T12:00:00.000Z'));
    expect(natural.map((c) => [c.updatedAt, c.user])).toEqual(cleanAsc.map((c) => [c.updatedAt, c.user]));
    natural.forEach((c, i) => {
      const original = cleanAsc[i]!;
      if (c.updatedAt < '2026-10-05') {
        expect(c).toEqual(original);
      } else {
        // enableAgentShield is only ever toggled: after the plant it is the natural value flipped.
        expect(c.revision).toBe(original.revision + 1);
        expect(c.settings.enableAgentShield).toBe(!original.settings.enableAgentShield);
        expect({ ...c.settings, enableAgentShield: null }).toEqual({
          ...original.settings,
          enableAgentShield: null,
        });
      }
    });
  });

  it('sets a value when one is given, and refuses a path that is no boolean setting', () => {
    const set = createOrganization({
      ...BASE,
      plant: [
        {
          kind: 'security-change',
          day: '2026-10-05',
          setting: 'sandbox.network.allowedDomains',
          value: ['*'],
        },
      ],
    });
    const change = set.controlHistory.find((c) => c.updatedAt === '2026-10-05T12:00:00.000Z')!;
    expect(change.settings.sandbox?.network?.allowedDomains).toEqual(['*']);
    expect(() =>
      createOrganization({
        ...BASE,
        plant: [{ kind: 'security-change', day: '2026-10-05', setting: 'commandAllowlist' }],
      }),
    ).toThrow(/commandAllowlist is not a boolean/);
    expect(() =>
      createOrganization({
        ...BASE,
        plant: [{ kind: 'security-change', day: '2026-11-22', setting: 'enableAgentShield' }],
      }),
    ).toThrow(/day must be a day from 2026-01-14 to the day before today/);
  });
});

describe('planted credit spike', () => {
  const factor = 8;
  const planted = createOrganization({
    ...BASE,
    plant: [{ kind: 'credit-spike', user: SPIKED, from: FROM, factor }],
  });
  const october = { start: '2026-10-01', end: '2026-10-20' };

  it("multiplies the user's tokens from the day on and leaves everything else as it was", () => {
    let spikedDays = 0;
    for (const day of eachDay(october.start, october.end)) {
      for (let i = 0; i < BASE.users; i++) {
        const a = clean.userDay(i, day);
        const b = planted.userDay(i, day);
        if (i !== SPIKED || day < FROM) {
          expect(b).toEqual(a);
          continue;
        }
        if (!a) {
          expect(b).toBeUndefined();
          continue;
        }
        spikedDays++;
        // Credits are those of the multiplied tokens, model by model.
        const detail = clean.userDayDetail(i, day)!;
        const expected = detail.models.reduce(
          (s, m) =>
            s +
            creditsOf(
              m.model,
              Math.round(m.input * factor),
              Math.round(m.cacheRead * factor),
              Math.round(m.output * factor),
            ),
          0,
        );
        expect(b!.billable_tokens).toBe(expected);
        expect(b!.billable_tokens / a.billable_tokens).toBeCloseTo(factor, 2);
        expect({ ...b!, billable_tokens: 0 }).toEqual({ ...a, billable_tokens: 0 });
      }
    }
    expect(spikedDays).toBeGreaterThan(5);
  });

  it('moves the daily totals by exactly the user’s extra credits', () => {
    for (const day of eachDay(october.start, october.end)) {
      const extra =
        (planted.userDay(SPIKED, day)?.billable_tokens ?? 0) -
        (clean.userDay(SPIKED, day)?.billable_tokens ?? 0);
      expect(planted.tokensDay(day).billable_tokens - clean.tokensDay(day).billable_tokens).toBe(extra);
      if (day < FROM) expect(extra).toBe(0);
      else if (clean.isActive(SPIKED, day)) expect(extra).toBeGreaterThan(0);
    }
  });

  it('refuses a user out of range and a factor that is not above 0', () => {
    expect(() =>
      createOrganization({ ...BASE, plant: [{ kind: 'credit-spike', user: 30, from: FROM, factor: 2 }] }),
    ).toThrow(/user must be a user index from 0 to 29/);
    expect(() =>
      createOrganization({ ...BASE, plant: [{ kind: 'credit-spike', user: 1, from: FROM, factor: 0 }] }),
    ).toThrow(/factor must be a number above 0/);
  });
});

describe('planted events over HTTP', () => {
  let emu: RunningEmulator;
  beforeAll(async () => {
    emu = await startEmulator({
      ...BASE,
      plant: [
        { kind: 'security-change', day: '2026-10-05', setting: 'sandbox.enabled', by: 1 },
        { kind: 'credit-spike', user: SPIKED, from: FROM, factor: 8 },
      ],
    });
  });
  afterAll(() => emu.close());

  async function get(path: string): Promise<unknown> {
    const res = await fetch(`${emu.baseUrl}${path}`, {
      headers: { authorization: `Bearer ${emu.keys.owner}` },
    });
    expect(res.status).toBe(200);
    return res.json();
  }

  it('serves the planted revision in the control history with its user and time', async () => {
    const page = controlHistoryResponseSchema.parse(
      await get('/api/v0/organization/enterprise-controls/history?limit=100'),
    );
    const change = page.changes.find((c) => c.updatedAt === '2026-10-05T12:00:00.000Z');
    const manager = emu.organization.identity(1);
    expect(change?.user).toEqual({
      id: manager.id,
      email: manager.email,
      name: `${manager.firstName} ${manager.lastName}`,
    });
    const before = page.changes.find((c) => c.revision === change!.revision - 1)!;
    expect(change!.settings.sandbox?.enabled).toBe(!before.settings.sandbox?.enabled);
  });

  it('shows the spike the same in /users, /tokens by_user and the /tokens totals', async () => {
    const range = 'startDate=2026-10-06&endDate=2026-10-09';
    const tokens = analyticsResponseSchema(tokensDaySchema).parse(
      await get(`/api/v1/analytics/tokens?${range}`),
    ).data;
    const rows: UserDay[] = [];
    let cursor: string | null | undefined;
    do {
      const body = (await get(
        `/api/v1/analytics/users?${range}&limit=100${cursor ? `&cursor=${cursor}` : ''}`,
      )) as {
        meta: { next_cursor: string | null };
      };
      rows.push(...analyticsResponseSchema(userDaySchema).parse(body).data);
      cursor = body.meta.next_cursor;
    } while (cursor);
    const user = emu.organization.identity(SPIKED).id;
    for (const day of tokens) {
      const ofDay = rows.filter((r) => r.date === day.date);
      expect(ofDay.reduce((s, r) => s + r.billable_tokens, 0)).toBe(day.billable_tokens);
      const mine = ofDay.find((r) => r.user_id === user);
      const byUser = day.by_user?.find((u) => u.user_id === user);
      expect(byUser?.billable_tokens).toBe(mine?.billable_tokens);
      expect((day.by_model ?? []).reduce((s, m) => s + m.billable_tokens, 0)).toBe(day.billable_tokens);
      const cleanRow = clean.userDay(SPIKED, day.date);
      if (mine && day.date >= FROM)
        expect(mine.billable_tokens / cleanRow!.billable_tokens).toBeCloseTo(8, 2);
      if (day.date < FROM) expect(mine).toEqual(cleanRow);
    }
  });
});
