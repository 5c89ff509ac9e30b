/**
 * The users' credit costs add up to the bill when one person (one e-mail) has two user ids (an
 * account made again): the person's share of the allocation is split over their ids by credits,
 * not given whole to each. Hand-computed: Ann as ids a (100 credits) and a2 (200), Bob 300;
 * 600 credits x 0.00333333 = 1.999998 -> 200 cents; Platform's 200 cents by person: Ann 100, Bob 100;
 * Ann's 100 by credits 100 / 200: exact 33.33 and 66.67 -> 33 + 66 and the cent left to the larger
 * remainder: 33 and 67.
 */
import { describe, expect, it } from 'vitest';
import { buildReportModel } from '../../build-report-model.ts';
import type { DirectoryPerson, PeopleDirectory } from '../../section.ts';
import { buildSnapshot, tokensDay, userDay } from '../../testing/snapshot-builder.ts';
import type { ChargebackSection } from './index.ts';

const person = (email: string): DirectoryPerson => ({
  email,
  team: 'Platform',
  costCenter: 'CC-1',
  manager: null,
  repositories: [],
  attributes: {},
});
const directory: PeopleDirectory = {
  source: 'people.csv',
  people: [person('ann@x.test'), person('bob@x.test')],
};
const snapshot = buildSnapshot({
  month: '2026-03',
  tokens: [tokensDay('2026-03-02', { billable_tokens: 600 })],
  userDays: [
    userDay('a', '2026-03-02', { user_email: 'ann@x.test', billable_tokens: 100, tool_calls: 1 }),
    userDay('a2', '2026-03-02', { user_email: 'ANN@x.test', billable_tokens: 200, tool_calls: 1 }),
    userDay('b', '2026-03-02', { user_email: 'bob@x.test', billable_tokens: 300, tool_calls: 1 }),
  ],
  orgUsers: [
    { id: 'a', email: 'ann@x.test' },
    { id: 'a2', email: 'ann@x.test' },
    { id: 'b', email: 'bob@x.test' },
  ],
});

describe('users’ credit costs', () => {
  it('split a person’s share over their user ids by credits, so the users add up to the bill', () => {
    const model = buildReportModel(snapshot, {
      generatedAt: '2026-04-01T06:00:00.000Z',
      pricePerCredit: 0.00333333,
      currency: 'EUR',
      inputs: { directory },
    });
    const chargeback = model.sections?.chargeback as ChargebackSection;
    expect(chargeback.organization.credit_cost).toBe(2);
    expect(model.users.map((u) => [u.user_id, u.team, u.cost])).toEqual([
      ['b', 'Platform', 1],
      ['a2', 'Platform', 0.67],
      ['a', 'Platform', 0.33],
    ]);
    const cents = model.users.reduce((sum, u) => sum + Math.round((u.cost ?? 0) * 100), 0);
    expect(cents).toBe(200);
    // The definitions page says so, next to the chargeback's.
    const ids = model.definitions.map((d) => d.id);
    expect(ids.indexOf('user_cost')).toBe(ids.indexOf('chargeback') + 1);
    expect(model.definitions.find((d) => d.id === 'user_cost')?.text).toContain('several user ids');
  });
});
