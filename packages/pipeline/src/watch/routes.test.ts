/**
 * Routing alerts on a small directory, hand-made: Dana leads; Ann, Bob and Cat are Platform
 * (CC-100) under Dana; Gus leads Web (CC-200) under Dana, with Eve; Hal is Web until 2026-10-14
 * and Platform from 2026-10-15. So in September Platform has 3 people and Web 3 (Gus, Eve, Hal).
 */

import type { DirectoryPerson, PeopleDirectory } from '@orgreport/metrics';
import * as metrics from '@orgreport/metrics';
import type { Alert } from '@orgreport/watch';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../errors.ts';
import { AlertRouter, type ScopeFunctions, type WatchRoute, watchRoutes } from './routes.ts';

const fns: ScopeFunctions = metrics;
const person = (name: string, team: string, costCenter: string, manager: string | null, validFrom?: string) =>
  ({
    email: `${name}@acme.test`,
    team,
    costCenter,
    manager: manager && `${manager}@acme.test`,
    repositories: [],
    attributes: {},
    ...(validFrom && { validFrom }),
  }) as DirectoryPerson;
const directory: PeopleDirectory = {
  source: 'people.csv',
  people: [
    person('dana', 'Leads', 'CC-100', null),
    person('ann', 'Platform', 'CC-100', 'dana'),
    person('bob', 'Platform', 'CC-100', 'dana'),
    person('cat', 'Platform', 'CC-100', 'dana'),
    person('gus', 'Web', 'CC-200', 'dana'),
    person('eve', 'Web', 'CC-200', 'gus'),
    person('hal', 'Web', 'CC-200', 'gus'),
    person('hal', 'Platform', 'CC-100', 'dana', '2026-10-15'),
  ],
};
const index = metrics.indexDirectory(
  directory,
  { start: '2026-07-01', end: '2026-11-01' },
  { managers: true },
);
const identities = directory.people.map((p) => ({ email: p.email }));

function routes(
  ...specs: Array<{ scope?: string; people?: 'all' | 'scope' | 'none'; rules?: Alert['rule'][] }>
) {
  return watchRoutes(
    specs.map((s, i) => ({
      to: [`dir:r${i + 1}`],
      scope: s.scope ?? 'org',
      people: s.people ?? 'none',
      ...(s.rules && { rules: s.rules }),
    })),
    [],
    fns.parseScope,
    (t) => t,
  );
}

function router(all: WatchRoute[], minGroupSize = 3) {
  return new AlertRouter(all, { index, minGroupSize, fns });
}

function alert(scope: Alert['scope'], extra: Partial<Alert> = {}): Alert {
  return {
    rule: 'spike',
    key: `spike|${scope.kind}:${scope.name}|2026-09-08`,
    orgId: 'org_1',
    scope,
    period: '2026-09-08',
    severity: 'warning',
    day: '2026-09-08',
    sentence: `${scope.name} used 900 credits.`,
    figures: { credits: 900 },
    more: {},
    person: scope.kind === 'user',
    ...(scope.kind === 'user' && { email: scope.name }),
    new: true,
    ...extra,
  };
}

const numbers = (r: { routes: WatchRoute[]; withheld: Array<{ route: WatchRoute }> }) => ({
  to: r.routes.map((x) => x.number),
  withheld: r.withheld.map((x) => x.route.number),
});

