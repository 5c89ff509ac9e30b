/**
 * How each headline figure combines: across organizations (the rollup) and across a set of people
 * (a scoped report). The rule sits beside the figure's definition and the definitions page states it.
 */
import type { FigureId } from './model.ts';

export type CombineRule =
  | { rule: 'sum' }
  | { rule: 'recompute' }
  | { rule: 'per-organization'; reason: string }
  | { rule: 'organization'; reason: string }
  | { rule: 'unavailable'; reason: string };

export interface FigureRule {
  /** How the figure combines across organizations (the rollup). */
  organizations: CombineRule;
  /** How the figure is made for a set of people (a scoped report: a team, a cost center, a manager's people). */
  people: CombineRule;
}

const sum = { rule: 'sum' } as const;
const recompute = { rule: 'recompute' } as const;
const TOKENS_PER_ORGANIZATION: CombineRule = {
  rule: 'unavailable',
  reason: 'the API gives tokens for the whole organization only; its per-user rows carry credits, not tokens',
};

const summed = (people: CombineRule = sum): FigureRule => ({ organizations: sum, people });
const recomputed: FigureRule = { organizations: recompute, people: recompute };

export const FIGURE_RULES: { readonly [K in FigureId]: FigureRule } = {
  credits: summed(),
  input_tokens: summed(TOKENS_PER_ORGANIZATION),
  output_tokens: summed(TOKENS_PER_ORGANIZATION),
  cache_read_tokens: summed(TOKENS_PER_ORGANIZATION),
  cache_write_tokens: summed(TOKENS_PER_ORGANIZATION),
  tool_calls: summed(),
  sessions: summed(),
  messages: summed(),
  user_messages: summed(),
  files_created: summed(),
  files_edited: summed(),
  git_commits: summed(),
  git_prs_created: summed(),
  active_users: recomputed,
  avg_dau: recomputed,
  peak_dau: recomputed,
  stickiness: recomputed,
  mau_trailing_30d: recomputed,
  autonomy_mean: recomputed,
  autonomy_p50: recomputed,
  autonomy_p90: recomputed,
  seats: { organizations: sum, people: recompute },
  seat_utilization: recomputed,
  dormant_seats: { organizations: sum, people: recompute },
  readiness_org_score: recomputed,
  readiness_org_level: recomputed,
  readiness_repos: recomputed,
  controls_changes: {
    organizations: sum,
    people: {
      rule: 'organization',
      reason: 'the enterprise settings belong to the organization, not to a set of people',
    },
  },
};
