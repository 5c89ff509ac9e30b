/** combineSnapshots, hand-computed: two organizations' days as one organization's. */
import { type Snapshot, userDayColumnsFromRows } from '@orgreport/api-core';
import { describe, expect, it } from 'vitest';
import { combineSnapshots } from './combine.ts';

const period = {
  month: '2026-10',
  start: '2026-10-01',
  end: '2026-10-31',
  days: 31,
  partial: false,
  clampedStart: false,
  endsEarly: false,
};

function snapshot(name: string, parts: Partial<Snapshot>): Snapshot {
  return {
    manifest: {
      formatVersion: 1,
      organization: { id: `org_${name}`, name },
      period,
      comparison: null,
      fetchedRange: { start: period.start, end: period.end },
      fetchedAt: name === 'A' ? '2026-11-02T06:00:00.000Z' : '2026-11-01T06:00:00.000Z',
      toolVersion: 't',
      source: { baseUrl: `https://${name}.test`, appUrl: `https://${name}.test` },
      counts: { tokens: 1 },
      checksums: {},
      notes: [`note of ${name}`],
    },
    tokens: [],
    tools: [],
    activity: [],
    productivity: [],
    userDays: userDayColumnsFromRows([]),
    orgUsers: [],
    readiness: [],
    controls: [],
    ...parts,
  } as Snapshot;
}

const tools = (date: string, calls: number, high: number, byTool: Array<[string, number]>) => ({
  date,
  tool_calls: calls,
  by_tool: byTool.map(([tool, invocations]) => ({ tool, invocations })),
  mcp_by_server: [],
  skills_invocations: 0,
  skills_by_name: [],
  slash_commands_invocations: 0,
  slash_commands_by_name: [],
  hooks_invocations: 0,
  hooks_by_event: [],
  autonomy_ratio_p50: 3,
  tool_autonomy_level_ratio: { auto_high: high, manual: 1 - high },
});

