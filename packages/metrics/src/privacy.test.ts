/**
 * The privacy rules on a small organization, hand-computed, with a minimum group size of 3:
 * Platform has 4 people (Ann, Bob, Cat, Dan), Data 3 (Eve, Fay, Gus), Tiny 1 (Hal, with 777 credits),
 * Duo 2 (Ida, Jon); Kim is in no team of the directory. The control history names Eve as its author.
 */
import { describe, expect, it } from 'vitest';
import { buildReportModel } from './build-report-model.ts';
import {
  holdBackMix,
  holdBackSmallGroups,
  identitiesOf,
  protectModel,
  WITHHELD,
  withholdPeople,
} from './privacy.ts';
import { indexDirectory, parseScope, resolveScope } from './scope.ts';
import type { DirectoryPerson, PeopleDirectory, TableSheet } from './section.ts';
import { BUILTIN_SECTIONS } from './sections/index.ts';
import type { TeamRow, TeamsSection } from './sections/teams/index.ts';
import { buildSnapshot, tokensDay, userDay } from './testing/snapshot-builder.ts';

const teamOf: Record<string, string> = {
  ann: 'Platform',
  bob: 'Platform',
  cat: 'Platform',
  dan: 'Platform',
  eve: 'Data',
  fay: 'Data',
  gus: 'Data',
  hal: 'Tiny',
  ida: 'Duo',
  jon: 'Duo',
};
const directory: PeopleDirectory = {
  source: 'people.csv',
  people: Object.entries(teamOf).map(
    ([n, team]): DirectoryPerson => ({
      email: `${n}@x.test`,
      team,
      costCenter: `CC-${team}`,
      manager: null,
      repositories: [],
      attributes: {},
    }),
  ),
};
const names = [...Object.keys(teamOf), 'kim'];
const credits = (n: string) =>
  n === 'hal' ? 777 : n === 'ida' ? 41 : n === 'jon' ? 43 : 100 + n.charCodeAt(0);
const rows = names.map((n) =>
  userDay(`id-${n}`, '2026-03-02', {
    user_email: `${n}@x.test`,
    billable_tokens: credits(n),
    tool_calls: 3,
    user_messages: 1,
    delegation_level: n === 'hal' ? 'manual' : 'auto-high',
  }),
);
const snapshot = buildSnapshot({
  month: '2026-03',
  tokens: [tokensDay('2026-03-02', { billable_tokens: rows.reduce((a, r) => a + r.billable_tokens, 0) })],
  userDays: rows,
  orgUsers: names.map((n) => ({
    id: `id-${n}`,
    email: `${n}@x.test`,
    firstName: n.toUpperCase(),
    lastName: 'Planted',
  })),
  controls: [
    {
      revision: 2,
      settings: { cloudSessionSync: true },
      user: { id: 'id-eve', email: 'eve@x.test', name: 'EVE Planted' },
      updatedAt: '2026-03-05T10:00:00Z',
    },
    {
      revision: 1,
      settings: { cloudSessionSync: false },
      user: { id: 'id-eve', email: 'eve@x.test', name: 'EVE Planted' },
      updatedAt: '2026-01-20T10:00:00Z',
    },
  ],
});
const options = { generatedAt: '2026-04-01T00:00:00Z', inputs: { directory } };
const organization = buildReportModel(snapshot, options);
const people = identitiesOf(snapshot, directory);
const index = indexDirectory(directory, snapshot.manifest.fetchedRange, { managers: true });

describe('holding back small groups', () => {
  it('holds back every group under the minimum and the next smallest until what is held back reaches it', () => {
    // Sizes 4, 3, 1, 2 with a minimum of 3: 1 and 2 are held (3 people): enough.
    expect(holdBackSmallGroups([4, 3, 1, 2], (s) => s, 3)).toEqual({ kept: [4, 3], held: [1, 2], people: 3 });
    // Sizes 9, 4, 1 with a minimum of 3: 1 alone would be told by the total: 4 goes too.
    expect(holdBackSmallGroups([9, 4, 1], (s) => s, 3)).toEqual({ kept: [9], held: [4, 1], people: 5 });
    // Totals (null) are never held back; nothing small, nothing held.
    expect(holdBackSmallGroups([5, null, 6], (s) => s, 3)).toEqual({
      kept: [5, null, 6],
      held: [],
      people: 0,
    });
    expect(holdBackMix({ 'auto-high': 9, manual: 1, spec: 0 }, 3)).toEqual({
      counts: {},
      held: ['auto-high', 'manual'],
      people: 10,
    });
    expect(holdBackMix({ 'auto-high': 9, manual: 2, spec: 3 }, 3)).toEqual({
      counts: { 'auto-high': 9 },
      held: ['manual', 'spec'],
      people: 5,
    });
  });
});

