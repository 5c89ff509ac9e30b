/**
 * How every headline figure combines: across organizations (a rollup) and for a set of people (a
 * scoped report: a team, a cost center, a manager's people). Each figure declares its rule here,
 * beside its definition; a figure id without one is a type error and fails the rule tests, and the
 * definitions page, the workbook's definitions sheet and docs/metrics.md print both rules. No
 * figure is combined silently: it is summed, recomputed from the combined rows, kept per
 * organization, shown as the organization's figure, or not available, with the reason.
 */
import { figureLabel } from './internal/transforms/figures.ts';
import { type Definition, FIGURE_IDS, type Figure, type FigureId } from './model.ts';

/** How one figure combines over several parts (organizations, or the people of a scope). */
export type CombineRule =
  | { rule: 'sum' } // summed
  | { rule: 'recompute' } // recomputed from the combined rows
  | { rule: 'per-organization'; reason: string } // across organizations: shown per organization only
  | { rule: 'organization'; reason: string } // across people: the organization's figure, shown as labelled organization context
  | { rule: 'unavailable'; reason: string }; // not available; the reason is shown where it would have stood

export interface FigureRule {
  /** How the figure combines across organizations (the rollup). */
  organizations: CombineRule;
  /** How the figure is made for a set of people (a scoped report: a team, a cost center, a manager's people). */
  people: CombineRule;
}

const SUM: CombineRule = { rule: 'sum' };
const RECOMPUTE: CombineRule = { rule: 'recompute' };
const TOKENS_FOR_PEOPLE: CombineRule = {
  rule: 'unavailable',
  reason: 'the API gives tokens for the whole organization only; its per-user rows carry credits, not tokens',
};
const CONTROLS_FOR_PEOPLE: CombineRule = {
  rule: 'organization',
  reason: 'the enterprise settings belong to the organization, not to a set of people',
};

/** Summed across organizations (each organization's own count) and over the people's `/users` rows. */
const ADDITIVE: FigureRule = { organizations: SUM, people: SUM };
/** Recomputed from the rows of every part taken together, never added or averaged. */
const RECOMPUTED: FigureRule = { organizations: RECOMPUTE, people: RECOMPUTE };

/**
 * The rule of every figure id (see {@link FIGURE_IDS}). Across organizations, why each rule:
 * - sums of the analytics days (credits, tokens, tool calls, sessions, messages, files, commits,
 *   pull requests) are each organization's own activity: they add up exactly;
 * - distinct counts (active users, seats, dormant seats) are recomputed over the organizations' rows
 *   together; each organization's accounts are its own, so they come to the sum of the organizations
 *   (a person with an account in two organizations counts twice);
 * - average and peak DAU are recomputed over the combined days (a day's DAU adds up across
 *   organizations; peaks fall on different days, so the peak of the rollup is not the sum of peaks);
 * - ratios and statistics (stickiness, seat utilization, the autonomy mean and percentiles) are
 *   recomputed over every organization's users, never averaged; the service's own per-day averages
 *   and percentiles (`autonomy_ratio_avg`, `_p50`, `_p90`, `..._per_session_avg`) cannot be combined
 *   and no figure is made of them;
 * - `mau_trailing_30d` is the service's trailing-30-day distinct count on the period's last day: the
 *   organizations' counts on that same day add up (their accounts are their own), while recomputing
 *   it from `/users` rows would put another definition in the service's place, so it is summed;
 * - readiness is recomputed over the repositories of every organization, a repository being
 *   identified by organization and URL (two organizations evaluating one URL are two repositories);
 * - enterprise-control changes are each organization's own revisions: the count is their sum, and
 *   the changes are listed under each organization's name.
 */
