import { CLIENT_TYPES, DELEGATION_LEVELS, eachDay, OrgClient, type UserDay } from '@orgreport/api-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DRIFT, isDriftedRevision } from './drift.ts';
import { createOrganization, type RunningEmulator, startEmulator } from './index.ts';

const TODAY = '2026-11-22';
const OCTOBER = eachDay('2026-10-01', '2026-10-31');
const plain = createOrganization({ seed: 5, users: 40, today: TODAY });
const drifted = createOrganization({ seed: 5, users: 40, today: TODAY, drift: true });

/** A row without drift's unknown fields. */
function known<T extends object>(row: T): T {
  const { [DRIFT.extraField]: _a, [DRIFT.extraScalarField]: _b, ...rest } = row as Record<string, unknown>;
  return rest as T;
}

describe('createOrganization: drift', () => {
  it('adds unknown fields to every resource and analytics row', () => {
    const d = '2026-10-06';
    const rows: object[] = [
      drifted.tokensDay(d),
      drifted.toolsDay(d),
      drifted.activityDay(d),
      drifted.productivityDay(d),
      ...drifted.tokensByModelRows(d),
      ...drifted.toolsByNameRows(d),
      ...drifted.activityByClientRows(d),
      ...drifted.userDays({ start: d, end: d }),
      drifted.orgUser(5),
      drifted.readinessReports[0]!,
      drifted.controlHistory[0]!,
      drifted.computers[0]!,
    ];
    for (const row of rows) {
      expect(row).toHaveProperty(DRIFT.extraField);
      expect(row).toHaveProperty(DRIFT.extraScalarField);
    }
    expect(plain.tokensDay(d)).not.toHaveProperty(DRIFT.extraField);
    expect([...plain.userDays({ start: d, end: d })][0]).not.toHaveProperty(DRIFT.extraField);
  });

  it('keeps every figure of the plain organization: drift changes shape, not numbers', () => {
    for (const d of OCTOBER.slice(0, 7)) {
      expect(known(drifted.tokensDay(d))).toEqual(plain.tokensDay(d));
      expect(known(drifted.toolsDay(d))).toEqual(plain.toolsDay(d));
      expect(known(drifted.productivityDay(d))).toEqual(plain.productivityDay(d));
      const a = known(drifted.activityDay(d));
      const b = plain.activityDay(d);
      const { [DRIFT.clientType]: _new, ...knownClients } = a.daily_active_users_by_client;
      expect({ ...a, daily_active_users_by_client: knownClients }).toEqual(b);
    }
    const range = { start: '2026-10-01', end: '2026-10-31' };
    const rows = [...drifted.userDays(range)];
    const base = [...plain.userDays(range)];
    expect(rows).toHaveLength(base.length);
    rows.forEach((r, i) => {
      const { delegation_level: _d, ...rest } = known(r);
      const { delegation_level: _e, ...baseRest } = base[i]!;
      expect(rest).toEqual(baseRest);
    });
  });

  it('puts the unknown delegation level on some user-days of some users, not on all', () => {
    const rows = [...drifted.userDays({ start: '2026-10-01', end: '2026-10-31' })];
    const unknown = rows.filter((r) => r.delegation_level === DRIFT.delegationLevel);
    expect((DELEGATION_LEVELS as readonly string[]).includes(DRIFT.delegationLevel)).toBe(false);
    expect(unknown.length).toBeGreaterThan(rows.length / 20);
    expect(unknown.length).toBeLessThan(rows.length / 3);
    const adopters = new Set(unknown.map((r) => r.user_id));
    const users = new Set(rows.map((r) => r.user_id));
    expect(adopters.size).toBeGreaterThan(0);
    expect(adopters.size).toBeLessThan(users.size / 2);
    // An adopter uses the new level on most of their days, so it is their usual level.
    for (const id of adopters) {
      const days = rows.filter((r) => r.user_id === id);
      const onNew = days.filter((r) => r.delegation_level === DRIFT.delegationLevel);
      if (days.length >= 10) expect(onNew.length, id).toBeGreaterThan(days.length / 3);
    }
  });

  it('counts the unknown client type among the day active users, the same in both activity views', () => {
    expect((CLIENT_TYPES as readonly string[]).includes(DRIFT.clientType)).toBe(false);
    let seen = 0;
    for (const d of OCTOBER) {
      const day = drifted.activityDay(d);
      const n = day.daily_active_users_by_client[DRIFT.clientType];
      expect(n, d).toBeTypeOf('number');
      expect(n!).toBeLessThanOrEqual(day.daily_active_users);
      seen += n!;
      const grouped = drifted.activityByClientRows(d);
      const byKey = Object.fromEntries(grouped.map((r) => [r.group_key, r.daily_active_users]));
      expect(byKey).toEqual(day.daily_active_users_by_client);
    }
    expect(seen).toBeGreaterThan(0);
  });

  it('renames and removes settings in some revisions, keeping custom-model keys under apiKey', () => {
    const changes = drifted.controlHistory;
    const renamed = changes.filter((c) => isDriftedRevision(c.revision));
    const intact = changes.filter((c) => !isDriftedRevision(c.revision));
    expect(renamed.length).toBeGreaterThan(0);
    expect(intact.length).toBeGreaterThan(0);
    for (const c of renamed) {
      const s = c.settings as Record<string, unknown>;
      expect(s).not.toHaveProperty('cloudSessionSync');
      expect(s).toHaveProperty('cloudSessionSyncEnabled');
      expect(s).toHaveProperty('commandAllowList');
      expect(s).not.toHaveProperty('wikiCloudSync');
      expect(s).not.toHaveProperty('sessionRetentionDays');
      expect(s).toHaveProperty(DRIFT.addedSetting);
    }
    for (const c of intact) expect(c.settings).toHaveProperty('cloudSessionSync');
    const original = new Map(plain.controlHistory.map((c) => [c.revision, c.settings.customModels]));
    for (const c of changes) expect(c.settings.customModels).toEqual(original.get(c.revision));
  });
});