describe('AlertRouter', () => {
  it("sends an organization's alert to the organization's routes only", () => {
    const all = routes(
      {},
      { scope: 'team:Platform', people: 'all' },
      { scope: 'manager:dana@acme.test', people: 'all' },
    );
    expect(numbers(router(all).route(alert({ kind: 'organization', name: 'org_1' })))).toEqual({
      to: [1],
      withheld: [],
    });
  });

  it("sends a team's alert to its team, its cost center, a manager above all its people, and the organization", () => {
    const all = routes(
      { scope: 'org', people: 'all' },
      { scope: 'team:platform', people: 'scope' },
      { scope: 'cost-center:CC-100', people: 'scope' },
      { scope: 'manager:dana@acme.test', people: 'scope' },
      { scope: 'manager:gus@acme.test', people: 'all' },
      { scope: 'team:Web', people: 'all' },
      { scope: 'cost-center:CC-200', people: 'all' },
    );
    expect(numbers(router(all).route(alert({ kind: 'team', name: 'Platform' })))).toEqual({
      to: [1, 2, 3, 4],
      withheld: [],
    });
    // Web in September: Gus, Eve and Hal. Gus is not under himself, so his route does not hold Web.
    expect(numbers(router(all).route(alert({ kind: 'team', name: 'Web' })))).toEqual({
      to: [1, 4, 6, 7],
      withheld: [],
    });
    expect(numbers(router(all).route(alert({ kind: 'cost_center', name: 'CC-100' })))).toEqual({
      to: [1, 3],
      withheld: [],
    });
  });

  it('keeps a route to the rules it lists', () => {
    const all = routes({ rules: ['security', 'stale'] }, { rules: ['spike'] });
    expect(numbers(router(all).route(alert({ kind: 'organization', name: 'org_1' })))).toEqual({
      to: [2],
      withheld: [],
    });
  });

  it("gives a person's alert to routes that see everyone, or their scope's people with the person in it on the day", () => {
    const all = routes(
      { people: 'all' },
      { people: 'none' },
      { people: 'scope' },
      { scope: 'team:Platform', people: 'scope' },
      { scope: 'team:Web', people: 'scope' },
      { scope: 'team:Platform', people: 'none' },
    );
    const ann = alert({ kind: 'user', name: 'ann@acme.test' });
    expect(numbers(router(all).route(ann))).toEqual({ to: [1, 3, 4], withheld: [2, 6] });
    expect(router(all).route(ann).withheld[0]!.reason).toBe(
      'an alert about one person, and the route sees no one (people: none)',
    );
    // Hal is Web's until 2026-10-14, Platform's from the 15th.
    const hal = (day: string) => alert({ kind: 'user', name: 'hal@acme.test' }, { day });
    expect(numbers(router(all).route(hal('2026-10-14')))).toEqual({ to: [1, 3, 5], withheld: [2] });
    expect(numbers(router(all).route(hal('2026-10-15')))).toEqual({ to: [1, 3, 4], withheld: [2, 6] });
  });

  it('keeps the alert of a group under the minimum group size from routes that see no one', () => {
    const all = routes(
      { people: 'none' },
      { people: 'scope' },
      { scope: 'cost-center:CC-100', people: 'none' },
    );
    const platform = alert({ kind: 'team', name: 'Platform' });
    expect(numbers(router(all, 4).route(platform))).toEqual({ to: [2], withheld: [1, 3] });
    expect(router(all, 4).route(platform).withheld[0]!.reason).toBe(
      'a group of 3 people in the directory, under the minimum group size of 4, and the route sees no one (people: none)',
    );
    expect(numbers(router(all, 3).route(platform))).toEqual({ to: [1, 2, 3], withheld: [] });
  });

  it('names in what a route receives only the people it may see, and leaves out a query that named others', () => {
    const all = routes(
      { people: 'all' },
      { people: 'none' },
      { scope: 'team:Platform', people: 'scope' },
      { scope: 'cost-center:CC-100', people: 'scope' },
    );
    const sql =
      "SELECT 1 FROM user_days WHERE lower(user_email) IN ('ann@acme.test', 'bob@acme.test', 'cat@acme.test')";
    const platform = alert(
      { kind: 'team', name: 'Platform' },
      {
        sentence: 'Platform used 900 credits, most of them ann@acme.test.',
        more: { sql, document: 'the report: Teams' },
      },
    );
    const r = router(all);
    expect(r.alertFor(platform, all[0]!, identities)).toBe(platform);
    const blind = r.alertFor(platform, all[1]!, identities);
    expect(blind.sentence).toBe('Platform used 900 credits, most of them (withheld).');
    expect(blind.more).toEqual({ document: 'the report: Teams' });
    // The team's own route and its cost center's see its people: all of it.
    expect(r.alertFor(platform, all[2]!, identities)).toMatchObject({
      sentence: platform.sentence,
      more: { sql },
    });
    expect(r.alertFor(platform, all[3]!, identities)).toMatchObject({
      sentence: platform.sentence,
      more: { sql },
    });
  });

  it('takes --deliver as a route to the organization that sees no one, after the configured ones', () => {
    const all = watchRoutes(
      [{ to: ['CTO@acme.test'], scope: 'team:Platform', people: 'all' }],
      ['slack:#eng', 'Ops@acme.test'],
      fns.parseScope,
      (t) => t.toLowerCase(),
    );
    expect(all.map((r) => [r.number, r.source, r.to, r.scope, r.people])).toEqual([
      [1, 'watch.routes[0]', ['cto@acme.test'], { kind: 'team', name: 'Platform' }, 'all'],
      [2, '--deliver', ['slack:#eng', 'ops@acme.test'], { kind: 'org', name: '' }, 'none'],
    ]);
  });

  it('refuses a route to a scope the directory does not know, or without a directory, naming the route', () => {
    expect(() => router(routes({}, { scope: 'team:Mobile' }))).toThrow(UsageError);
    expect(() => router(routes({}, { scope: 'team:Mobile' }))).toThrow(
      /^watch\.routes\[1\]: people\.csv: no team "Mobile" in the directory; it knows Leads, Platform, Web$/,
    );
    expect(
      () =>
        new AlertRouter(routes({ scope: 'cost-center:CC-100' }), { index: undefined, minGroupSize: 5, fns }),
    ).toThrow(/^watch\.routes\[0\]: the scope cost-center:CC-100 needs the people directory/);
  });
});