describe('the teams of the directory', () => {
  it("counts the directory's teams apart from Unassigned, whose members are the people it does not list", () => {
    const teams = organization.sections?.teams as TeamsSection;
    // Platform, Data, Tiny and Duo; Kim, in no team, is Unassigned's one person (seat and activity).
    expect(teams.rows.map((r) => r.team).sort()).toEqual(['Data', 'Duo', 'Platform', 'Tiny', 'Unassigned']);
    expect(teams.teams).toBe(4);
    expect(teams.rows.find((r) => r.team === 'Unassigned')?.members).toBe(1);
    expect(teams.unassigned.people).toBe(1);
  });
});

describe('protectModel', () => {
  it('gives a reader who may see nobody no person and no small group, in any member', () => {
    const model = protectModel(organization, {
      policy: { minGroupSize: 3, personRows: 'none' },
      sections: BUILTIN_SECTIONS,
      people,
    });
    const text = JSON.stringify(model);
    expect(model.users).toEqual([]);
    expect(model.seats.dormant_users).toEqual([]);
    const teams = model.sections?.teams as TeamsSection;
    // Tiny (1), Duo (2) and the Unassigned (Kim's 1 seat) are held back together: 777 + 41 + 43 + 207 credits.
    expect(teams.rows.map((r) => r.team)).toEqual([
      'Platform',
      'Data',
      'Other teams (held back: small groups)',
    ]);
    expect(teams.rows.find((r) => r.team.startsWith('Other'))?.credits).toBe(777 + 41 + 43 + 207);
    for (const figure of ['777', '"Tiny"', '"Duo"']) expect(text).not.toContain(figure);
    for (const n of names) {
      expect(text).not.toContain(`${n}@x.test`);
      expect(text).not.toContain(`id-${n}`);
      expect(text).not.toContain(`${n.toUpperCase()} Planted`);
    }
    expect(text).toContain(WITHHELD); // the control change's author
    expect(model.privacy).toMatchObject({ minGroupSize: 3, personRows: 'none' });
    expect(model.definitions.find((d) => d.id === 'privacy')?.text).toMatch(/Minimum group size: 3 people/);
  });

  it('leaves a delegation level held back empty in the Teams sheet, never a zero', () => {
    // Platform's 7 active users: 4 at auto-high, 1 each at auto-low, spec and manual, none at auto-medium.
    const mixed = structuredClone(organization);
    const platform = (mixed.sections!.teams as TeamsSection).rows.find((r) => r.team === 'Platform')!;
    Object.assign(platform, {
      active_users: 7,
      delegation_users: 7,
      delegation: { 'auto-high': 4 / 7, 'auto-medium': 0, 'auto-low': 1 / 7, spec: 1 / 7, manual: 1 / 7 },
    });
    const model = protectModel(mixed, {
      policy: { minGroupSize: 3, personRows: 'none' },
      sections: BUILTIN_SECTIONS,
      people,
    });
    const sheet = BUILTIN_SECTIONS.find((s) => s.id === 'teams')!.sheets![0] as TableSheet<TeamRow>;
    const row = (model.sections!.teams as TeamsSection).rows.find((r) => r.team === 'Platform')!;
    const cells = Object.fromEntries(
      sheet.columns!(model)
        .filter((c) => c.header.startsWith('delegation_'))
        .map((c) => [c.header, c.value(row)]),
    );
    // The three levels of one person each are held back together (3 people): their cells say nothing,
    // while a level nobody is at is a true zero.
    expect(cells).toEqual({
      delegation_auto_high: 4 / 7,
      delegation_auto_medium: 0,
      delegation_auto_low: null,
      delegation_spec: null,
      delegation_manual: null,
    });
    // ... and the report's list of what it held back says so (the three levels, three people).
    expect(model.privacy?.suppressed).toContainEqual({
      where: 'Teams: delegation levels',
      group: '3 groups',
      people: 3,
    });
  });

  it("leaves a week's other levels shown when only its named levels are held back, and empty with one of them", () => {
    const weekOf = (levels: Record<string, number>) => {
      const mixed = structuredClone(organization);
      const week = mixed.behaviour.weeks[0]!;
      const total = Object.values(levels).reduce((a, n) => a + n, 0);
      const shares = Object.fromEntries(Object.entries(levels).map(([k, n]) => [k, n / total]));
      week.delegation = { active_users: total, counts: levels, shares };
      const row = mixed.weekly.find((w) => w.week === week.span)!;
      Object.assign(row, {
        delegation_auto_high: shares['auto-high'] ?? 0,
        delegation_auto_medium: 0,
        delegation_auto_low: shares['auto-low'] ?? 0,
        delegation_spec: shares['spec'] ?? 0,
        delegation_manual: shares['manual'] ?? 0,
        delegation_other: shares['turbo'] ?? 0,
      });
      const model = protectModel(mixed, {
        policy: { minGroupSize: 3, personRows: 'none' },
        sections: BUILTIN_SECTIONS,
        people,
      });
      const protectedRow = model.weekly.find((w) => w.week === week.span)!;
      return {
        row: protectedRow,
        held: model.privacy!.suppressed.filter((h) => h.where.endsWith(week.span)),
      };
    };
    // auto-low (2 people) and spec (1) are held back together (3); nobody is at a level outside the five: 0.
    const named = weekOf({ 'auto-high': 6, 'auto-low': 2, spec: 1, manual: 3 });
    expect(named.row).toMatchObject({
      delegation_auto_high: 6 / 12,
      delegation_auto_low: null,
      delegation_spec: null,
      delegation_manual: 3 / 12,
      delegation_other: 0,
    });
    // As many empty cells as the list counts groups.
    expect(named.held).toEqual([
      { where: `Delegation levels of the week ${named.row.week}`, group: '2 groups', people: 3 },
    ]);
    // One person at a level outside the five is held back with the next smallest: "other" says nothing.
    const other = weekOf({ 'auto-high': 6, turbo: 1, manual: 3 });
    expect(other.row).toMatchObject({
      delegation_auto_high: 6 / 10,
      delegation_manual: null,
      delegation_other: null,
    });
  });

  it('leaves out who started, stopped or moved for a reader of groups when fewer than the minimum did one', () => {
    const withTurnover = (fact: Record<string, number>) => {
      const model = structuredClone(organization);
      model.whatChanged = [{ kind: 'users', active: 31, ...fact } as (typeof model.whatChanged)[number]];
      return model;
    };
    const protect = (model: typeof organization, personRows: 'none' | 'all') =>
      protectModel(model, { policy: { minGroupSize: 5, personRows }, sections: BUILTIN_SECTIONS, people });
    // Team Payments' month: 6 new, 1 moved in, 0 no longer active, 1 moved out.
    const payments = withTurnover({ new: 6, lost: 0, movedIn: 1, movedOut: 1 });
    const groups = protect(payments, 'none');
    expect(groups.whatChanged.filter((f) => f.kind === 'users')).toEqual([]);
    expect(groups.privacy?.suppressed).toContainEqual({
      where: 'What changed: new, no longer active and moved users',
      group: '3 groups',
      people: 8,
    });
    // A reader of the people's rows reads it; and a breakdown of 0s and 5s or more stays.
    expect(protect(payments, 'all').whatChanged).toEqual(payments.whatChanged);
    const large = withTurnover({ new: 6, lost: 0, movedIn: 5, movedOut: 0 });
    expect(protect(large, 'none').whatChanged).toEqual(large.whatChanged);
  });

  it("holds back a level's cells across the teams until they make the minimum, so no total less the others tells one", () => {
    // Platform: auto-high 4, and one person each at auto-low, spec and manual (held back together).
    // Data: 3 at auto-high, 6 at auto-low. Platform's lone auto-low person would be the scope's
    // auto-low count less Data's 6: Data's auto-low is held back with it (1 + 6 people).
    const mixed = structuredClone(organization);
    const rows = (mixed.sections!.teams as TeamsSection).rows;
    Object.assign(rows.find((r) => r.team === 'Platform')!, {
      active_users: 7,
      delegation_users: 7,
      delegation: { 'auto-high': 4 / 7, 'auto-medium': 0, 'auto-low': 1 / 7, spec: 1 / 7, manual: 1 / 7 },
    });
    Object.assign(rows.find((r) => r.team === 'Data')!, {
      active_users: 9,
      delegation_users: 9,
      delegation: { 'auto-high': 3 / 9, 'auto-medium': 0, 'auto-low': 6 / 9, spec: 0, manual: 0 },
    });
    const model = protectModel(mixed, {
      policy: { minGroupSize: 3, personRows: 'none' },
      sections: BUILTIN_SECTIONS,
      people,
    });
    const data = (model.sections!.teams as TeamsSection).rows.find((r) => r.team === 'Data')!;
    expect(data.delegation).toEqual({ 'auto-high': 3 / 9, 'auto-medium': 0, spec: 0, manual: 0 });
    expect(model.privacy?.suppressed).toContainEqual({
      where: 'Teams: delegation levels',
      group: '4 groups',
      people: 9,
    });
  });

  it("holds back the next smallest team's autonomy and mix with a small team's, as the scope's own are shown", () => {
    // CC-Duo with a second team of 10: Duo's 2 people would be the cost center's autonomy less the
    // other team's, so both teams' autonomy and mix are held back (12 people).
    const scope = resolveScope(index, parseScope('cost-center:CC-Duo'));
    const scoped = buildReportModel(snapshot, { ...options, scope: { scope, organization } });
    const teams = scoped.sections!.teams as TeamsSection;
    const duo = teams.rows.find((r) => r.team === 'Duo')!;
    teams.rows.push({
      ...structuredClone(duo),
      team: 'Duo Two',
      active_users: 10,
      delegation_users: 10,
      autonomy_mean: 5,
    });
    const model = protectModel(scoped, {
      policy: { minGroupSize: 3, personRows: 'none' },
      sections: BUILTIN_SECTIONS,
      people,
    });
    const rows = (model.sections!.teams as TeamsSection).rows;
    for (const team of ['Duo', 'Duo Two']) {
      expect(
        rows.find((r) => r.team === team),
        team,
      ).toMatchObject({ autonomy_mean: null, delegation: {} });
    }
    expect(model.privacy?.suppressed).toContainEqual({
      where: 'Teams: autonomy and delegation',
      group: '2 groups',
      people: 12,
    });
  });

  it("keeps a cost center's own small team for its budget but holds back how its few people work", () => {
    // CC-Duo's owner reads Duo whole (Ida and Jon: 41 + 43 credits), but its autonomy mean and
    // delegation mix would describe 2 people: held back, and no zero tells which level they are at.
    const scope = resolveScope(index, parseScope('cost-center:CC-Duo'));
    const scoped = buildReportModel(snapshot, { ...options, scope: { scope, organization } });
    const before = (scoped.sections!.teams as TeamsSection).rows.find((r) => r.team === 'Duo')!;
    expect(before).toMatchObject({ delegation_users: 2, autonomy_mean: 3 });
    expect(before.delegation['auto-high']).toBe(1);
    const model = protectModel(scoped, {
      policy: { minGroupSize: 3, personRows: 'none' },
      sections: BUILTIN_SECTIONS,
      people,
    });
    const duo = (model.sections!.teams as TeamsSection).rows.find((r) => r.team === 'Duo')!;
    expect(duo).toMatchObject({ credits: 41 + 43, active_users: 2, autonomy_mean: null, delegation: {} });
    const sheet = BUILTIN_SECTIONS.find((s) => s.id === 'teams')!.sheets![0] as TableSheet<TeamRow>;
    const cells = sheet.columns!(model)
      .filter((c) => c.header === 'autonomy_mean' || c.header.startsWith('delegation_'))
      .map((c) => c.value(duo));
    expect(cells).toEqual([null, null, null, null, null, null]);
    // Two people are fewer than the minimum of 3: their exact count would tell what is held back.
    expect(model.privacy?.suppressed).toContainEqual({
      where: 'Teams: autonomy and delegation',
      group: '1 group',
      people: null,
    });
    // The definitions page (and the workbook's Definitions sheet) lists what each section held
    // back, in the order the sections recorded it.
    const rule = model.definitions.find((d) => d.id === 'privacy')?.text;
    expect(rule).toContain(
      'Held back in this report’s figures (in one or more of its formats): Delegation levels of the month (1 group, fewer than 3 people); Delegation levels of the week 2026-W10 (1 group, fewer than 3 people); Actions: people active on one or two days (1 group, fewer than 3 people); People active on one or two days (1 group, fewer than 3 people); Teams: autonomy and delegation (1 group, fewer than 3 people).',
    );
    // With every person's rows (the organization report), nothing of Duo's is held back.
    const open = protectModel(scoped, {
      policy: { minGroupSize: 3, personRows: 'all' },
      sections: BUILTIN_SECTIONS,
      people,
    });
    expect((open.sections!.teams as TeamsSection).rows.find((r) => r.team === 'Duo')?.autonomy_mean).toBe(3);
    expect(open.definitions.find((d) => d.id === 'privacy')?.text).not.toContain('Held back');
  });

  it("gives a manager their scope's people and nobody else", () => {
    const scope = resolveScope(index, parseScope('team:Platform'));
    const scoped = buildReportModel(snapshot, { ...options, scope: { scope, organization } });
    const model = protectModel(scoped, {
      policy: { minGroupSize: 3, personRows: 'scope' },
      sections: BUILTIN_SECTIONS,
      people,
    });
    expect(model.users.map((u) => u.email).sort()).toEqual([
      'ann@x.test',
      'bob@x.test',
      'cat@x.test',
      'dan@x.test',
    ]);
    const text = JSON.stringify(model);
    for (const n of ['eve', 'fay', 'gus', 'hal', 'ida', 'jon', 'kim']) {
      expect(text).not.toContain(`${n}@x.test`);
      expect(text).not.toContain(`id-${n}`);
    }
    // The organization's control change is context; its author is not the reader's to see.
    expect(model.controls.changes[0]?.user.email).toBe(WITHHELD);
  });

  it('leaves the organization report to its named readers as it was', () => {
    const model = protectModel(organization, {
      policy: { minGroupSize: 3, personRows: 'all' },
      sections: BUILTIN_SECTIONS,
      people,
    });
    expect(model.users).toHaveLength(organization.users.length);
    expect(JSON.stringify(model)).toContain('hal@x.test');
    expect((model.sections!.teams as TeamsSection).rows.map((r) => r.team)).toContain('Tiny');
  });
});

