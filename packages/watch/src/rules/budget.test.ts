import { describe, expect, it } from 'vitest';
import { historyOf, rulesWith, userRows } from '../__fixtures__/history.ts';
import { DEFAULT_RULES } from '../defaults.ts';
import type { WatchPerson } from '../types.ts';
import { budgetFindings, budgetTargets, latestLimits } from './budget.ts';

// Held: 2026-09-01..2026-10-14. October 2026 starts on a Thursday: days 1-14 hold 10 weekdays and 4
// weekend days, days 15-31 hold 12 weekdays and 5 weekend days.
const held = [{ start: '2026-09-01', end: '2026-10-14' }];
const LAST = '2026-10-14';
const history = historyOf({
  held,
  userDays: [
    ...userRows('a@x.example', '2026-09-01', LAST, 3, 1), // to date 10x3 + 4x1 = 34; forecast 34 + 12x3 + 5x1 = 75
    ...userRows('b@x.example', '2026-09-01', LAST, 2), // to date 20; forecast 20 + 12x2 = 44
    ...userRows('c@x.example', '2026-09-01', LAST, 1), // to date 10; forecast 22
  ],
  limits: [
    { day: '2026-10-02', at: '2026-10-02T08:00:00Z', email: 'C@x.example', limit: 10 },
    { day: '2026-10-01', at: '2026-10-01T08:00:00Z', email: 'c@x.example', limit: 500 },
    { day: '2026-10-20', at: '2026-10-20T08:00:00Z', email: 'c@x.example', limit: 1000 }, // after today
    { day: '2026-10-02', at: '2026-10-02T08:00:00Z', email: 'a@x.example', limit: 1 },
  ],
});
const people: WatchPerson[] = [
  { email: 'a@x.example', team: 'Platform', costCenter: 'CC-1' },
  { email: 'b@x.example', team: 'Platform', costCenter: 'CC-1', budget: 30 },
  { email: 'c@x.example', team: 'Web', costCenter: 'CC-2' },
];
const TODAY = '2026-10-15';
/** The directory without its budget column. */
const noBudgets = people.map(({ budget: _, ...p }) => p);

function run(change: (r: typeof DEFAULT_RULES) => void, directory: WatchPerson[] = noBudgets) {
  const rules = rulesWith(change);
  const targets = budgetTargets(history, directory, rules.budgets, TODAY);
  return budgetFindings('org_test', targets, LAST, rules.budgets, rules.forecastDays);
}

describe('budget rule: thresholds of the credits to date and of the forecast', () => {
  // Team Platform (a + b): weekdays 5, weekends 1. To date 10x5 + 4x1 = 54; forecast 54 + 12x5 + 5x1 = 119.
  it('alerts on the forecast alone while the credits to date are under every threshold', () => {
    const found = run((r) => {
      r.budgets.teams = { platform: 100 };
      r.budgets.fromLimits = false;
    });
    expect(found.map((f) => f.key)).toEqual(['budget|team:Platform|2026-10|forecast-100']);
    expect(found[0]!.figures).toMatchObject({
      credits_to_date: 54,
      forecast: 119,
      budget: 100,
      percent_of_budget: 119,
      weekday_rate: 5,
      weekend_rate: 1,
    });
    expect(found[0]!.severity).toBe('warning');
    expect(found[0]!.person).toBe(false);
    expect(found[0]!.sentence).toBe(
      'team Platform is on course for 119 credits in 2026-10: 119% of its monthly budget of 100 (the config file); 54 used up to 2026-10-14.',
    );
    expect(found[0]!.more.sql).toContain("lower(user_email) IN ('a@x.example', 'b@x.example')");
  });

  it('reports the highest threshold the credits to date crossed, and the forecast only above it', () => {
    // Budget 60: to date 90 % (actual-80), forecast 198 % (forecast-100).
    const sixty = run((r) => {
      r.budgets.teams = { Platform: 60 };
      r.budgets.fromLimits = false;
    });
    expect(sixty.map((f) => [f.threshold, f.severity])).toEqual([
      ['actual-80', 'warning'],
      ['forecast-100', 'warning'],
    ]);
    // Budget 50: to date 108 %: actual-100 alone (the forecast past 100 % says nothing more).
    const fifty = run((r) => {
      r.budgets.teams = { Platform: 50 };
      r.budgets.fromLimits = false;
    });
    expect(fifty.map((f) => [f.threshold, f.severity])).toEqual([['actual-100', 'critical']]);
    // Budget 130: forecast 92 % (forecast-80, info), to date 42 %.
    const high = run((r) => {
      r.budgets.teams = { Platform: 130 };
      r.budgets.fromLimits = false;
    });
    expect(high.map((f) => [f.threshold, f.severity])).toEqual([['forecast-80', 'info']]);
    // Without forecasts, and with other thresholds.
    const plain = run((r) => {
      r.budgets.teams = { Platform: 60 };
      r.budgets.forecast = false;
      r.budgets.thresholds = [50, 90];
      r.budgets.fromLimits = false;
    });
    expect(plain.map((f) => f.threshold)).toEqual(['actual-90']);
  });

  it('takes the organization and cost centers from the config file', () => {
    // The organization: a + b + c, weekdays 6, weekends 1: to date 64, forecast 64 + 72 + 5 = 141.
    const found = run((r) => {
      r.budgets.organization = 70;
      r.budgets.costCenters = { 'CC-2': 12 };
      r.budgets.fromLimits = false;
    });
    expect(found.map((f) => [f.key, f.figures.credits_to_date, f.figures.forecast])).toEqual([
      ['budget|organization:org_test|2026-10|actual-80', 64, 141],
      ['budget|organization:org_test|2026-10|forecast-100', 64, 141],
      ['budget|cost_center:CC-2|2026-10|actual-80', 10, 22],
      ['budget|cost_center:CC-2|2026-10|forecast-100', 10, 22],
    ]);
  });
});