export const FIGURE_RULES: { readonly [K in FigureId]: FigureRule } = {
  credits: ADDITIVE,
  input_tokens: { organizations: SUM, people: TOKENS_FOR_PEOPLE },
  output_tokens: { organizations: SUM, people: TOKENS_FOR_PEOPLE },
  cache_read_tokens: { organizations: SUM, people: TOKENS_FOR_PEOPLE },
  cache_write_tokens: { organizations: SUM, people: TOKENS_FOR_PEOPLE },
  tool_calls: ADDITIVE,
  sessions: ADDITIVE,
  messages: ADDITIVE,
  user_messages: ADDITIVE,
  files_created: ADDITIVE,
  files_edited: ADDITIVE,
  git_commits: ADDITIVE,
  git_prs_created: ADDITIVE,
  active_users: RECOMPUTED,
  avg_dau: RECOMPUTED,
  peak_dau: RECOMPUTED,
  stickiness: RECOMPUTED,
  mau_trailing_30d: { organizations: SUM, people: RECOMPUTE },
  autonomy_mean: RECOMPUTED,
  autonomy_p50: RECOMPUTED,
  autonomy_p90: RECOMPUTED,
  seats: RECOMPUTED,
  seat_utilization: RECOMPUTED,
  dormant_seats: RECOMPUTED,
  readiness_org_score: RECOMPUTED,
  readiness_org_level: RECOMPUTED,
  readiness_repos: RECOMPUTED,
  controls_changes: { organizations: SUM, people: CONTROLS_FOR_PEOPLE },
};

/** What a rule combines over: organizations (a rollup) or the people of a scope. */
export type CombineAcross = keyof FigureRule;

/** The rules that may stand for each dimension (`per-organization` is for organizations, `organization` for people). */
export const RULES_ACROSS: { readonly [K in CombineAcross]: ReadonlyArray<CombineRule['rule']> } = {
  organizations: ['sum', 'recompute', 'per-organization', 'unavailable'],
  people: ['sum', 'recompute', 'organization', 'unavailable'],
};

/**
 * A rule in plain language, as the definitions page prints it.
 *
 * @example
 * describeCombineRule({ rule: 'sum' }, 'organizations') // 'summed over the organizations'
 */
export function describeCombineRule(rule: CombineRule, across: CombineAcross): string {
  switch (rule.rule) {
    case 'sum':
      return across === 'organizations'
        ? 'summed over the organizations'
        : "summed over the people's /users rows";
    case 'recompute':
      return across === 'organizations'
        ? "recomputed from all organizations' rows together"
        : "recomputed from the people's rows";
    case 'per-organization':
      return `per organization only, never one number: ${rule.reason}`;
    case 'organization':
      return `the organization's figure, shown as organization context: ${rule.reason}`;
    case 'unavailable':
      return `not available: ${rule.reason}`;
  }
}

/** The reason a figure has no single value under `rule`; null when the rule gives it one. */
export function withheldReason(rule: CombineRule): string | null {
  if (rule.rule === 'per-organization') return `shown per organization only: ${rule.reason}`;
  if (rule.rule === 'unavailable') return `not available: ${rule.reason}`;
  return null;
}

/**
 * The figures of a report combined `across` organizations or people, as their rules say: a figure
 * kept per organization or not available has no value, no previous value and no change, and says
 * why in `unavailableReason`; the others are as given (summed or recomputed where they were made).
 *
 * @example
 * applyFigureRules(figures, 'organizations') // figures of a rollup
 */
export function applyFigureRules(
  figures: readonly Figure[],
  across: CombineAcross,
  rules: { readonly [K in FigureId]?: FigureRule } = FIGURE_RULES,
): Figure[] {
  return figures.map((figure) => {
    const rule = rules[figure.id]?.[across];
    const reason = rule ? withheldReason(rule) : null;
    if (reason === null) return { ...figure };
    return { ...figure, value: null, previous: null, change: null, unavailableReason: reason };
  });
}

/** The id of the definition that states a figure's rules (`combine_credits`). */
export const combineRuleDefinitionId = (id: FigureId): string => `combine_${id}`;

/**
 * The definitions of the figures' rules, one per figure id in report order: the definitions page
 * prints them as one table, the workbook's definitions sheet as rows.
 *
 * @example
 * figureRuleDefinitions()[0].text // 'Across organizations: summed over the organizations. For a set of people: ...'
 */
export function figureRuleDefinitions(): Definition[] {
  // A figure without a rule (a type error) has no definition, which the rule tests name.
  const rules = FIGURE_RULES as { readonly [K in FigureId]?: FigureRule };
  return FIGURE_IDS.flatMap((id) => {
    const rule = rules[id];
    if (!rule) return [];
    const organizations = describeCombineRule(rule.organizations, 'organizations');
    const people = describeCombineRule(rule.people, 'people');
    return [
      {
        id: combineRuleDefinitionId(id),
        term: `${figureLabel(id)} (${id})`,
        text: `Across organizations: ${organizations}. For a set of people: ${people}.`,
        rule: { figure: id, organizations, people },
      },
    ];
  });
}
