/**
 * One allocation, read everywhere: the organization's chargeback, and every scoped report's share
 * of it, give a cost center the same bill to the cent, whatever report it is read in.
 *
 * The organization (March 2026, effective-dated directory): Platform (CC-1): Ann, Ivo; Data (CC-2):
 * Cy, Jo; Bob moved from Data to Platform on the 16th; Hana (Leadership, CC-1) heads everyone;
 * Dee is not in the directory. Rows: Ann 600 (2nd) + 100 (20th), Bob 50 (10th, in Data) + 300
 * (20th, in Platform), Cy 40, Dee 9. /tokens: 1,111 credits (12 carried by no user row). Seats: all
 * seven people plus Eve, who is not in the directory either.
 * Price per credit 0.0003, per seat 19.99.
 */
import { describe, expect, it } from 'vitest';
import { buildReportModel } from '../../build-report-model.ts';
import type { ReportModel } from '../../model.ts';
import { protectModel } from '../../privacy.ts';
import { indexDirectory, parseScope, resolveScope } from '../../scope.ts';
import type { DirectoryPerson, PeopleDirectory } from '../../section.ts';
import { buildSnapshot, tokensDay, userDay } from '../../testing/snapshot-builder.ts';
import { BUILTIN_SECTIONS } from '../index.ts';
import type { TeamsSection } from '../teams/index.ts';
import type { ChargebackRow, ChargebackSection } from './index.ts';

const person = (
  email: string,
  team: string,
  manager: string | null,
  extra: Partial<DirectoryPerson> = {},
): DirectoryPerson => ({
  email,
  team,
  costCenter: team === 'Data' ? 'CC-2' : 'CC-1',
  manager,
  repositories: [],
  attributes: {},
  ...extra,
});
const directory: PeopleDirectory = {
  source: 'people.csv',
  people: [
    person('hana@x.test', 'Leadership', null),
    person('ivo@x.test', 'Platform', 'hana@x.test'),
    person('jo@x.test', 'Data', 'hana@x.test'),
    person('ann@x.test', 'Platform', 'ivo@x.test'),
    person('bob@x.test', 'Data', 'jo@x.test'),
    person('bob@x.test', 'Platform', 'ivo@x.test', { validFrom: '2026-03-16' }),
    person('cy@x.test', 'Data', 'jo@x.test'),
  ],
};
const day = (id: string, date: string, credits: number) =>
  userDay(id, date, {
    user_email: `${id}@x.test`,
    billable_tokens: credits,
    tool_calls: 1,
    user_messages: 1,
  });
const snapshot = buildSnapshot({
  month: '2026-03',
  tokens: [
    tokensDay('2026-03-02', { billable_tokens: 1000 }),
    tokensDay('2026-03-20', { billable_tokens: 111 }),
  ],
  userDays: [
    day('ann', '2026-03-02', 600),
    day('ann', '2026-03-20', 100),
    day('bob', '2026-03-10', 50),
    day('bob', '2026-03-20', 300),
    day('cy', '2026-03-02', 40),
    day('dee', '2026-03-03', 9),
  ],
  orgUsers: ['hana', 'ivo', 'jo', 'ann', 'bob', 'cy', 'dee', 'eve'].map((id) => ({
    id,
    email: `${id}@x.test`,
  })),
});
const options = {
  generatedAt: '2026-04-01T06:00:00.000Z',
  pricePerCredit: 0.0003,
  currency: 'EUR',
  pricePerSeat: 19.99,
  inputs: { directory },
};
const organization = buildReportModel(snapshot, options);
const index = indexDirectory(directory, snapshot.manifest.fetchedRange, { managers: true });
const scoped = (text: string) =>
  buildReportModel(snapshot, {
    ...options,
    scope: { scope: resolveScope(index, parseScope(text)), organization },
  });
const chargebackOf = (m: ReportModel) => m.sections?.chargeback as ChargebackSection;
const teamsOf = (m: ReportModel) => m.sections?.teams as TeamsSection;
const bill = (r: ChargebackRow) => [r.people, r.seats, r.credits, r.credit_cost, r.seat_cost, r.total_cost];
const row = (m: ReportModel, costCenter: string) =>
  chargebackOf(m).rows.find((r) => r.cost_center === costCenter)!;
const cents = (x: number | null) => Math.round((x ?? 0) * 100);

