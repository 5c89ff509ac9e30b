/**
 * A rollup's document: a figure without a value by its rule says why where the value stands; the
 * organizations' table shows a figure kept per organization in their rows only; the controls page
 * lists each organization's changes under its name; the "what changed" paragraph names the
 * organizations where a security setting changed.
 */
import type { ControlChangeRow, FigureId, ReportModel } from '@orgreport/metrics';
import { describe, expect, it } from 'vitest';
import { makeFixtureModel } from './__fixtures__/report-model.ts';
import { renderHtml } from './html.ts';
import { whatChangedSentences } from './what-changed.ts';

/** Visible text of an HTML fragment, tags dropped and spaces collapsed (entities as they are). */
const text = (html: string) =>
  html
    .replace(/<svg[\s\S]*?<\/svg>/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#x27;/g, "'")
    .replace(/\s+/g, ' ');

const NORTH = { id: 'org-north', name: 'North' };
const SOUTH = { id: 'org-south', name: 'South' };

function rollupModel(): ReportModel {
  const model = makeFixtureModel();
  model.figures = model.figures.map((f) =>
    f.id === 'input_tokens'
      ? { ...f, value: null, previous: null, change: null, unavailableReason: 'not available: a test reason' }
      : f,
  );
  model.whatChanged = [
    {
      kind: 'security',
      changes: 3,
      paths: ['sandbox.enabled'],
      organizations: ['North'],
      revisions: 3,
      ofRevisions: 4,
    },
  ];
  const change: ControlChangeRow = {
    organization: NORTH,
    revision: 5,
    updated_at: '2026-03-04T10:00:00.000Z',
    user: { id: 'u-1', email: null, name: 'Ada' },
    previous_revision: 4,
    diffs: [
      {
        path: 'sandbox.enabled',
        kind: 'changed',
        before: 'true',
        after: 'false',
        redacted: false,
        security: true,
      },
    ],
  };
  const security = [
    { ...change.diffs[0]!, organization: NORTH, revision: 5, updated_at: change.updated_at, by: 'Ada' },
  ];
  model.controls = {
    changes: [change],
    current_revision: null,
    security,
    organizations: [
      { organization: NORTH, changes: [change], current_revision: 5, security },
      { organization: SOUTH, changes: [], current_revision: 9, security: [] },
    ],
  };
  const row = (organization: string, total: boolean, peak: number | null) => ({
    org_id: total ? 'rollup' : organization.toLowerCase(),
    organization,
    total,
    cost: null,
    ...Object.fromEntries(
      (
        [
          'credits',
          'active_users',
          'avg_dau',
          'stickiness',
          'seats',
          'seat_utilization',
          'sessions',
          'tool_calls',
          'git_commits',
          'autonomy_mean',
          'readiness_org_score',
          'readiness_repos',
          'controls_changes',
        ] as FigureId[]
      ).map((id) => [id, 1]),
    ),
    per_organization: [{ id: 'peak_dau', value: peak, unit: 'count' }],
  });
  const total = row('All', true, null);
  model.sections = {
    rollup: {
      rows: [row('North', false, 1234), row('South', false, 4321), total],
      total,
      creditsReconcile: true,
      unreconciled: [],
      perOrganization: [
        { id: 'peak_dau', label: 'Peak daily active users', unit: 'count', reason: 'peaks differ' },
      ],
      withheld: [
        {
          id: 'peak_dau',
          label: 'Peak daily active users',
          reason: 'shown per organization only: peaks differ',
        },
      ],
    },
  };
  return model;
}

describe('a rollup document', () => {
  const model = rollupModel();

  it('names the organizations where a security setting changed', () => {
    expect(whatChangedSentences(model)[0]).toBe(
      "1 security-relevant enterprise setting changed this month in North, in 3 of the month's 4 enterprise-control changes (sandbox.enabled): see Enterprise controls.",
    );
    const two = {
      ...model,
      whatChanged: [{ ...model.whatChanged[0]!, organizations: ['North', 'South', 'West'] }],
    };
    expect(whatChangedSentences(two as ReportModel)[0]).toContain(
      "changed this month in North, South and West, in 3 of the month's 4 enterprise-control changes (",
    );
  });

  it('counts the security changes in revisions, the unit of the "Enterprise-control changes" figure', () => {
    const told = (revisions: number, ofRevisions: number) =>
      whatChangedSentences({
        ...model,
        whatChanged: [
          { kind: 'security', changes: 6, paths: ['a', 'b', 'c', 'd', 'e'], revisions, ofRevisions },
        ],
      } as ReportModel)[0];
    // Every setting named, up to six: the reader sees each one that changed.
    expect(told(4, 4)).toBe(
      "5 security-relevant enterprise settings changed this month, in all 4 of the month's enterprise-control changes (a, b, c, d and e): see Enterprise controls.",
    );
    expect(told(1, 1)).toContain(
      "changed this month, in the month's one enterprise-control change (a, b, c, d and e)",
    );
    const many = whatChangedSentences({
      ...model,
      whatChanged: [
        {
          kind: 'security',
          changes: 8,
          paths: ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'],
          revisions: 2,
          ofRevisions: 2,
        },
      ],
    } as ReportModel)[0];
    expect(many).toContain('(a, b, c, d, e and 3 more)');
    expect(told(1, 2)).toContain("in 1 of the month's 2 enterprise-control changes (");
  });

  it('shows the reason where a withheld figure would stand, and a figure kept per organization in their rows only', async () => {
    const visible = text(await renderHtml(model, { embedFonts: false }));
    expect(visible).toContain('Input tokens not available: a test reason');
    const rollup = visible.slice(
      visible.indexOf('Organizations Each organization'),
      visible.indexOf('Without a total'),
    );
    expect(rollup).toContain('Peak daily active users');
    expect(rollup).toMatch(
      /North( [\d.,%]+)+ 1,234 South( [\d.,%]+)+ 4,321 Total( [\d.,%]+)+ per organization/,
    );
    expect(visible).toContain(
      'Without a total: Peak daily active users, shown per organization only: peaks differ.',
    );
  });

  it("lists each organization's control changes under its name", async () => {
    const visible = text(await renderHtml(model, { embedFonts: false }));
    const controls = visible.slice(visible.indexOf('Enterprise-control changes Each organization'));
    expect(controls).toMatch(
      /North: 1 change North: security-relevant changes .* North: revision 5 \(compared with revision 4\).* South: 0 changes No enterprise-control change in the period in South\. Revision 9 was in force\./,
    );
  });
});
