/**
 * A rollup of two organizations, built as the CLI builds it: the combined snapshot keeps each
 * organization's control revisions and readiness reports (`organizations`), and each organization's
 * own report gives its row. North is the sample organization; South has no analytics, two revisions
 * of its own (numbered like North's) and reports on two of North's repository URLs.
 */
import type { ControlChange, ReadinessReport, Snapshot } from '@orgreport/api-core';
import { describe, expect, it } from 'vitest';
import { buildReportModel } from '../../build-report-model.ts';
import type { Figure, FigureId, ReportModel } from '../../model.ts';
import type { OrganizationFigures } from '../../section.ts';
import { sampleSnapshot } from '../../testing/sample-snapshot.ts';
import { buildSnapshot } from '../../testing/snapshot-builder.ts';
import type { RollupSection } from './index.ts';

const OPTIONS = { generatedAt: '2026-04-01T06:00:00.000Z' };
const NORTH = { id: 'org-north', name: 'North' };
const SOUTH = { id: 'org-south', name: 'South' };

const southControls: ControlChange[] = [
  {
    revision: 11,
    updatedAt: '2026-02-01T09:00:00.000Z',
    user: { name: 'Sam' },
    settings: { sandbox: { mode: 'off' } },
  },
  {
    revision: 12,
    updatedAt: '2026-03-10T09:00:00.000Z',
    user: { name: 'Sam' },
    settings: { sandbox: { mode: 'strict' } },
  },
  {
    revision: 13,
    updatedAt: '2026-03-11T09:00:00.000Z',
    user: { name: 'Sam' },
    settings: { sandbox: { mode: 'strict' }, mcpPolicy: { enabled: false } },
  },
];
const southReport = (id: string, repo: string, passed: number): ReadinessReport => ({
  reportId: id,
  createdAt: Date.parse('2026-03-15T10:00:00Z'),
  repoUrl: `https://git.example.test/acme/${repo}`,
  apps: {},
  report: { readme: { numerator: passed, denominator: 2 }, agents_md: { numerator: 0, denominator: 1 } },
});
const southReadiness = [
  southReport('s-web', 'web-portal', 1),
  southReport('s-billing', 'billing-service', 2),
];

const north = sampleSnapshot();
const south = buildSnapshot({
  month: '2026-03',
  organization: SOUTH,
  readiness: southReadiness,
  controls: southControls,
});
const northModel = buildReportModel(
  { ...north, manifest: { ...north.manifest, organization: NORTH } },
  OPTIONS,
);
const southModel = buildReportModel(south, OPTIONS);
const organizations: OrganizationFigures[] = [
  { ...NORTH, figures: northModel.figures },
  { ...SOUTH, figures: southModel.figures },
];
// South has no analytics: North's days are the combined days.
const combined: Snapshot = {
  ...north,
  manifest: { ...north.manifest, organization: { id: 'rollup', name: 'North and South' } },
  readiness: [...north.readiness, ...southReadiness],
  controls: [],
  organizations: [
    { organization: NORTH, controls: north.controls, readiness: north.readiness },
    { organization: SOUTH, controls: southControls, readiness: southReadiness },
  ],
};
const model = buildReportModel(combined, { ...OPTIONS, inputs: { organizations } });
const value = (m: Pick<ReportModel, 'figures'>, id: FigureId) => m.figures.find((f) => f.id === id)!.value;

