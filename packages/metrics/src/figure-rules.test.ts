/** Every figure declares how it combines; the rules are printed and applied as declared. */
import { describe, expect, it } from 'vitest';
import { DEFINITIONS } from './definitions.ts';
import {
  applyFigureRules,
  type CombineRule,
  describeCombineRule,
  FIGURE_RULES,
  type FigureRule,
  RULES_ACROSS,
} from './figure-rules.ts';
import { FIGURE_IDS, type Figure, type FigureId } from './model.ts';

// The rules for a set of people, as the scopes work fixed them (one list per rule).
const PEOPLE_SUM = [
  'credits',
  'tool_calls',
  'sessions',
  'messages',
  'user_messages',
  'files_created',
  'files_edited',
  'git_commits',
  'git_prs_created',
];
const PEOPLE_UNAVAILABLE = ['input_tokens', 'output_tokens', 'cache_read_tokens', 'cache_write_tokens'];
const PEOPLE_RECOMPUTE = [
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
];
const PEOPLE_ORGANIZATION = ['controls_changes'];

const needsReason = (rule: CombineRule) => rule.rule !== 'sum' && rule.rule !== 'recompute';

describe('figure rules', () => {
  it('every figure id has a rule across organizations and for people, and no rule stands for an unknown id', () => {
    const rules = FIGURE_RULES as Readonly<Record<string, FigureRule | undefined>>;
    for (const id of FIGURE_IDS) {
      const rule = rules[id];
      expect(rule, `${id} has no combine rule in FIGURE_RULES`).toBeDefined();
      for (const across of ['organizations', 'people'] as const) {
        const r = rule![across];
        expect(RULES_ACROSS[across], `${id}.${across}`).toContain(r?.rule);
        if (needsReason(r)) expect((r as { reason: string }).reason.trim(), `${id}.${across}`).not.toBe('');
      }
    }
    expect(Object.keys(FIGURE_RULES).sort()).toEqual([...FIGURE_IDS].sort());
  });

  it('for a set of people: sums of /users rows, tokens unavailable, the rest recomputed, controls as organization context', () => {
    const byRule = (rule: CombineRule['rule']) =>
      FIGURE_IDS.filter((id) => FIGURE_RULES[id].people.rule === rule);
    expect(byRule('sum')).toEqual(PEOPLE_SUM);
    expect(byRule('unavailable')).toEqual(PEOPLE_UNAVAILABLE);
    expect(byRule('recompute')).toEqual(PEOPLE_RECOMPUTE);
    expect(byRule('organization')).toEqual(PEOPLE_ORGANIZATION);
    expect(FIGURE_RULES.input_tokens.people).toEqual({
      rule: 'unavailable',
      reason:
        'the API gives tokens for the whole organization only; its per-user rows carry credits, not tokens',
    });
    expect(FIGURE_RULES.controls_changes.people).toEqual({
      rule: 'organization',
      reason: 'the enterprise settings belong to the organization, not to a set of people',
    });
  });

  it('the definitions state both rules of every figure, in figure order, after the rules\u2019 own definition', () => {
    const ruled = DEFINITIONS.filter((d) => d.rule);
    expect(ruled.map((d) => d.rule?.figure)).toEqual([...FIGURE_IDS]);
    for (const d of ruled) {
      const rule = FIGURE_RULES[d.rule!.figure];
      expect(d.rule?.organizations).toBe(describeCombineRule(rule.organizations, 'organizations'));
      expect(d.rule?.people).toBe(describeCombineRule(rule.people, 'people'));
      expect(d.text).toBe(
        `Across organizations: ${d.rule?.organizations}. For a set of people: ${d.rule?.people}.`,
      );
    }
    const ids = DEFINITIONS.map((d) => d.id);
    expect(ids.indexOf('combine_rules') + 1).toBe(ids.indexOf('combine_credits'));
    expect(describeCombineRule(FIGURE_RULES.input_tokens.people, 'people')).toBe(
      'not available: the API gives tokens for the whole organization only; its per-user rows carry credits, not tokens',
    );
  });

  it('a figure kept per organization or not available loses its value and says why; the others stay as computed', () => {
    const figure = (id: FigureId, value: number): Figure => ({
      id,
      label: id,
      value,
      previous: value / 2,
      change: 1,
      changeKind: 'relative',
      unit: 'count',
    });
    const figures = [figure('credits', 10), figure('peak_dau', 7), figure('seats', 4)];
    const rules = {
      ...FIGURE_RULES,
      peak_dau: {
        organizations: { rule: 'per-organization', reason: 'peaks fall on different days' },
        people: { rule: 'recompute' },
      },
      seats: {
        organizations: { rule: 'unavailable', reason: 'no seat list' },
        people: { rule: 'organization', reason: 'seats are bought by the organization' },
      },
    } satisfies Record<FigureId, FigureRule>;
    const combined = applyFigureRules(figures, 'organizations', rules);
    expect(combined[0]).toEqual(figures[0]);
    expect(combined[1]).toMatchObject({ value: null, previous: null, change: null });
    expect(combined[1]?.unavailableReason).toBe('shown per organization only: peaks fall on different days');
    expect(combined[2]?.unavailableReason).toBe('not available: no seat list');
    // Across people, 'organization' keeps the organization's figure (labelled by the scoped report).
    expect(applyFigureRules(figures, 'people', rules)[2]).toEqual(figures[2]);
    expect(figures[1]?.value).toBe(7); // the input is not changed
  });
});
