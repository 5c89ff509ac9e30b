/**
 * Headline figures: the values of one span by figure id, and the figure list with comparison.
 */
import { type ChangeKind, FIGURE_IDS, type Figure, type FigureId, type FigureUnit } from '../../model.ts';
import { finiteOrNull } from './span.ts';

/** The value of every figure id in one span (null where not computable). */
export type FigureValues = Record<FigureId, number | null>;

const META: Record<FigureId, { label: string; unit: FigureUnit; note?: string }> = {
  credits: { label: 'Credits consumed', unit: 'credits' },
  input_tokens: { label: 'Input tokens', unit: 'tokens' },
  output_tokens: { label: 'Output tokens', unit: 'tokens' },
  cache_read_tokens: { label: 'Cache read tokens', unit: 'tokens' },
  cache_write_tokens: { label: 'Cache write tokens', unit: 'tokens' },
  tool_calls: { label: 'Tool calls', unit: 'count' },
  sessions: { label: 'Sessions', unit: 'count' },
  messages: { label: 'Messages', unit: 'count' },
  user_messages: { label: 'User messages', unit: 'count' },
  files_created: { label: 'Files created', unit: 'count' },
  files_edited: { label: 'Files edited', unit: 'count' },
  git_commits: { label: 'Commits', unit: 'count' },
  git_prs_created: { label: 'Pull requests created', unit: 'count' },
  active_users: { label: 'Active users', unit: 'count' },
  // A mean of daily counts: shown with two decimals like the other ratios.
  avg_dau: { label: 'Average daily active users', unit: 'ratio' },
  peak_dau: { label: 'Peak daily active users', unit: 'count' },
  stickiness: { label: 'Stickiness (average DAU / active users)', unit: 'share' },
  mau_trailing_30d: {
    label: 'Active users, trailing 30 days',
    unit: 'count',
    note: "the service's count of users active in the 30 days up to the period's last day, not the month's active users",
  },
  autonomy_mean: { label: 'Autonomy ratio, mean', unit: 'ratio' },
  autonomy_p50: { label: 'Autonomy ratio, median', unit: 'ratio' },
  autonomy_p90: { label: 'Autonomy ratio, 90th percentile', unit: 'ratio' },
  seats: { label: 'Seats', unit: 'count' },
  seat_utilization: { label: 'Seat utilization', unit: 'share' },
  dormant_seats: { label: 'Dormant seats', unit: 'count' },
  readiness_org_score: { label: 'Readiness score (organization)', unit: 'score' },
  readiness_org_level: { label: 'Readiness level (organization)', unit: 'level' },
  readiness_repos: { label: 'Repositories with a readiness report', unit: 'count' },
  controls_changes: { label: 'Enterprise-control changes', unit: 'count' },
};

/** The plain-language label of a figure id, e.g. "Credits consumed". */
export function figureLabel(id: FigureId): string {
  return META[id].label;
}

/**
 * Relative change from `previous` to `value`; null when either is null or `previous` is 0.
 *
 * @example
 * relativeChange(150, 100) // 0.5
 */
export function relativeChange(value: number | null, previous: number | null): number | null {
  if (value === null || previous === null || previous === 0) return null;
  return finiteOrNull((value - previous) / Math.abs(previous));
}

/** How the change of a figure of `unit` is measured: shares and scores in points, levels as a difference. */
export function changeKindOf(unit: FigureUnit): ChangeKind {
  if (unit === 'share' || unit === 'score') return 'points';
  if (unit === 'level') return 'difference';
  return 'relative';
}

/** The change from `previous` to `value` measured as `kind` says; null when either is null. */
export function changeOf(value: number | null, previous: number | null, kind: ChangeKind): number | null {
  if (kind === 'relative') return relativeChange(value, previous);
  if (value === null || previous === null) return null;
  return finiteOrNull(value - previous);
}

/**
 * The headline figures in report order, each with its previous value (null without comparison)
 * and its change (relative, or in points for shares and scores).
 *
 * @example
 * headlineFigures(current, previous, partialNote)[0] // { id: 'credits', label: 'Credits consumed', value: 1200, previous: 1000, change: 0.2, changeKind: 'relative', unit: 'credits' }
 */
export function headlineFigures(current: FigureValues, previous: FigureValues | null): Figure[] {
  return FIGURE_IDS.map((id) => {
    const meta = META[id];
    const value = finiteOrNull(current[id]);
    const prev = previous ? finiteOrNull(previous[id]) : null;
    const changeKind = changeKindOf(meta.unit);
    const figure: Figure = {
      id,
      label: meta.label,
      value,
      previous: prev,
      change: changeOf(value, prev, changeKind),
      changeKind,
      unit: meta.unit,
    };
    if (meta.note) figure.note = meta.note;
    return figure;
  });
}