describe('combineSnapshots', () => {
  const a = snapshot('A', {
    tools: [
      tools('2026-10-01', 30, 0.5, [
        ['Read', 20],
        ['Bash', 10],
      ]),
    ],
    activity: [
      {
        date: '2026-10-01',
        daily_active_users: 3,
        weekly_active_users: 4,
        monthly_active_users: 5,
        daily_active_users_by_client: { web: 1, 'terminal-ui': 2 },
        sessions: 2,
        messages: 10,
        user_messages: 4,
      },
    ],
    userDays: userDayColumnsFromRows([
      { user_id: 'a1', user_email: null, date: '2026-10-01', tool_calls: 30, billable_tokens: 7 },
    ]),
    orgUsers: [{ id: 'a1', email: 'a1@a.test' } as Snapshot['orgUsers'][number]],
  });
  const b = snapshot('B', {
    tools: [
      tools('2026-10-01', 10, 0.1, [
        ['Read', 5],
        ['Edit', 1],
      ]),
      tools('2026-10-02', 4, 1, []),
    ],
    activity: [
      {
        date: '2026-10-01',
        daily_active_users: 2,
        weekly_active_users: 2,
        monthly_active_users: 2,
        daily_active_users_by_client: { web: 2 },
        sessions: 1,
        messages: 3,
        user_messages: 1,
      },
    ],
    userDays: userDayColumnsFromRows([
      { user_id: 'b1', user_email: 'b1@b.test', date: '2026-10-02', tool_calls: 4, billable_tokens: 2 },
    ]),
    orgUsers: [{ id: 'b1', email: 'b1@b.test' } as Snapshot['orgUsers'][number]],
  });
  const all = combineSnapshots([a, b], { id: 'all', name: 'A and B' });

  it('sums counts per day and merges breakdown items by name', () => {
    expect(all.tools.map((t) => t.date)).toEqual(['2026-10-01', '2026-10-02']);
    const day = all.tools[0]!;
    expect(day.tool_calls).toBe(40);
    expect(day.by_tool).toEqual([
      { tool: 'Read', invocations: 25 },
      { tool: 'Bash', invocations: 10 },
      { tool: 'Edit', invocations: 1 },
    ]);
    expect(all.activity[0]).toMatchObject({
      daily_active_users: 5,
      sessions: 3,
      user_messages: 5,
      daily_active_users_by_client: { web: 3, 'terminal-ui': 2 },
    });
    expect(all.tools[1]!.tool_calls).toBe(4); // a day only one organization has
  });

  it("weights autonomy-level shares by each organization's tool calls and leaves the service's percentiles out", () => {
    // auto_high: (0.5 x 30 + 0.1 x 10) / 40 = 0.4; manual: (0.5 x 30 + 0.9 x 10) / 40 = 0.6
    expect(all.tools[0]!.tool_autonomy_level_ratio.auto_high).toBeCloseTo(0.4, 12);
    expect(all.tools[0]!.tool_autonomy_level_ratio.manual).toBeCloseTo(0.6, 12);
    expect(all.tools[0]!.autonomy_ratio_p50).toBeUndefined();
  });

  it('puts users, organization users and readiness together; no combined control revisions; names the rollup', () => {
    expect(all.userDays.user_id).toEqual(['a1', 'b1']);
    expect(all.userDays.billable_tokens).toEqual([7, 2]);
    expect(all.orgUsers.map((u) => u.id)).toEqual(['a1', 'b1']);
    expect(all.controls).toEqual([]);
    expect(all.manifest.organization).toEqual({ id: 'all', name: 'A and B' });
  });

  it("takes a part's typed-array columns (the store's read) value by value", () => {
    const typed: Snapshot = {
      ...b,
      userDays: {
        ...b.userDays,
        billable_tokens: Float64Array.of(2),
        tool_calls: Int32Array.of(4),
      },
    };
    const both = combineSnapshots([a, typed], { id: 'all', name: 'A and B' });
    expect(both.userDays.billable_tokens).toEqual([7, 2]);
    expect(both.userDays.tool_calls).toEqual(all.userDays.tool_calls);
    expect(all.manifest.fetchedAt).toBe('2026-11-01T06:00:00.000Z'); // the older fetch
    expect(all.manifest.counts.tokens).toBe(2);
    expect(all.manifest.notes[0]).toMatch(/^Rollup of 2 organizations: A, B\./);
    expect(all.manifest.notes).toContain('B: note of B');
  });

  it("keeps each organization's control revisions and readiness reports under its name", () => {
    const revision = (n: number) => ({
      revision: n,
      settings: { enableAgentShield: n % 2 === 0 },
      user: { name: 'Ada' },
      updatedAt: `2026-10-0${n}T10:00:00.000Z`,
    });
    const report = (id: string) => ({
      reportId: id,
      createdAt: Date.parse('2026-10-05T00:00:00Z'),
      repoUrl: 'https://git.example.test/acme/web', // the same URL in both organizations
      apps: {},
      report: {},
    });
    const withLists = combineSnapshots(
      [
        { ...a, controls: [revision(1), revision(2)], readiness: [report('ra')] },
        { ...b, controls: [revision(1)], readiness: [report('rb')] },
      ],
      { id: 'all', name: 'A and B' },
    );
    expect(withLists.controls).toEqual([]); // revision 1 of A is not revision 1 of B
    expect(
      withLists.organizations?.map((o) => [
        o.organization.name,
        o.controls.map((c) => c.revision),
        o.readiness.map((r) => r.reportId),
      ]),
    ).toEqual([
      ['A', [1, 2], ['ra']],
      ['B', [1], ['rb']],
    ]);
    expect(withLists.organizations?.[1]?.organization).toEqual({ id: 'org_B', name: 'B' });
    expect(withLists.readiness.map((r) => r.reportId)).toEqual(['ra', 'rb']);
  });

  it('refuses snapshots of different periods', () => {
    const other = snapshot('C', {});
    other.manifest.period = { ...period, month: '2026-09', start: '2026-09-01', end: '2026-09-30', days: 30 };
    expect(() => combineSnapshots([a, other], { id: 'x', name: 'x' })).toThrow(
      /C covers another period than A/,
    );
  });
});
