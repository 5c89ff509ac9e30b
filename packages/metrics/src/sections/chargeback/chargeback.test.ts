/**
 * Teams and chargeback on a small organization, hand-computed. Three people in the directory
 * (Ann and Bob in Platform / CC-1, Cy in Data / CC-2), one user (Dee) and one seat (Eve) it does
 * not list; the organization's /tokens total carries 7 credits more than the users' rows.
 */
import { describe, expect, it } from 'vitest';
import { buildReportModel } from '../../build-report-model.ts';
import { shareCents } from '../../internal/transforms/attribution.ts';
import type { DirectoryPerson, PeopleDirectory } from '../../section.ts';
import { buildSnapshot, tokensDay, userDay } from '../../testing/snapshot-builder.ts';
import type { TeamsSection } from '../teams/index.ts';
import type { ChargebackSection } from './index.ts';

const person = (
  email: string,
  team: string,
  costCenter: string,
  repositories: string[] = [],
): DirectoryPerson => ({
  email,
  team,
  costCenter,
  manager: null,
  repositories,
  attributes: {},
});
const directory: PeopleDirectory = {
  source: 'people.csv',
  people: [
    person('ann@x.test', 'Platform', 'CC-1'),
    person('BOB@x.test', 'Platform', 'CC-1'),
    person('cy@x.test', 'Data', 'CC-2'),
  ],
};

const snapshot = buildSnapshot({
  month: '2026-03',
  tokens: [
    tokensDay('2026-03-02', { billable_tokens: 1000 }),
    tokensDay('2026-03-03', { billable_tokens: 7 }),
  ],
  userDays: [
    // March: Ann 600 (4 calls / 2 messages), Bob 300 (active by a session), Cy 100 (not active), Dee 0 (active)
    userDay('a', '2026-03-02', {
      user_email: 'ann@x.test',
      billable_tokens: 600,
      tool_calls: 4,
      user_messages: 2,
    }),
    userDay('b', '2026-03-02', { user_email: 'bob@x.test', billable_tokens: 300, sessions: 1 }),
    userDay('c', '2026-03-02', { user_email: 'cy@x.test', billable_tokens: 100 }),
    userDay('d', '2026-03-03', { user_email: 'dee@x.test', billable_tokens: 0, messages: 1 }),
    // February: Ann 200, active
    userDay('a', '2026-02-10', { user_email: 'ann@x.test', billable_tokens: 200, tool_calls: 1 }),
  ],
  orgUsers: [
    { id: 'a', email: 'ann@x.test' },
    { id: 'b', email: 'bob@x.test' },
    { id: 'c', email: 'cy@x.test' },
    { id: 'e', email: 'eve@x.test' },
  ],
});
const model = buildReportModel(snapshot, {
  generatedAt: '2026-04-01T06:00:00.000Z',
  pricePerCredit: 0.0003,
  currency: 'EUR',
  pricePerSeat: 19.99,
  inputs: { directory },
});
const teams = model.sections?.teams as TeamsSection;
const chargeback = model.sections?.chargeback as ChargebackSection;

describe('teams', () => {
  it('counts each team’s seats, active users, credits and change, Unassigned last', () => {
    expect(teams.rows.map((r) => [r.team, r.seats, r.active_users, r.credits])).toEqual([
      ['Platform', 2, 2, 900],
      ['Data', 1, 0, 100],
      ['Unassigned', 1, 1, 0], // Eve's seat, Dee's activity
    ]);
    const platform = teams.rows[0]!;
    expect(platform.seat_utilization).toBe(1);
    expect(platform.share).toBe(0.9); // 900 of the users' 1,000
    expect(platform.autonomy_mean).toBe(2); // Ann 4 / 2; Bob has no user message
    expect(platform.previous_credits).toBe(200);
    expect(platform.credits_change).toBe(3.5); // (900 - 200) / 200
    expect(platform.active_users_change).toBe(1); // 2 - 1
    expect(teams.unassigned).toEqual({ active_users: 1, seats: 1, people: 2, examples: ['dee@x.test'] });
    expect(model.dataQuality.find((f) => f.kind === 'directory_unassigned')?.count).toBe(2);
  });
});

describe('chargeback', () => {
  it('charges each cost center its credits and seats; what no user carries is a row; all adds up to the cent', () => {
    // Organization: 1,007 credits x 0.0003 = 0.3021 -> 30 cents; 4 seats x 19.99 = 79.96.
    expect(chargeback.organization).toEqual({ credits: 1007, seats: 4, credit_cost: 0.3, seat_cost: 79.96 });
    const rows = chargeback.rows.map((r) => [r.cost_center, r.credits, r.seats, r.credit_cost, r.seat_cost]);
    // Credit cents 30 by credits 900/100/0/7: exact 26.81, 2.98, 0, 0.21 -> 26 + 2 + 0 + 0 = 28, and the
    // 2 cents left go to the largest remainders (.98 and .81): 27, 3, 0, 0.
    // Seat cents 7996 by seats 2/1/1/0: 3998, 1999, 1999, 0.
    expect(rows).toEqual([
      ['CC-1', 900, 2, 0.27, 39.98],
      ['CC-2', 100, 1, 0.03, 19.99],
      ['Unassigned', 0, 1, 0, 19.99],
      ['Not attributed to a user', 7, 0, 0, 0],
    ]);
    // Unassigned's people are those it charges (Eve's seat, Dee's activity), not the directory's nobody.
    expect(chargeback.rows.find((r) => r.cost_center === 'Unassigned')).toMatchObject({
      people: 2,
      active_users: 1,
    });
    // The total is not a row of the charges (a pivot of the rows is right as it stands).
    const t = chargeback.total;
    expect([t.cost_center, t.credits, t.seats, t.credit_cost, t.seat_cost]).toEqual([
      'Total (the organization)',
      1007,
      4,
      0.3,
      79.96,
    ]);
    expect(t.total_cost).toBe(80.26);
    expect(chargeback.reconciles).toBe(true);
    expect(model.dataQuality.some((f) => f.kind === 'chargeback_reconciliation')).toBe(false);
  });

  it('shares cents out by the largest remainder so the parts always add up', () => {
    expect(shareCents(100, [1, 1, 1])).toEqual([34, 33, 33]);
    expect(shareCents(7996, [2, 1, 1, 0])).toEqual([3998, 1999, 1999, 0]);
    for (let total = 0; total < 500; total += 37) {
      const parts = shareCents(total, [3, 7, 11, 0.5]);
      expect(parts.reduce((a, b) => a + b, 0)).toBe(total);
    }
  });

  it('is left out without a directory', () => {
    const plain = buildReportModel(snapshot, { generatedAt: '2026-04-01T06:00:00.000Z' });
    expect(plain.sections?.teams).toBeUndefined();
    expect(plain.sections?.chargeback).toBeUndefined();
  });
});
