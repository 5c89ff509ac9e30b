/**
 * What to do this month, hand-computed on a small team (October 2026, Platform: Ann, Bob, Cy, Dee,
 * Eve, Fay). Ann works every weekday; Bob on one day, Cy on two (help them); Dee's and Eve's seats
 * are idle in September and October (reclaim them); Fay's seat was created on October 29th and is
 * idle too (not one to reclaim: it did not exist the month before). The team's repository fails
 * `unit_tests` in its latest report. Limits: Ann 1,000 (she used 2,100: over), Bob 100 (used 90:
 * over 80 %).
 */
import { describe, expect, it } from 'vitest';
import { buildReportModel } from '../../build-report-model.ts';
import type { ReportModel } from '../../model.ts';
import { protectModel } from '../../privacy.ts';
import { indexDirectory, parseScope, resolveScope } from '../../scope.ts';
import type { DirectoryPerson, PeopleDirectory } from '../../section.ts';
import { buildSnapshot, tokensDay, userDay } from '../../testing/snapshot-builder.ts';
import { BUILTIN_SECTIONS } from '../index.ts';
import type { ActionFact, BriefSection } from './index.ts';

const people = ['ann', 'bob', 'cy', 'dee', 'eve', 'fay'];
const person = (name: string): DirectoryPerson => ({
  email: `${name}@x.test`,
  team: 'Platform',
  costCenter: 'CC-1',
  manager: name === 'ann' ? null : 'ann@x.test',
  repositories: ['https://git.x.test/platform'],
  attributes: {},
});
const directory: PeopleDirectory = { source: 'people.csv', people: people.map(person) };
const weekdays = Array.from({ length: 31 }, (_, i) => `2026-10-${String(i + 1).padStart(2, '0')}`).filter(
  (d) => ![0, 6].includes(new Date(`${d}T00:00:00Z`).getUTCDay()),
);
const work = (id: string, date: string, credits: number) =>
  userDay(id, date, {
    user_email: `${id}@x.test`,
    billable_tokens: credits,
    tool_calls: 2,
    user_messages: 1,
  });
const snapshot = buildSnapshot({
  month: '2026-10',
  tokens: [tokensDay('2026-10-01', { billable_tokens: 2_300 })],
  userDays: [
    ...weekdays.map((d) => work('ann', d, 100)).slice(0, 21),
    work('bob', '2026-10-05', 90),
    work('cy', '2026-10-06', 10),
    work('cy', '2026-10-07', 10),
  ],
  orgUsers: people.map((id) => ({
    id,
    email: `${id}@x.test`,
    firstName: id[0]!.toUpperCase() + id.slice(1),
    lastName: 'Lee',
    createdAt: id === 'fay' ? '2026-10-29T10:00:00Z' : '2026-01-20T00:00:00Z',
  })),
  readiness: [
    {
      reportId: 'r1',
      repoUrl: 'https://git.x.test/platform',
      createdAt: Date.parse('2026-10-20T00:00:00Z'),
      apps: {},
      report: {
        readme: { numerator: 1, denominator: 1 },
        unit_tests: { numerator: 0, denominator: 2 },
        lint: { numerator: 1, denominator: 2 },
      },
    },
  ],
});
const options = {
  generatedAt: '2026-11-01T06:00:00.000Z',
  pricePerCredit: 0.01,
  currency: 'EUR',
  pricePerSeat: 19,
  creditLimits: { 'ann@x.test': 1_000, 'bob@x.test': 100 },
  inputs: { directory },
};
const organization = buildReportModel(snapshot, options);
const scope = resolveScope(
  indexDirectory(directory, snapshot.manifest.fetchedRange, { managers: true }),
  parseScope('team:Platform'),
);
const scoped = (extra: Partial<typeof options> = {}) =>
  buildReportModel(snapshot, { ...options, ...extra, scope: { scope, organization } });
const briefOf = (m: ReportModel) => m.sections?.['brief'] as BriefSection;
const action = <K extends ActionFact['kind']>(m: ReportModel, kind: K) =>
  briefOf(m).actions.find((a): a is Extract<ActionFact, { kind: K }> => a.kind === kind);

describe('what to do this month', () => {
  const model = scoped();

  it('reclaims the seats idle two whole months, never one created last week, with the saving', () => {
    expect(action(model, 'reclaim')).toEqual({
      kind: 'reclaim',
      seats: 2,
      idleSince: '2026-09-01',
      people: [
        { name: 'Dee Lee', email: 'dee@x.test' },
        { name: 'Eve Lee', email: 'eve@x.test' },
      ],
      saving: 38, // 2 seats x 19
      currency: 'EUR',
    });
  });

  it('offers help to the people active on one or two days, fewest first', () => {
    expect(action(model, 'help')).toMatchObject({
      people: 2,
      maxDays: 2,
      names: [{ name: 'Bob Lee' }, { name: 'Cy Lee' }],
    });
  });

  it("sets the credits against the people's limits without a budget, and against the team's with one", () => {
    // Ann 2,100 of 1,000 and Bob 90 of 100: 2,190 of 1,100.
    expect(action(model, 'budget')).toMatchObject({
      source: 'limits',
      credits: 2_190,
      budget: 1_100,
      over100: 1,
      over100People: [{ name: 'Ann Lee' }],
      over80: 1,
      forecast: null,
    });
    const budgeted = scoped({ inputs: { directory, budgets: { teams: { platform: 5_000 } } } } as never);
    expect(action(budgeted, 'budget')).toMatchObject({ source: 'team', credits: 2_210, budget: 5_000 });
    expect(action(budgeted, 'budget')!.share).toBeCloseTo(2_210 / 5_000, 12);
  });

  it("names the weakest readiness criterion of the scope's repositories", () => {
    expect(action(model, 'readiness')).toMatchObject({
      criterion: 'unit_tests',
      meanScore: 0,
      passed: 0,
      failing: ['https://git.x.test/platform'],
    });
  });

  it("states the scope's bill: its share of the organization's allocation", () => {
    // 2,210 credits x 0.01 = 22.10; 6 seats x 19 = 114.00.
    expect(briefOf(model).cost).toEqual({ credit_cost: 22.1, seat_cost: 114, total_cost: 136.1 });
  });

  it('names nobody to a reader of groups, and leaves out an action about fewer people than the minimum', () => {
    const groups = protectModel(model, {
      policy: { minGroupSize: 5, personRows: 'none' },
      sections: BUILTIN_SECTIONS,
      people: [],
    });
    expect(action(groups, 'help')).toBeUndefined(); // two people: under five
    expect(action(groups, 'reclaim')).toMatchObject({ seats: 2, people: [] });
    expect(action(groups, 'budget')).toMatchObject({ over100: 1, over100People: [] });
  });

  it('is only in a scoped report', () => {
    expect(organization.sections?.['brief']).toBeUndefined();
  });
});
