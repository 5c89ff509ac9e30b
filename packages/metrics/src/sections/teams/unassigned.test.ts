/**
 * People the directory does not list, as data quality counts them: Dee is active and has a seat (one
 * person, not two), Eve has a seat only; Ann is listed. Hand-computed: 2 people, 1 active user, 2 seats.
 */
import { describe, expect, it } from 'vitest';
import { buildReportModel } from '../../build-report-model.ts';
import type { PeopleDirectory } from '../../section.ts';
import { buildSnapshot, tokensDay, userDay } from '../../testing/snapshot-builder.ts';
import type { TeamsSection } from './index.ts';

const directory: PeopleDirectory = {
  source: 'people.csv',
  people: [
    {
      email: 'ann@x.test',
      team: 'Platform',
      costCenter: 'CC-1',
      manager: null,
      repositories: [],
      attributes: {},
    },
  ],
};
const snapshot = buildSnapshot({
  month: '2026-03',
  tokens: [tokensDay('2026-03-02', { billable_tokens: 700 })],
  userDays: [
    userDay('a', '2026-03-02', { user_email: 'ann@x.test', billable_tokens: 600, tool_calls: 4 }),
    userDay('d', '2026-03-02', { user_email: 'dee@x.test', billable_tokens: 100, tool_calls: 2 }),
  ],
  orgUsers: [
    { id: 'a', email: 'ann@x.test' },
    { id: 'd', email: 'dee@x.test' },
    { id: 'e', email: 'eve@x.test' },
  ],
});
const model = buildReportModel(snapshot, {
  generatedAt: '2026-04-01T06:00:00.000Z',
  pricePerCredit: 0.001,
  currency: 'EUR',
  inputs: { directory },
});

describe('people the directory does not list', () => {
  it('counts each person once, whether active, with a seat or both, and names the directory once', () => {
    expect((model.sections!.teams as TeamsSection).unassigned).toEqual({
      active_users: 1,
      seats: 2,
      people: 2,
      examples: ['dee@x.test'],
    });
    const finding = model.dataQuality.find((f) => f.kind === 'directory_unassigned');
    expect(finding?.count).toBe(2);
    expect(finding?.message).toBe(
      '2 people (active users 1, seats 2) are not in people.csv and count as "Unassigned".',
    );
    expect(finding?.details).toEqual(['dee@x.test']);
  });
});
