/**
 * Fractional credits (the API's credits are a plain number): the cost centers, summed in another
 * order than the organization's days, still reconcile. Ann (CC-1) 0.1 on the 2nd and 0.7 on the
 * 3rd, Bob (CC-2) 0.3 on the 2nd; /tokens 0.4 and 0.7: CC-1 is 0.1 + 0.7 = 0.7999999999999999 in
 * floating point, the total 1.0999999999999999 against the organization's 0.4 + 0.7 = 1.1.
 */
import { describe, expect, it } from 'vitest';
import { buildReportModel } from '../../build-report-model.ts';
import { indexDirectory, parseScope, resolveScope } from '../../scope.ts';
import type { DirectoryPerson, PeopleDirectory } from '../../section.ts';
import { buildSnapshot, tokensDay, userDay } from '../../testing/snapshot-builder.ts';
import type { ChargebackSection } from './index.ts';

const person = (email: string, costCenter: string, manager: string | null): DirectoryPerson => ({
  email,
  team: costCenter === 'CC-1' ? 'Platform' : 'Data',
  costCenter,
  manager,
  repositories: [],
  attributes: {},
});
const directory: PeopleDirectory = {
  source: 'people.csv',
  people: [
    person('ivo@x.test', 'CC-1', null),
    person('ann@x.test', 'CC-1', 'ivo@x.test'),
    person('bob@x.test', 'CC-2', 'ivo@x.test'),
  ],
};
const snapshot = buildSnapshot({
  month: '2026-03',
  tokens: [
    tokensDay('2026-03-02', { billable_tokens: 0.4 }),
    tokensDay('2026-03-03', { billable_tokens: 0.7 }),
  ],
  userDays: [
    userDay('a', '2026-03-02', { user_email: 'ann@x.test', billable_tokens: 0.1, tool_calls: 1 }),
    userDay('a', '2026-03-03', { user_email: 'ann@x.test', billable_tokens: 0.7, tool_calls: 1 }),
    userDay('b', '2026-03-02', { user_email: 'bob@x.test', billable_tokens: 0.3, tool_calls: 1 }),
  ],
  orgUsers: [
    { id: 'a', email: 'ann@x.test' },
    { id: 'b', email: 'bob@x.test' },
    { id: 'i', email: 'ivo@x.test' },
  ],
});
const options = {
  generatedAt: '2026-04-01T06:00:00.000Z',
  pricePerCredit: 10,
  currency: 'EUR',
  inputs: { directory },
};

describe('fractional credits', () => {
  it('reconcile in the organization’s chargeback, with no finding', () => {
    expect(0.1 + 0.7 + 0.3).not.toBe(0.4 + 0.7); // the case this test is about
    const model = buildReportModel(snapshot, options);
    const chargeback = model.sections?.chargeback as ChargebackSection;
    expect(chargeback.reconciles).toBe(true);
    expect(model.dataQuality.some((f) => f.kind === 'chargeback_reconciliation')).toBe(false);
    // 1.1 x 10 = 11.00 EUR, every cent in the rows; no credit is left over for no user.
    expect(chargeback.total.credit_cost).toBe(11);
    const unattributed = chargeback.rows.find((r) => r.kind === 'unattributed')!;
    expect([unattributed.credits, unattributed.credit_cost]).toEqual([0, 0]);
  });

  it('reconcile in a manager’s report', () => {
    const organization = buildReportModel(snapshot, options);
    const index = indexDirectory(directory, snapshot.manifest.fetchedRange, { managers: true });
    const scope = resolveScope(index, parseScope('manager:ivo@x.test'));
    const report = buildReportModel(snapshot, { ...options, scope: { scope, organization } });
    const chargeback = report.sections?.chargeback as ChargebackSection;
    expect(chargeback.reconciles).toBe(true);
  });
});
