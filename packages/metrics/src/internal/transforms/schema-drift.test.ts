import type { ControlChange, OrgUser } from '@orgreport/api-core';
import { describe, expect, it } from 'vitest';
import { buildReportModel } from '../../build-report-model.ts';
import { activityDay, buildSnapshot, tokensDay, userDay } from '../../testing/snapshot-builder.ts';
import { manifestUnknownFields, settingsDrift, unknownClients, unknownFields } from './schema-drift.ts';

const change = (revision: number, settings: Record<string, unknown>): ControlChange => ({
  revision,
  settings,
  user: { email: 'owner@example.test' },
  updatedAt: `2026-03-0${revision}T10:00:00Z`,
});

describe('unknown clients', () => {
  it('sums the user-days of client types the spec does not list, largest first', () => {
    const finding = unknownClients([
      activityDay('2026-03-02', { daily_active_users_by_client: { web: 3, 'ide-plugin': 2, watch: 1 } }),
      activityDay('2026-03-03', { daily_active_users_by_client: { 'ide-plugin': 4 } }),
    ]);
    expect(finding).toEqual({
      kind: 'client_unknown',
      message: expect.any(String),
      count: 2,
      details: [
        { client: 'ide-plugin', user_days: 6 },
        { client: 'watch', user_days: 1 },
      ],
    });
  });

  it('is null when every client is known', () => {
    const days = [activityDay('2026-03-02', { daily_active_users_by_client: { web: 3, 'terminal-ui': 1 } })];
    expect(unknownClients(days)).toBeNull();
  });
});

describe('unknown fields', () => {
  it('lists top-level fields outside each schema with the rows carrying them', () => {
    const snapshot = buildSnapshot({
      month: '2026-03',
      tokens: [
        { ...tokensDay('2026-03-02'), api_revision: 19 } as never,
        tokensDay('2026-03-03'),
        { ...tokensDay('2026-03-04'), api_revision: 19, x_meta: {} } as never,
      ],
      orgUsers: [{ id: 'u1', email: 'a@example.test', firstName: 'A', nickname: 'a' } as never],
    });
    const finding = unknownFields(snapshot, { userDays: ['team_id'], tokens: ['from_manifest'] });
    expect(finding?.kind).toBe('unknown_fields');
    expect(finding?.details).toEqual([
      { dataset: 'orgUsers', fields: ['nickname'], rows: 1 },
      { dataset: 'tokens', fields: ['api_revision', 'from_manifest', 'x_meta'], rows: 2 },
      { dataset: 'userDays', fields: ['team_id'], rows: null },
    ]);
    expect(finding?.count).toBe(5);
  });

  it('does not flag documented optional fields (by_user of tokens)', () => {
    const snapshot = buildSnapshot({ month: '2026-03', tokens: [tokensDay('2026-03-02', { by_user: [] })] });
    expect(unknownFields(snapshot)).toBeNull();
  });

  it('reads the manifest entry only when it is a record of string lists', () => {
    expect(manifestUnknownFields({})).toEqual({});
    expect(manifestUnknownFields({ unknownFields: ['x'] })).toEqual({});
    expect(manifestUnknownFields({ unknownFields: { userDays: ['a', 3], bad: 'b' } })).toEqual({
      userDays: ['a'],
    });
  });
});

describe('settings drift', () => {
  it('lists unknown settings and documented settings the previous revision had', () => {
    const finding = settingsDrift([
      // Given out of order: revisions are compared in revision order.
      change(3, { cloudSessionSyncEnabled: true, enableAgentShield: true, agentPolicy: { level: 1 } }),
      change(2, { cloudSessionSync: true, enableAgentShield: false, wikiCloudSync: true }),
      change(4, { cloudSessionSync: true, enableAgentShield: true }),
    ]);
    expect(finding).toEqual({
      kind: 'settings_unknown_keys',
      message: expect.any(String),
      count: 1,
      details: [
        {
          revision: 3,
          unknown: ['agentPolicy', 'cloudSessionSyncEnabled'],
          missing: ['cloudSessionSync', 'wikiCloudSync'],
        },
      ],
    });
  });

  it('is null for documented settings that are only added', () => {
    expect(settingsDrift([change(1, {}), change(2, { enableAgentShield: true })])).toBeNull();
  });
});

describe('schema drift in the report model', () => {
  const orgUsers: OrgUser[] = [{ id: 'u1', email: 'u1@example.test', firstName: 'U', lastName: 'One' }];
  const snapshot = buildSnapshot({
    month: '2026-03',
    noComparison: true,
    activity: [
      activityDay('2026-03-02', {
        daily_active_users: 2,
        daily_active_users_by_client: { 'terminal-ui': 2, 'ide-plugin': 1 },
      }),
      // Outside the period: not counted.
      activityDay('2026-02-27', { daily_active_users_by_client: { 'ide-plugin': 9 } }),
    ],
    userDays: [
      userDay('u1', '2026-03-02', { tool_calls: 4, user_messages: 2, delegation_level: 'auto-max' }),
      userDay('u2', '2026-03-02', { tool_calls: 1, user_messages: 1, delegation_level: 'spec' }),
    ],
    orgUsers,
    controls: [change(1, { wikiCloudSync: true }), change(2, { wikiSync: true })],
  });
  (snapshot.manifest as { unknownFields?: Record<string, string[]> }).unknownFields = { userDays: ['team'] };
  const model = buildReportModel(snapshot, { generatedAt: '2026-04-01T06:00:00.000Z' });
  const kind = (k: string) => model.dataQuality.find((f) => f.kind === k);

  it('keeps the unknown client in the clients table and reports its period user-days', () => {
    expect(model.clients.find((c) => c.client === 'ide-plugin')?.user_days).toBe(1);
    expect(kind('client_unknown')?.details).toEqual([{ client: 'ide-plugin', user_days: 1 }]);
  });

  it('counts the active user with an unknown delegation level', () => {
    expect(kind('delegation_unknown')).toMatchObject({
      count: 1,
      details: [{ level: 'auto-max', users: 1 }],
    });
  });

  it('reports the manifest unknown fields and the renamed setting', () => {
    expect(kind('unknown_fields')?.details).toEqual([{ dataset: 'userDays', fields: ['team'], rows: null }]);
    expect(kind('settings_unknown_keys')?.details).toEqual([
      { revision: 2, unknown: ['wikiSync'], missing: ['wikiCloudSync'] },
    ]);
  });

  it('gives the mean daily active users the ratio unit (two decimals)', () => {
    expect(model.figures.find((f) => f.id === 'avg_dau')?.unit).toBe('ratio');
  });
});
