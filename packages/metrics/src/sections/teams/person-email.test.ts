/**
 * One e-mail per person, the one their rows give them last (else their seat's), in every part of
 * every report. Hand-computed, at 0.01 a credit and 10 a seat:
 * - Ann's seat still has her old e-mail (ann.old@x.test); her rows say ann@x.test, who is in
 *   Platform under Ivo. Her seat is Platform's, not Unassigned's.
 * - Bob moved from Data (Jo) to Platform (Ivo) on 2026-03-16 and changed e-mail on the way: his
 *   rows of 2026-02-10 (50 credits) and 2026-03-10 (100) say bob.old@x.test, of 2026-03-20 (300)
 *   bob@x.test, the e-mail the directory lists. Jo's report keeps his Data days, under his e-mail.
 */
import { describe, expect, it } from 'vitest';
import { buildReportModel } from '../../build-report-model.ts';
import { indexDirectory, parseScope, resolveScope } from '../../scope.ts';
import type { DirectoryPerson, PeopleDirectory } from '../../section.ts';
import { buildSnapshot, tokensDay, userDay } from '../../testing/snapshot-builder.ts';
import type { ChargebackSection } from '../chargeback/index.ts';
import type { TeamsSection } from './index.ts';

const person = (
  email: string,
  team: string,
  manager: string | null,
  validFrom?: string,
): DirectoryPerson => ({
  email,
  team,
  costCenter: team === 'Data' ? 'CC-2' : team === 'Platform' ? 'CC-1' : 'CC-0',
  manager,
  repositories: [],
  attributes: {},
  ...(validFrom && { validFrom }),
});
const directory: PeopleDirectory = {
  source: 'people.csv',
  people: [
    person('ivo@x.test', 'Lead', null),
    person('jo@x.test', 'Lead', null),
    person('ann@x.test', 'Platform', 'ivo@x.test'),
    person('bob@x.test', 'Data', 'jo@x.test'),
    person('bob@x.test', 'Platform', 'ivo@x.test', '2026-03-16'),
    person('cy@x.test', 'Data', 'jo@x.test'),
  ],
};
const rows = [
  userDay('a', '2026-03-02', { user_email: 'ann@x.test', billable_tokens: 600, tool_calls: 2 }),
  userDay('b', '2026-02-10', { user_email: 'bob.old@x.test', billable_tokens: 50, tool_calls: 1 }),
  userDay('b', '2026-03-10', { user_email: 'bob.old@x.test', billable_tokens: 100, tool_calls: 1 }),
  userDay('b', '2026-03-20', { user_email: 'bob@x.test', billable_tokens: 300, tool_calls: 1 }),
  userDay('c', '2026-03-02', { user_email: 'cy@x.test', billable_tokens: 40, tool_calls: 1 }),
];
const snapshot = buildSnapshot({
  month: '2026-03',
  tokens: [...new Set(rows.map((r) => r.date))].map((d) =>
    tokensDay(d, {
      billable_tokens: rows.filter((r) => r.date === d).reduce((a, r) => a + r.billable_tokens, 0),
    }),
  ),
  userDays: rows,
  orgUsers: [
    { id: 'a', email: 'ann.old@x.test' },
    { id: 'b', email: 'bob@x.test' },
    { id: 'c', email: 'cy@x.test' },
    { id: 'i', email: 'ivo@x.test' },
    { id: 'j', email: 'jo@x.test' },
  ],
});
const options = {
  generatedAt: '2026-04-01T06:00:00.000Z',
  pricePerCredit: 0.01,
  pricePerSeat: 10,
  currency: 'EUR',
  inputs: { directory },
};
const organization = buildReportModel(snapshot, options);
const index = indexDirectory(directory, snapshot.manifest.fetchedRange, { managers: true });
const reportOf = (scope: string) =>
  buildReportModel(snapshot, {
    ...options,
    scope: { scope: resolveScope(index, parseScope(scope)), organization },
  });
const teamsOf = (model: typeof organization) => model.sections?.teams as TeamsSection;
const chargebackOf = (model: typeof organization) => model.sections?.chargeback as ChargebackSection;

describe('a person’s one e-mail', () => {
  it('places a seat with its user, whatever e-mail the seat still has', () => {
    const platform = teamsOf(organization).rows.find((r) => r.team === 'Platform')!;
    // Ann's seat and Bob's (Platform on the period's last day): 2 seats, 20.00.
    expect([platform.seats, platform.seat_cost]).toEqual([2, 20]);
    expect(teamsOf(organization).rows.some((r) => r.team === 'Unassigned')).toBe(false);
    expect(chargebackOf(organization).rows.some((r) => r.cost_center === 'Unassigned')).toBe(false);
    expect(organization.dataQuality.some((f) => f.kind === 'directory_unassigned')).toBe(false);
    const ivo = reportOf('manager:ivo@x.test');
    // Ann and Bob: 2 seats, both active in Ivo's days.
    expect([ivo.seats.seats, ivo.seats.utilization]).toEqual([2, 1]);
  });

  it('names a mover in the old manager’s report by the e-mail the organization knows, with the days and money that are theirs', () => {
    const jo = reportOf('manager:jo@x.test');
    // Bob's Data days: 100 credits on 2026-03-10 = 1.00; Cy 40 = 0.40.
    expect(jo.users.map((u) => [u.email, u.team, u.credits, u.cost])).toEqual([
      ['bob@x.test', 'Data', 100, 1],
      ['cy@x.test', 'Data', 40, 0.4],
    ]);
    const cents = jo.users.reduce((a, u) => a + Math.round((u.cost ?? 0) * 100), 0);
    expect(cents / 100).toBe(chargebackOf(jo).total.credit_cost);
    // February: Bob's 50 credits in Data, as in the organization's report.
    const data = teamsOf(jo).rows.find((r) => r.team === 'Data')!;
    const orgData = teamsOf(organization).rows.find((r) => r.team === 'Data')!;
    expect([data.previous_credits, orgData.previous_credits]).toEqual([50, 50]);
    expect(teamsOf(jo).rows.some((r) => r.team === 'Unassigned')).toBe(false);
  });

  it('brings nobody outside a scope into its report, by any of their e-mails', () => {
    // Ann (both e-mails) and Ivo are outside Jo's scope; Cy is outside Ivo's.
    const jo = JSON.stringify(reportOf('manager:jo@x.test'));
    for (const outside of ['ann@x.test', 'ann.old@x.test', 'ivo@x.test']) expect(jo).not.toContain(outside);
    const ivo = JSON.stringify(reportOf('manager:ivo@x.test'));
    expect(ivo).not.toContain('cy@x.test');
    expect(ivo).toContain('ann@x.test');
  });
});