describe('withholdPeople', () => {
  const alert = {
    sentence: 'Team Platform used 900 credits; EVE Planted changed a setting.',
    figures: { by: 'EVE Planted <eve@x.test>', members: 4 },
    sql: "SELECT * FROM user_days WHERE lower(user_email) IN ('ann@x.test', 'bob@x.test') AND user_id = 'id-cat'",
  };

  it('withholds everyone the reader may not see, in every string, keeping the rest', () => {
    const out = withholdPeople(alert, people, []);
    expect(out).toEqual({
      sentence: `Team Platform used 900 credits; ${WITHHELD} changed a setting.`,
      figures: { by: `${WITHHELD} <${WITHHELD}>`, members: 4 },
      sql: `SELECT * FROM user_days WHERE lower(user_email) IN ('${WITHHELD}', '${WITHHELD}') AND user_id = '${WITHHELD}'`,
    });
    // The value given is left as it was.
    expect(alert.figures.by).toBe('EVE Planted <eve@x.test>');
  });

  it('names those allowed, by e-mail or id in any case, with their other identities', () => {
    const out = withholdPeople(alert, people, ['EVE@x.test', 'id-ann']);
    expect(out.figures.by).toBe('EVE Planted <eve@x.test>');
    expect(out.sentence).toContain('EVE Planted changed');
    expect(out.sql).toBe(
      `SELECT * FROM user_days WHERE lower(user_email) IN ('ann@x.test', '${WITHHELD}') AND user_id = '${WITHHELD}'`,
    );
  });
});
