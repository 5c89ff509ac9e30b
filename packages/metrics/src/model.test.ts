import { describe, expect, it } from 'vitest';
import { buildReportModel } from './build-report-model.ts';
import { FIGURE_IDS } from './model.ts';
import { sampleSnapshot } from './testing/index.ts';

// The ids and columns named by docs/metrics.md ("Figure ids"), copied from the spec.
const SPEC_FIGURE_IDS = [
  'credits',
  'input_tokens',
  'output_tokens',
  'cache_read_tokens',
  'cache_write_tokens',
  'tool_calls',
  'sessions',
  'messages',
  'user_messages',
  'files_created',
  'files_edited',
  'git_commits',
  'git_prs_created',
  'active_users',
  'avg_dau',
  'peak_dau',
  'stickiness',
  'mau_trailing_30d',
  'autonomy_mean',
  'autonomy_p50',
  'autonomy_p90',
  'seats',
  'seat_utilization',
  'dormant_seats',
  'readiness_org_score',
  'readiness_org_level',
  'readiness_repos',
  'controls_changes',
];
const SPEC_WEEKLY_COLUMNS = [
  'week',
  'days_in_period',
  'partial',
  'credits',
  'tool_calls',
  'sessions',
  'messages',
  'avg_dau',
  'max_dau',
  'wau',
  'autonomy_mean',
  'autonomy_p50',
  'autonomy_p90',
  'auto_high',
  'auto_medium',
  'auto_low',
  'manual',
  'delegation_auto_high',
  'delegation_auto_medium',
  'delegation_auto_low',
  'delegation_spec',
  'delegation_manual',
];

describe('the model contract', () => {
  const model = buildReportModel(sampleSnapshot(), { generatedAt: '2026-04-01T06:00:00.000Z' });

  it('has one figure per id of docs/metrics.md, in order, each once', () => {
    expect([...FIGURE_IDS]).toEqual(SPEC_FIGURE_IDS);
    expect(model.figures.map((f) => f.id)).toEqual(SPEC_FIGURE_IDS);
  });

  it('has every Weekly column of docs/metrics.md on every week row', () => {
    for (const week of model.weekly)
      expect(Object.keys(week)).toEqual(expect.arrayContaining(SPEC_WEEKLY_COLUMNS));
  });

  it('carries the definitions, the level rule among them', () => {
    expect(model.definitions.map((d) => d.id)).toEqual(
      expect.arrayContaining(['autonomy', 'delegation', 'readiness_level', 'tools']),
    );
    expect(model.definitions.find((d) => d.id === 'readiness_level')?.text).toBe(model.readiness.rule);
  });
});