describe('a rollup of two organizations', () => {
  it('costs each organization to the cent, and totals their bills, not the combined credits priced once', () => {
    // 1 credit each at half a cent: each bill rounds to 0.01, the total of the bills is 0.02.
    const oneCredit = (figures: Figure[]) =>
      figures.map((f) => (f.id === 'credits' ? { ...f, value: 1 } : f));
    const priced = buildReportModel(combined, {
      ...OPTIONS,
      pricePerCredit: 0.005,
      inputs: {
        organizations: [
          { ...NORTH, figures: oneCredit(northModel.figures) },
          { ...SOUTH, figures: oneCredit(southModel.figures) },
        ],
      },
    });
    const rollup = priced.sections!['rollup'] as RollupSection;
    expect(rollup.rows.map((r) => [r.organization, r.total, r.cost])).toEqual([
      ['North', false, 0.01],
      ['South', false, 0.01],
      ['North and South', true, 0.02],
    ]);
  });

  it("counts every organization's control changes and lists them under its name, security-relevant first", () => {
    expect(value(northModel, 'controls_changes')).toBe(2);
    expect(value(southModel, 'controls_changes')).toBe(2);
    expect(value(model, 'controls_changes')).toBe(4);
    const parts = model.controls.organizations!;
    expect(
      parts.map((p) => [p.organization.name, p.changes.map((c) => c.revision), p.current_revision]),
    ).toEqual([
      ['North', [12, 13], 13],
      ['South', [12, 13], 13],
    ]);
    // Each organization's revision is diffed against its own previous one.
    expect(parts[1]!.changes[0]!.diffs.map((d) => [d.path, d.before, d.after])).toEqual([
      ['sandbox.mode', 'off', 'strict'],
    ]);
    expect(model.controls.changes.map((c) => c.organization?.name)).toEqual([
      'North',
      'North',
      'South',
      'South',
    ]);
    expect(model.controls.current_revision).toBeNull();
    expect(model.controls.security.map((s) => s.organization?.name)).toEqual([
      ...northModel.controls.security.map(() => 'North'),
      'South',
      'South',
    ]);
    expect(model.whatChanged[0]).toMatchObject({
      kind: 'security',
      changes: northModel.controls.security.length + 2,
      organizations: ['North', 'South'],
      // South's revisions 12 and 13 both change a security setting; North's have the same numbers
      // and are counted apart. Every revision is the rollup's controls_changes figure, 4.
      revisions: (northModel.whatChanged[0] as { revisions: number }).revisions + 2,
      ofRevisions: 4,
    });
    expect(northModel.whatChanged[0]).toMatchObject({ kind: 'security', ofRevisions: 2 });
  });

  it('identifies a repository by organization and URL, and recomputes readiness over all of them', () => {
    const northRepos = northModel.readiness.repos;
    expect(northRepos.map((r) => r.repo_url)).toEqual(
      expect.arrayContaining(southReadiness.map((r) => r.repoUrl)), // the same URLs in both
    );
    expect(model.readiness.repos.map((r) => [r.organization?.name, r.repo_url])).toEqual([
      ...northRepos.map((r) => ['North', r.repo_url]),
      ['South', 'https://git.example.test/acme/billing-service'],
      ['South', 'https://git.example.test/acme/web-portal'],
    ]);
    expect(value(model, 'readiness_repos')).toBe(northRepos.length + 2);
    // South's scores, by hand: billing (2/2 + 0/1) / 2 = 0.5, web (1/2 + 0/1) / 2 = 0.25.
    const scores = [...northRepos.map((r) => r.score!), 0.5, 0.25];
    expect(value(model, 'readiness_org_score')).toBeCloseTo(
      scores.reduce((a, b) => a + b, 0) / scores.length,
      12,
    );
    const levels = [...northRepos.map((r) => r.level), ...southModel.readiness.repos.map((r) => r.level)];
    expect(value(model, 'readiness_org_level')).toBe(
      Math.floor(levels.reduce((a, b) => a + b, 0) / levels.length),
    );
    // The trend compares a repository with its own organization's earlier report only.
    const south = model.readiness.repos.filter((r) => r.organization?.id === 'org-south');
    expect(south.map((r) => r.previous_score)).toEqual([null, null]);
    expect(model.readiness.reports.filter((r) => r.organization?.name === 'South')).toHaveLength(2);
  });

  it('checks every summed figure against the organizations; a sum with a missing part is not a sum', () => {
    const rollup = model.sections?.rollup as RollupSection;
    expect(rollup.rows.map((r) => [r.organization, r.controls_changes, r.readiness_repos])).toEqual([
      ['North', 2, northModel.readiness.repos.length],
      ['South', 2, 2],
      ['North and South', 4, northModel.readiness.repos.length + 2],
    ]);
    expect(rollup.creditsReconcile).toBe(true);
    // South has no activity row on the last day: its trailing MAU is n/a, so the rollup's cannot be their sum.
    expect(value(southModel, 'mau_trailing_30d')).toBeNull();
    expect(rollup.unreconciled).toEqual([
      { id: 'mau_trailing_30d', organizations: null, total: value(northModel, 'mau_trailing_30d') },
    ]);
    expect(model.dataQuality.find((f) => f.kind === 'rollup_reconciliation')?.message).toContain(
      'mau_trailing_30d',
    );
    expect(rollup.perOrganization).toEqual([]); // no built-in figure is kept per organization
    expect(rollup.withheld).toEqual([]);
    expect(model.figures.every((f: Figure) => f.unavailableReason === undefined)).toBe(true);
  });
});