describe('one allocation', () => {
  it("charges a mover's credits by day and their seat to one cost center, hand-computed", () => {
    // Credits: CC-1 = Ann 700 + Bob 300 = 1,000; CC-2 = Bob 50 + Cy 40 = 90; Unassigned 9; 12 unattributed.
    // Credit cents: 1,111 x 0.0003 = 0.3333 -> 33; by 1000/90/9/12: 29.70, 2.67, 0.27, 0.36 ->
    // 29 + 2 + 0 + 0 = 31, the 2 left to .70 and .67: 30, 3, 0, 0.
    // Seats: Bob's goes to CC-1 (his cost center on the 31st): CC-1 Hana, Ivo, Ann, Bob = 4; CC-2 Jo, Cy = 2;
    // Unassigned Dee, Eve = 2. 8 x 19.99 = 159.92 -> 79.96, 39.98, 39.98.
    expect(chargebackOf(organization).rows.map((r) => [r.cost_center, ...bill(r)])).toEqual([
      ['CC-1', 4, 4, 1000, 0.3, 79.96, 80.26],
      ['CC-2', 2, 2, 90, 0.03, 39.98, 40.01],
      ['Unassigned', 2, 2, 9, 0, 39.98, 39.98], // its people: Dee and Eve, whom it charges
      ['Not attributed to a user', 0, 0, 12, 0, 0, 0],
    ]);
  });

  it('gives each cost center the same bill in its own report as in the organization’s', () => {
    for (const name of ['CC-1', 'CC-2']) {
      const own = scoped(`cost-center:${name}`);
      expect(chargebackOf(own).rows.map((r) => r.cost_center)).toEqual([name]);
      expect(bill(row(own, name))).toEqual(bill(row(organization, name)));
      // The mover's seat is charged once: to CC-1, never also to CC-2.
      expect(row(own, name).seats).toBe(name === 'CC-1' ? 4 : 2);
    }
  });

  it("shows a scope's share of a cost center as the cents of the organization's bill", () => {
    // Team Platform is in CC-1 only; Data in CC-2 only; Bob's days count to each.
    const platform = scoped('team:Platform');
    const data = scoped('team:Data');
    expect(bill(row(platform, 'CC-1'))).toEqual([3, 3, 1000, 0.3, 59.97, 60.27]);
    expect(chargebackOf(data).rows.map((r) => [r.cost_center, r.credits, r.seats])).toEqual([
      ['CC-2', 90, 2],
    ]);
    // A team's share plus Leadership's is its cost center's bill, to the cent.
    const leadership = scoped('team:Leadership');
    expect(cents(row(platform, 'CC-1').total_cost) + cents(row(leadership, 'CC-1').total_cost)).toBe(
      cents(row(organization, 'CC-1').total_cost),
    );
    // Everyone under Hana: both cost centers, each the organization's bill less what Hana's own seat carries.
    const hana = scoped('manager:hana@x.test');
    expect(chargebackOf(hana).rows.map((r) => r.cost_center)).toEqual(['CC-1', 'CC-2']);
    expect(row(hana, 'CC-2').total_cost).toBe(row(organization, 'CC-2').total_cost);
    expect(
      cents(row(hana, 'CC-1').total_cost) + cents(row(scoped('team:Leadership'), 'CC-1').total_cost),
    ).toBe(cents(row(organization, 'CC-1').total_cost));
  });

  it('adds the cost centers’ own reports and the organization’s other rows up to its total, to the cent', () => {
    const owners = ['CC-1', 'CC-2'].map((n) => cents(row(scoped(`cost-center:${n}`), n).total_cost));
    const rest = chargebackOf(organization)
      .rows.filter((r) => !['CC-1', 'CC-2'].includes(r.cost_center))
      .map((r) => cents(r.total_cost));
    expect([...owners, ...rest].reduce((a, b) => a + b, 0)).toBe(
      cents(chargebackOf(organization).total.total_cost),
    );
  });

  it('makes the teams of the organization add up to its chargeback, cost by cost', () => {
    const teams = teamsOf(organization).rows;
    for (const cc of chargebackOf(organization).rows.filter((r) => r.kind === 'cost_center')) {
      const ofCenter = teams.filter((t) => t.cost_center === cc.cost_center);
      expect(
        ofCenter.reduce((a, t) => a + cents(t.total_cost), 0),
        cc.cost_center,
      ).toBe(cents(cc.total_cost));
      expect(
        ofCenter.reduce((a, t) => a + t.seats, 0),
        cc.cost_center,
      ).toBe(cc.seats);
    }
  });

  it('counts a mover active in both teams in both, and once in the organization, as the definitions page says', () => {
    // Bob: active on the 10th in Data and on the 20th in Platform. Platform: Ann, Bob; Data: Bob, Cy.
    const active = (team: string) => teamsOf(organization).rows.find((t) => t.team === team)!.active_users;
    expect([active('Platform'), active('Data')]).toEqual([2, 2]);
    // Ann, Bob, Cy and Dee (not in the directory): 4, where the teams and Unassigned list 5.
    expect(organization.figures.find((f) => f.id === 'active_users')!.value).toBe(4);
    expect(teamsOf(organization).unassigned.active_users).toBe(1);
    const teamsDefinition = organization.definitions.find((d) => d.id === 'teams')!.text;
    expect(teamsDefinition).toContain('one active in both teams is an active user of both');
  });

  it('counts a scope’s seats by one rule: its teams and chargeback say what its Seats figure says', () => {
    for (const text of [
      'team:Platform',
      'team:Data',
      'cost-center:CC-1',
      'manager:hana@x.test',
      'manager:jo@x.test',
    ]) {
      const m = scoped(text);
      const seats = m.figures.find((f) => f.id === 'seats')!.value;
      expect(
        teamsOf(m).rows.reduce((a, t) => a + t.seats, 0),
        text,
      ).toBe(seats);
      expect(chargebackOf(m).total.seats, text).toBe(seats);
      expect(chargebackOf(m).total.credits, text).toBe(m.figures.find((f) => f.id === 'credits')!.value);
    }
  });

  it("never holds back a cost-center owner's own cost center, nor a team's own team", () => {
    const groupsOnly = (m: ReportModel) =>
      protectModel(m, {
        policy: { minGroupSize: 5, personRows: 'none' },
        sections: BUILTIN_SECTIONS,
        people: [],
      });
    // CC-2 has one active user this month: under 5, yet its owner sees their own bill.
    const cc2 = groupsOnly(scoped('cost-center:CC-2'));
    expect(bill(row(cc2, 'CC-2'))).toEqual(bill(row(organization, 'CC-2')));
    const data = groupsOnly(scoped('team:Data'));
    expect(teamsOf(data).rows.map((t) => t.team)).toEqual(['Data']);
    // In the organization's report read by groups, the small groups are still held back.
    const org = groupsOnly(organization);
    expect(chargebackOf(org).rows.map((r) => r.cost_center)).not.toContain('CC-2');
  });
});
