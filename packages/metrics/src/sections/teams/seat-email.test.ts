/**
 * A user whose `/users` rows carry no e-mail (the API allows `user_email: null`) is placed by their
 * seat's e-mail, as the month's allocation places them: in their team's figures of both months, in
 * the team's autonomy and delegation, on their own user row and in a manager's report. Hand-computed:
 * Ann (rows with her e-mail) and Fay (rows without one, a seat as fay@x.test) are both in Platform;
 * March: Ann 600 credits, Fay 400; February: Fay 300.
 */
import { describe, expect, it } from 'vitest';
import { buildReportModel } from '../../build-report-model.ts';
import { indexDirectory, parseScope, resolveScope } from '../../scope.ts';
import type { DirectoryPerson, PeopleDirectory } from '../../section.ts';
import { buildSnapshot, tokensDay, userDay } from '../../testing/snapshot-builder.ts';
import type { TeamsSection } from './index.ts';

const person = (email: string, manager: string | null): DirectoryPerson => ({
  email,
  team: manager === null ? 'Leadership' : 'Platform',
  costCenter: 'CC-1',
  manager,
  repositories: [],
  attributes: {},
});
const directory: PeopleDirectory = {
  source: 'people.csv',
  people: [
    person('ivo@x.test', null),
    person('ann@x.test', 'ivo@x.test'),
    person('fay@x.test', 'ivo@x.test'),
  ],
};
const snapshot = buildSnapshot({
  month: '2026-03',
  tokens: [
    tokensDay('2026-03-02', { billable_tokens: 1000 }),
    tokensDay('2026-02-10', { billable_tokens: 300 }),
  ],
  userDays: [
    userDay('a', '2026-03-02', {
      user_email: 'ann@x.test',
      billable_tokens: 600,
      tool_calls: 4,
      user_messages: 2,
    }),
    userDay('f', '2026-03-02', { user_email: null, billable_tokens: 400, tool_calls: 3, user_messages: 1 }),
    userDay('f', '2026-02-10', { user_email: null, billable_tokens: 300, tool_calls: 1 }),
  ],
  orgUsers: [
    { id: 'a', email: 'ann@x.test' },
    { id: 'f', email: 'fay@x.test' },
    { id: 'i', email: 'ivo@x.test' },
  ],
});
const options = {
  generatedAt: '2026-04-01T06:00:00.000Z',
  pricePerCredit: 0.001,
  currency: 'EUR',
  inputs: { directory },
};
const organization = buildReportModel(snapshot, options);

describe('a user whose rows carry no e-mail', () => {
  it('counts to their seat’s team in both months, and nobody is unassigned', () => {
    const teams = organization.sections?.teams as TeamsSection;
    const rows = teams.rows.map((r) => [
      r.team,
      r.active_users,
      r.credits,
      r.previous_credits,
      r.delegation_users,
    ]);
    expect(rows).toEqual([
      ['Platform', 2, 1000, 300, 2],
      ['Leadership', 0, 0, 0, 0],
    ]);
    // Ann 4 / 2 = 2, Fay 3 / 1 = 3.
    expect(teams.rows[0]!.autonomy_mean).toBe(2.5);
    expect(teams.unassigned).toEqual({ active_users: 0, seats: 0, people: 0, examples: [] });
  });

  it('has their seat’s e-mail, team and credit cost on their user row, so the users add up to the bill', () => {
    const users = organization.users.map((u) => [u.user_id, u.email, u.team, u.cost]);
    expect(users).toEqual([
      ['a', 'ann@x.test', 'Platform', 0.6],
      ['f', 'fay@x.test', 'Platform', 0.4],
    ]);
    const teams = organization.sections?.teams as TeamsSection;
    expect(teams.rows[0]!.cost).toBe(1);
  });

  it('is one of their manager’s people, with their credits', () => {
    const index = indexDirectory(directory, snapshot.manifest.fetchedRange, { managers: true });
    const scope = resolveScope(index, parseScope('manager:ivo@x.test'));
    const report = buildReportModel(snapshot, { ...options, scope: { scope, organization } });
    expect(report.users.map((u) => [u.email, u.team, u.credits, u.cost])).toEqual([
      ['ann@x.test', 'Platform', 600, 0.6],
      ['fay@x.test', 'Platform', 400, 0.4],
    ]);
  });
});