describe('drift over HTTP', () => {
  let emu: RunningEmulator;
  let client: OrgClient;
  beforeAll(async () => {
    emu = await startEmulator({ seed: 5, users: 40, today: TODAY, drift: true });
    client = new OrgClient({
      apiKey: emu.keys.owner,
      baseUrl: emu.baseUrl,
      appUrl: emu.appUrl,
      maxRetries: 0,
    });
  });
  afterAll(() => emu.close());

  it('passes the option through startEmulator and every response still validates against the schemas', async () => {
    expect(emu.organization.drift).toBe(true);
    const range = { startDate: '2026-10-01', endDate: '2026-10-31' };
    const { data: activity } = await client.analytics.activity(range);
    expect(activity[0]!.daily_active_users_by_client).toHaveProperty(DRIFT.clientType);
    expect(activity[0]).toHaveProperty(DRIFT.extraField);
    const { data: byClient } = await client.analytics.activity({ ...range, groupBy: 'client' });
    expect(byClient.some((r) => r.group_key === DRIFT.clientType)).toBe(true);
    await client.analytics.tokens(range);
    await client.analytics.tokens({ ...range, groupBy: 'model' });
    await client.analytics.tools(range);
    await client.analytics.tools({ ...range, groupBy: 'tool_name' });
    await client.analytics.productivity(range);
    const history = await client.controls.history().toArray();
    expect(history.some((c) => 'cloudSessionSyncEnabled' in c.settings)).toBe(true);
    expect((await client.orgUsers.list().toArray())[0]).toHaveProperty(DRIFT.extraField);
    expect((await client.computers.list())[0]).toHaveProperty(DRIFT.extraField);
    expect((await client.readiness.list({}).toArray())[0]).toHaveProperty(DRIFT.extraField);
  });

  it('keeps the month consistent: /users rows add up to the daily tool calls and credits', async () => {
    const range = { startDate: '2026-10-01', endDate: '2026-10-31' };
    const rows: UserDay[] = [];
    for await (const page of client.analytics.users({ ...range, limit: 100 }).pages()) {
      rows.push(...page.items);
    }
    expect(rows.some((r) => r.delegation_level === DRIFT.delegationLevel)).toBe(true);
    const { data: tools } = await client.analytics.tools(range);
    const { data: tokens } = await client.analytics.tokens(range);
    const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
    expect(sum(rows.map((r) => r.tool_calls))).toBe(sum(tools.map((t) => t.tool_calls)));
    expect(sum(rows.map((r) => r.billable_tokens))).toBe(sum(tokens.map((t) => t.billable_tokens)));
  });
});
