/**
 * Scopes on a small organization, hand-computed. The directory (effective-dated): Hana heads
 * everything; Ivo manages Platform (Ann, Bob) and Jo manages Data (Cy); Bob moved from Data to
 * Platform on 2026-03-16. March rows: Ann 600 credits on the 2nd and 100 on the 20th, Bob 50 on the
 * 10th (still in Data) and 300 on the 20th (in Platform), Cy 40 on the 2nd, Dee (not in the
 * directory) 9 on the 3rd. The organization's /tokens days carry exactly the users' sums.
 */
import { describe, expect, it } from 'vitest';
import { buildReportModel } from './build-report-model.ts';
import type { Figure } from './model.ts';
import { identitiesOf, protectModel, WITHHELD } from './privacy.ts';
import { indexDirectory, parseScope, resolveScope, ScopeError, scopeText } from './scope.ts';
import type { DirectoryPerson, PeopleDirectory } from './section.ts';
import { BUILTIN_SECTIONS } from './sections/index.ts';
import type { TeamsSection } from './sections/teams/index.ts';
import { activityDay, buildSnapshot, tokensDay, userDay } from './testing/snapshot-builder.ts';

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

const rows = [
  userDay('a', '2026-03-02', {
    user_email: 'ann@x.test',
    billable_tokens: 600,
    tool_calls: 6,
    user_messages: 2,
    sessions: 1,
  }),
  userDay('a', '2026-03-20', {
    user_email: 'ann@x.test',
    billable_tokens: 100,
    tool_calls: 2,
    user_messages: 1,
  }),
  userDay('b', '2026-03-10', {
    user_email: 'bob@x.test',
    billable_tokens: 50,
    tool_calls: 1,
    user_messages: 1,
  }),
  userDay('b', '2026-03-20', {
    user_email: 'bob@x.test',
    billable_tokens: 300,
    tool_calls: 9,
    user_messages: 3,
  }),
  userDay('c', '2026-03-02', { user_email: 'cy@x.test', billable_tokens: 40, tool_calls: 1 }),
  userDay('d', '2026-03-03', { user_email: 'dee@x.test', billable_tokens: 9, messages: 1 }),
];
const creditsOn = (date: string) =>
  rows.filter((r) => r.date === date).reduce((a, r) => a + r.billable_tokens, 0);
const days = [...new Set(rows.map((r) => r.date))];

const snapshot = buildSnapshot({
  month: '2026-03',
  tokens: days.map((d) => tokensDay(d, { billable_tokens: creditsOn(d), input_tokens: 1000 })),
  activity: days.map((d) => activityDay(d, { daily_active_users: rows.filter((r) => r.date === d).length })),
  userDays: rows,
  orgUsers: ['ann', 'bob', 'cy', 'dee', 'hana', 'ivo', 'jo'].map((n) => ({
    id: n[0] === 'd' ? 'd' : n === 'hana' ? 'h' : n === 'ivo' ? 'i' : n === 'jo' ? 'j' : n[0]!,
    email: `${n}@x.test`,
    createdAt: '2026-01-01T00:00:00Z',
  })),
});
const range = snapshot.manifest.fetchedRange;
const index = indexDirectory(directory, range, { managers: true });
const organization = buildReportModel(snapshot, { generatedAt: '2026-04-01T00:00:00Z' });
const report = (scope: string) =>
  buildReportModel(snapshot, {
    generatedAt: '2026-04-01T00:00:00Z',
    scope: { scope: resolveScope(index, parseScope(scope)), organization },
  });
const figure = (figures: readonly Figure[], id: string) => figures.find((f) => f.id === id)!;