describe('budget rule: where a user’s budget comes from', () => {
  it('prefers the config file, then the directory, then the latest limit set by today', () => {
    const targets = budgetTargets(
      history,
      people,
      rulesWith((r) => {
        r.budgets.users = { 'A@x.example': 40 };
      }).budgets,
      TODAY,
    );
    expect(targets.map((t) => [t.series.scope.name, t.budget, t.source, t.setOn])).toEqual([
      ['a@x.example', 40, 'config', undefined],
      ['b@x.example', 30, 'directory', undefined],
      ['c@x.example', 10, 'limit', '2026-10-02'],
    ]);
    expect(latestLimits(history.limits, '2026-10-25').get('c@x.example')?.limit).toBe(1000);
  });

  it('marks an alert about a person, with their e-mail in a field of its own', () => {
    const found = run((r) => {
      r.budgets.users = { 'a@x.example': 40 };
    }, people);
    const c = found.find((f) => f.scope.name === 'c@x.example')!;
    expect(c).toMatchObject({
      key: 'budget|user:c@x.example|2026-10|actual-100',
      severity: 'critical',
      person: true,
      email: 'c@x.example',
      userId: 'id-c@x.example',
    });
    expect(c.figures.budget_source).toBe('limit');
    expect(c.sentence).toContain('the credit limit set on 2026-10-02');
    expect(c.more.sql).toBe(
      "SELECT date, billable_tokens AS credits FROM user_days WHERE org_id = 'org_test' AND lower(user_email) = 'c@x.example' AND date BETWEEN DATE '2026-10-01' AND DATE '2026-10-14' ORDER BY date",
    );
    // a: to date 34 of 40 (85 %), forecast 75 (188 %); b: to date 20 of 30 (67 %), forecast 44 (147 %).
    expect(found.filter((f) => f.person).map((f) => f.key)).toEqual([
      'budget|user:a@x.example|2026-10|actual-80',
      'budget|user:a@x.example|2026-10|forecast-100',
      'budget|user:b@x.example|2026-10|forecast-100',
      'budget|user:c@x.example|2026-10|actual-100',
    ]);
  });

  it('has no budget unless one is configured', () => {
    const found = budgetFindings(
      'org_test',
      budgetTargets({ ...history, limits: [] }, noBudgets, DEFAULT_RULES.budgets, TODAY),
      LAST,
      DEFAULT_RULES.budgets,
      28,
    );
    expect(found).toEqual([]);
  });
});

describe('budget rule: an effective-dated directory', () => {
  // d moves from Web to Platform on 2026-10-08, spending 2 credits every day; their budget changes with the move.
  const moved = historyOf({
    held,
    userDays: [...history.userDays, ...userRows('d@x.example', '2026-09-01', LAST, 2, 2)],
  });
  const directory: WatchPerson[] = [
    ...noBudgets,
    { email: 'd@x.example', team: 'Web', costCenter: 'CC-2', budget: 10 },
    { email: 'D@x.example', team: 'Platform', costCenter: 'CC-1', budget: 40, validFrom: '2026-10-08' },
  ];
  const october = (values: ReadonlyMap<string, number>) =>
    [...values].filter(([day]) => day.startsWith('2026-10')).reduce((sum, [, v]) => sum + v, 0);

  it("counts a mover's days to the team of each day and takes the budget of today's row", () => {
    const rules = rulesWith((r) => {
      r.budgets.teams = { Platform: 1000, Web: 1000 };
      r.budgets.fromLimits = false;
    });
    const targets = budgetTargets(moved, directory, rules.budgets, TODAY);
    const team = (name: string) => targets.find((t) => t.series.scope.name === name)!.series;
    // Platform: a and b (54) plus d from 10-08 to 10-14 (7 x 2); Web: c (10) plus d from 10-01 to 10-07 (7 x 2).
    expect(october(team('Platform').values)).toBe(54 + 14);
    expect(october(team('Web').values)).toBe(10 + 14);
    // September, before the move: d is in Web (30 x 2) besides c (weekdays 1: 22).
    const september = (values: ReadonlyMap<string, number>) =>
      [...values].filter(([day]) => day.startsWith('2026-09')).reduce((sum, [, v]) => sum + v, 0);
    expect(september(team('Web').values)).toBe(22 + 60);
    // d is a member of both (the query behind the alert names everyone of the month).
    expect(team('Platform').members).toEqual(['a@x.example', 'b@x.example', 'd@x.example']);
    expect(team('Web').members).toEqual(['c@x.example', 'd@x.example']);
    const d = targets.find((t) => t.series.scope.kind === 'user' && t.series.scope.name === 'd@x.example');
    expect(d).toMatchObject({ budget: 40, source: 'directory' });
  });
});