describe('scopes', () => {
  it('reads and writes the scope forms, and refuses others', () => {
    expect(parseScope('team:Platform')).toEqual({ kind: 'team', name: 'Platform' });
    expect(parseScope(' manager: ivo@x.test ')).toEqual({ kind: 'manager', name: 'ivo@x.test' });
    expect(scopeText(parseScope('cost-center:CC-1'))).toBe('cost-center:CC-1');
    expect(parseScope('ORG')).toEqual({ kind: 'org', name: '' });
    expect(() => parseScope('department:X')).toThrow(ScopeError);
    expect(() => parseScope('team:')).toThrow(/expected org, team:NAME/);
  });

  it('follows the manager column through every level, and moves a person on the day of the move', () => {
    const hana = resolveScope(index, parseScope('manager:hana@x.test'));
    expect(Object.keys(hana.members).sort()).toEqual([
      'ann@x.test',
      'bob@x.test',
      'cy@x.test',
      'ivo@x.test',
      'jo@x.test',
    ]);
    expect(hana.people).toBe(5);
    const ivo = resolveScope(index, parseScope('manager:IVO@x.test'));
    expect(ivo.members['bob@x.test']).toEqual([{ from: '2026-03-16', until: '2026-03-31' }]);
    expect(ivo.members['ann@x.test']).toEqual([{ from: range.start, until: '2026-03-31' }]);
    const data = resolveScope(index, parseScope('team:data'));
    expect(data.members['bob@x.test']).toEqual([{ from: range.start, until: '2026-03-15' }]);
    expect(data.label).toBe('Team Data');
    expect(data.slug).toBe('team-data');
    expect(data.people).toBe(2); // Jo and Cy on the 31st; Bob had moved
  });

  it('names the rows of a circle and of a manager the directory does not list', () => {
    const circle: PeopleDirectory = {
      source: 'loop.csv',
      people: [
        person('a@x.test', 'T', 'b@x.test'),
        person('b@x.test', 'T', 'c@x.test'),
        person('c@x.test', 'T', 'a@x.test'),
      ],
    };
    expect(() => indexDirectory(circle, range, { managers: true })).toThrow(
      /loop\.csv: the manager column goes round in a circle .*a@x\.test -> b@x\.test -> c@x\.test -> a@x\.test/,
    );
    const missing: PeopleDirectory = { source: 'gap.csv', people: [person('a@x.test', 'T', 'boss@x.test')] };
    expect(() => indexDirectory(missing, range, { managers: true })).toThrow(
      /boss@x\.test \(manager of a@x\.test\) is not a person of the directory/,
    );
    expect(() => resolveScope(index, parseScope('team:Mobile'))).toThrow(
      /no team "Mobile" in the directory; it knows Data, Leadership, Platform/,
    );
  });

  it("computes a scope's figures from its people's rows on their days", () => {
    const platform = report('team:Platform');
    // Ann 600 + 100, Bob 300 (the 20th; his 50 on the 10th was Data's).
    expect(figure(platform.figures, 'credits').value).toBe(1000);
    expect(figure(platform.figures, 'tool_calls').value).toBe(17);
    expect(figure(platform.figures, 'active_users').value).toBe(2);
    // Days with data: 2nd, 3rd, 10th, 20th; Platform's distinct active users on them: 1, 0, 0, 2.
    expect(figure(platform.figures, 'avg_dau').value).toBe(0.75);
    expect(figure(platform.figures, 'peak_dau').value).toBe(2);
    // Seats on the 31st: Ivo, Ann, Bob; active 2 of them.
    expect(figure(platform.figures, 'seats').value).toBe(3);
    expect(figure(platform.figures, 'seat_utilization').value).toBeCloseTo(2 / 3, 12);
    // Autonomy: Ann 8/3, Bob 9/3 -> mean 17/6.
    expect(figure(platform.figures, 'autonomy_mean').value).toBeCloseTo(17 / 6, 12);
    // Tokens are not given per user; control changes are the organization's.
    expect(figure(platform.figures, 'input_tokens').value).toBeNull();
    expect(figure(platform.figures, 'input_tokens').unavailableReason).toMatch(
      /Not available for a set of people/,
    );
    expect(figure(platform.figures, 'controls_changes').note).toMatch(/organization's figure/);
    // The organization's value stands beside the scope's.
    expect(figure(platform.figures, 'credits').organization).toBe(1099);
    expect(platform.scope).toMatchObject({ kind: 'team', name: 'Platform', people: 3 });
    // Tools by name are the organization's only (its context page); the scope's calls are its own.
    expect(platform.scope?.organizationSections).not.toContain('tools');
    expect(platform.scope?.organizationOnly).toEqual(expect.arrayContaining(['tools.top', 'clients']));
    expect(platform.tools.total).toBe(17);
    expect(platform.tools.top).toEqual([]);
    expect(platform.users.map((u) => u.email).sort()).toEqual(['ann@x.test', 'bob@x.test']);
    expect(platform.daily.find((d) => d.date === '2026-03-20')?.credits).toBe(400);
  });

  it("judges a mover's seat and their month by their activity anywhere in the organization", () => {
    // Eve moved from Data to Platform on the 16th, active on the 4th only (in Data); Bob moved the
    // same day, active on the 3rd, 10th and 12th in Data and on the 20th in Platform.
    const movers: PeopleDirectory = {
      source: 'people.csv',
      people: [
        ...directory.people.filter((p) => p.email !== 'bob@x.test'),
        person('bob@x.test', 'Data', 'jo@x.test'),
        person('bob@x.test', 'Platform', 'ivo@x.test', { validFrom: '2026-03-16' }),
        person('eve@x.test', 'Data', 'jo@x.test'),
        person('eve@x.test', 'Platform', 'ivo@x.test', { validFrom: '2026-03-16' }),
      ],
    };
    const day = (id: string, email: string, date: string) =>
      userDay(id, date, { user_email: email, billable_tokens: 10, tool_calls: 1, user_messages: 1 });
    const moved = [
      day('a', 'ann@x.test', '2026-03-02'),
      day('a', 'ann@x.test', '2026-03-05'),
      day('a', 'ann@x.test', '2026-03-20'),
      day('b', 'bob@x.test', '2026-03-03'),
      day('b', 'bob@x.test', '2026-03-10'),
      day('b', 'bob@x.test', '2026-03-12'),
      day('b', 'bob@x.test', '2026-03-20'),
      day('e', 'eve@x.test', '2026-03-04'),
      // February: Ann in Platform, Bob in Data.
      day('a', 'ann@x.test', '2026-02-05'),
      day('b', 'bob@x.test', '2026-02-10'),
    ];
    const movedDays = [...new Set(moved.map((r) => r.date))];
    const movedSnapshot = buildSnapshot({
      month: '2026-03',
      tokens: movedDays.map((d) =>
        tokensDay(d, { billable_tokens: 10 * moved.filter((r) => r.date === d).length }),
      ),
      activity: movedDays.map((d) =>
        activityDay(d, { daily_active_users: moved.filter((r) => r.date === d).length }),
      ),
      userDays: moved,
      orgUsers: ['ann', 'bob', 'eve', 'ivo'].map((n) => ({
        id: n[0]!,
        email: `${n}@x.test`,
        createdAt: '2026-01-01T00:00:00Z',
      })),
    });
    const whole = buildReportModel(movedSnapshot, { generatedAt: '2026-04-01T00:00:00Z' });
    const platform = buildReportModel(movedSnapshot, {
      generatedAt: '2026-04-01T00:00:00Z',
      scope: {
        scope: resolveScope(
          indexDirectory(movers, movedSnapshot.manifest.fetchedRange, { managers: true }),
          parseScope('team:Platform'),
        ),
        organization: whole,
      },
    });
    // Platform's seats on the 31st: Ann, Bob, Eve, Ivo. Its rows: Ann's three days and Bob's 20th.
    expect(figure(platform.figures, 'seats').value).toBe(4);
    expect(figure(platform.figures, 'active_users').value).toBe(2);
    // Eve used the agent this month (in Data): her seat is not idle; Ivo's is.
    expect(platform.seats.dormant_users.map((d) => d.email)).toEqual(['ivo@x.test']);
    expect(figure(platform.figures, 'dormant_seats').value).toBe(1);
    // Seats used ÷ seats: Ann's, Bob's and Eve's of 4 (Eve's used only before she moved in), not
    // Platform's 2 active users ÷ 4.
    expect(figure(platform.figures, 'seat_utilization').value).toBe(3 / 4);
    // Bob used it on four days of the month, one of them in Platform: not someone "on one or two
    // days". Eve used it on one day, before she moved in: Platform's person now, with no row in it.
    const people = platform.sections?.['people'] as {
      active: number;
      activeOnlyBefore: number;
      lowActivity: { count: number; people: unknown[] };
    };
    expect(people.active).toBe(2);
    expect(people.activeOnlyBefore).toBe(1);
    expect(people.lowActivity.count).toBe(1);
    expect(people.lowActivity.people).toEqual([
      { name: null, email: 'eve@x.test', active_days: 1, last_active: '2026-03-04' },
    ]);
    const brief = platform.sections?.['brief'] as {
      actions: Array<{ kind: string; people?: number; names?: unknown[] }>;
    };
    expect(brief.actions.find((a) => a.kind === 'help')).toMatchObject({
      people: 1,
      names: [{ name: null, email: 'eve@x.test' }],
    });
    // Her seat is Platform's, used only outside it: told apart, and she is Platform's to name.
    expect(platform.seats.used_outside).toEqual([
      { id: 'e', email: 'eve@x.test', name: null, active_days: 1, last_active: '2026-03-04' },
    ]);
    expect(whole.seats.used_outside).toBeUndefined();
    const managerRead = protectModel(platform, {
      policy: { minGroupSize: 5, personRows: 'scope' },
      sections: BUILTIN_SECTIONS,
      people: identitiesOf(movedSnapshot, movers),
    });
    const named = JSON.stringify(managerRead.sections?.['people']);
    expect(named).toContain('eve@x.test');
    expect(named).not.toContain(WITHHELD);
    const groupsRead = protectModel(platform, {
      policy: { minGroupSize: 5, personRows: 'none' },
      sections: BUILTIN_SECTIONS,
      people: identitiesOf(movedSnapshot, movers),
    });
    expect(JSON.stringify(groupsRead)).not.toContain('eve@x.test');
    // Bob is not new to the agent (he used it in February, in Data): he moved in.
    expect(platform.whatChanged.find((f) => f.kind === 'users')).toEqual({
      kind: 'users',
      active: 2,
      new: 0,
      lost: 0,
      movedIn: 1,
      movedOut: 0,
    });
    // The organization's report counts starting and stopping only: Eve is new (nobody moved in or out).
    expect(whole.whatChanged.find((f) => f.kind === 'users')).toEqual({
      kind: 'users',
      active: 3,
      new: 1,
      lost: 0,
    });
  });

  it("counts the organization's security-relevant settings on a scope's context page as its own report does", () => {
    // cloudSessionSync changed twice in March, and sandbox once: 3 field changes, 2 settings.
    const admin = { id: 'a', email: 'ann@x.test', name: 'Ann Admin' };
    const controlled = buildSnapshot({
      month: '2026-03',
      tokens: [tokensDay('2026-03-02', { billable_tokens: 10 })],
      userDays: [
        userDay('a', '2026-03-02', { user_email: 'ann@x.test', billable_tokens: 10, tool_calls: 1 }),
      ],
      orgUsers: [{ id: 'a', email: 'ann@x.test' }],
      controls: [
        {
          revision: 3,
          settings: { cloudSessionSync: false, sandbox: { enabled: true } },
          updatedAt: '2026-03-10T10:00:00Z',
          user: admin,
        },
        {
          revision: 2,
          settings: { cloudSessionSync: true, sandbox: { enabled: true } },
          updatedAt: '2026-03-05T10:00:00Z',
          user: admin,
        },
        {
          revision: 1,
          settings: { cloudSessionSync: false, sandbox: { enabled: false } },
          updatedAt: '2026-02-20T10:00:00Z',
          user: admin,
        },
      ],
    });
    const whole = buildReportModel(controlled, { generatedAt: '2026-04-01T00:00:00Z' });
    const settings = new Set(whole.controls.security.map((c) => c.path));
    expect(settings.size).toBe(2);
    const block = BUILTIN_SECTIONS.find((s) => s.id === 'controls')!.organizationContext!(whole)[0]!;
    expect(block.rows.find((r) => r.label.startsWith('Security-relevant'))).toMatchObject({
      label: 'Security-relevant settings changed',
      value: 2,
    });
  });

  it('partitions the organization: the teams add up to the users of the directory', () => {
    const teams = ['Platform', 'Data', 'Leadership'].map(
      (t) => figure(report(`team:${t}`).figures, 'credits').value!,
    );
    // Everyone but Dee, who is not in the directory.
    expect(teams.reduce((a, b) => a + b, 0)).toBe(1099 - 9);
    const hana = report('manager:hana@x.test');
    expect(figure(hana.figures, 'credits').value).toBe(1090);
    const costCenters = ['CC-1', 'CC-2'].map(
      (c) => figure(report(`cost-center:${c}`).figures, 'credits').value!,
    );
    expect(costCenters).toEqual([1000, 90]);
  });

  it("gives a team's autonomy, delegation and seat use in the teams table as the team's own report does", () => {
    // Bob moved from Data to Platform on the 16th: 1 call and 1 message in Data (manual), then 8
    // calls and 2 messages in Platform (spec). Ann, in Platform: 6 calls, 2 messages (auto-high).
    const moves: PeopleDirectory = {
      source: 'people.csv',
      people: [
        person('ann@x.test', 'Platform', null),
        person('bob@x.test', 'Data', null),
        person('bob@x.test', 'Platform', null, { validFrom: '2026-03-16' }),
        person('cy@x.test', 'Data', null),
      ],
    };
    const day = (id: string, email: string, date: string, calls: number, messages: number, level: string) =>
      userDay(id, date, {
        user_email: email,
        billable_tokens: 10,
        tool_calls: calls,
        user_messages: messages,
        delegation_level: level,
      });
    const moved = [
      day('a', 'ann@x.test', '2026-03-02', 6, 2, 'auto-high'),
      day('b', 'bob@x.test', '2026-03-03', 1, 1, 'manual'),
      day('b', 'bob@x.test', '2026-03-20', 8, 2, 'spec'),
    ];
    const movedSnapshot = buildSnapshot({
      month: '2026-03',
      tokens: moved.map((r) => tokensDay(r.date, { billable_tokens: 10 })),
      activity: moved.map((r) => activityDay(r.date, { daily_active_users: 1 })),
      userDays: moved,
      orgUsers: ['ann', 'bob', 'cy'].map((n) => ({
        id: n[0]!,
        email: `${n}@x.test`,
        createdAt: '2026-01-01T00:00:00Z',
      })),
    });
    const options = { generatedAt: '2026-04-01T00:00:00Z', inputs: { directory: moves } };
    const whole = buildReportModel(movedSnapshot, options);
    const movesIndex = indexDirectory(moves, movedSnapshot.manifest.fetchedRange, { managers: true });
    const teamReport = (team: string) =>
      buildReportModel(movedSnapshot, {
        ...options,
        scope: { scope: resolveScope(movesIndex, parseScope(`team:${team}`)), organization: whole },
      });
    const rows = (whole.sections!['teams'] as TeamsSection).rows;
    const row = (team: string) => rows.find((r) => r.team === team)!;
    // Bob is an active user of Data and of Platform: the Active column adds up to 3 for 2 people,
    // and the section names him with his two teams.
    expect(rows.reduce((a, r) => a + r.active_users, 0)).toBe(3);
    const section = whole.sections!['teams'] as TeamsSection;
    expect(section.active).toEqual({ people: 2, counted: 3 });
    expect(section.movers).toEqual([{ name: null, email: 'bob@x.test', teams: ['Data', 'Platform'] }]);
    // A reader of groups gets the counts, not the name.
    const groups = protectModel(whole, {
      policy: { minGroupSize: 1, personRows: 'none' },
      sections: BUILTIN_SECTIONS,
      people: [],
    });
    expect(groups.sections!['teams']).toMatchObject({ active: { people: 2, counted: 3 }, movers: [] });
    // Platform: Ann 6/2 = 3 and Bob's days there 8/2 = 4: mean 3.5 (not Bob's month, 9/3 = 3).
    expect(row('Platform').autonomy_mean).toBe(3.5);
    expect(row('Platform').delegation).toMatchObject({ 'auto-high': 0.5, spec: 0.5, manual: 0 });
    // Data: Bob's days there, 1/1, at manual (he is not in Data at the month's end).
    expect(row('Data').autonomy_mean).toBe(1);
    expect(row('Data').delegation).toMatchObject({ manual: 1, spec: 0 });
    for (const team of ['Platform', 'Data']) {
      expect(row(team).autonomy_mean).toBe(figure(teamReport(team).figures, 'autonomy_mean').value);
    }
    // Seats: Platform holds Ann's and Bob's, both used; Data holds Cy's, unused, while Bob, active in
    // Data before his move, is one of its active users: 1 active user, 0 of 1 seat used.
    expect(row('Data')).toMatchObject({ seats: 1, active_users: 1, seat_utilization: 0 });
    expect(figure(teamReport('Data').figures, 'seat_utilization').value).toBe(0);
    // ... and Data's people page says that its one active user has moved out.
    expect(teamReport('Data').sections?.['people']).toMatchObject({
      people: 1,
      active: 1,
      activeMovedOut: 1,
    });
    expect(teamReport('Platform').sections?.['people']).toMatchObject({ active: 2, activeMovedOut: 0 });
    expect(row('Platform')).toMatchObject({ seats: 2, active_users: 2, seat_utilization: 1 });
  });
});
