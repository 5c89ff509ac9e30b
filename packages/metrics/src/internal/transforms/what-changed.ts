/**
 * The facts of the "what changed" paragraph, chosen by fixed rules from the figures (so the same
 * data always tells the same story): security-relevant control changes first, then the largest
 * movers, new and lost users, seats that could be reclaimed, the readiness level.
 */
import type {
  ChangeFact,
  ControlsSection,
  Figure,
  FigureId,
  SeatsSection,
  SecurityChangeRow,
} from '../../model.ts';

/** Figures a mover is chosen among, in this order on ties. */
const MOVER_CANDIDATES: readonly FigureId[] = [
  'credits',
  'active_users',
  'seat_utilization',
  'stickiness',
  'sessions',
  'git_prs_created',
  'autonomy_mean',
  'readiness_org_score',
];

/** A relative change at least this large (10 %) makes a mover; for shares, 2 percentage points. */
export const MOVER_RELATIVE = 0.1;
export const MOVER_POINTS = 0.02;
/** Movers told at most. */
export const MOVERS = 3;

/** The rule in plain language (definitions page). */
export const WHAT_CHANGED_RULE =
  'The paragraph that opens the report is built by fixed rules from the figures: security-relevant enterprise-control changes of the month first (the settings changed, and in how many of the month\u2019s revisions, the unit of the Enterprise-control changes figure; in a rollup, naming the organizations where they were made); then at most three movers among credits, active users, seat utilization, stickiness, sessions, pull requests, autonomy and readiness score, the largest first, counting a figure that moved by at least 10 % (shares: at least 2 percentage points, weighed as 10 % per 2 points); then users active this month who were not last month (new) and the other way round (lost), told with the active users\u2019 move when they are among the movers; then dormant seats, and those also idle the month before (reclaim candidates); then a change of the organization\u2019s readiness level.';

/** How far a figure moved, on one scale: relative change, or points of a share / 0.2 (2 points = 10 %). */
function salience(f: Figure): number {
  if (f.change === null) return 0;
  return f.changeKind === 'points'
    ? (Math.abs(f.change) / MOVER_POINTS) * MOVER_RELATIVE
    : Math.abs(f.change);
}

export interface WhatChangedInput {
  figures: readonly Figure[];
  /** Active user ids of the period and of the comparison period (null without one). */
  activeIds: ReadonlySet<string>;
  previousActiveIds: ReadonlySet<string> | null;
  /**
   * The same anywhere in the organization (in its own report, the same sets): a person who moved
   * into a scope is not new to the agent, nor one who moved out no longer active.
   */
  activeAnywhere?: ReadonlySet<string>;
  previousActiveAnywhere?: ReadonlySet<string> | null;
  seats: SeatsSection;
  /** Dormant seats also without activity in the comparison period. */
  reclaimCandidates: number;
  controls: ControlsSection;
  readiness: { level: number | null; previousLevel: number | null; repos: number };
}

/**
 * The facts of the paragraph, in telling order.
 *
 * @example
 * whatChanged(input)[0] // { kind: 'security', changes: 2, paths: ['modelPolicy.allowedModelIds'], revisions: 2, ofRevisions: 3 }
 */
export function whatChanged(input: WhatChangedInput): ChangeFact[] {
  const facts: ChangeFact[] = [];
  const security = input.controls.security;
  if (security.length > 0) {
    // In a rollup, the organizations where a security setting changed are named.
    const organizations = input.controls.organizations
      ?.filter((o) => o.security.length > 0)
      .map((o) => o.organization.name);
    // Revisions are what the "Enterprise-control changes" figure counts: the paragraph counts in them
    // too. A rollup's revision numbers repeat across organizations: a revision is its organization and number.
    const revisionOf = (r: SecurityChangeRow) => `${r.organization?.id ?? ''}\u0000${r.revision}`;
    facts.push({
      kind: 'security',
      changes: security.length,
      paths: [...new Set(security.map((s) => s.path))],
      revisions: new Set(security.map(revisionOf)).size,
      // One row per revision (per organization in a rollup).
      ofRevisions: input.controls.changes.length,
      ...(organizations && { organizations }),
    });
  }
  const movers = MOVER_CANDIDATES.map((id) => input.figures.find((f) => f.id === id))
    .filter((f): f is Figure => f !== undefined && salience(f) >= MOVER_RELATIVE - 1e-12)
    .sort((a, b) => salience(b) - salience(a))
    .slice(0, MOVERS);
  for (const figure of movers) facts.push({ kind: 'figure', figure: { ...figure } });
  if (input.previousActiveIds) {
    const before = input.previousActiveAnywhere ?? input.previousActiveIds;
    const now = input.activeAnywhere ?? input.activeIds;
    let added = 0;
    let movedIn = 0;
    for (const id of input.activeIds) {
      if (!before.has(id)) added++;
      else if (!input.previousActiveIds.has(id)) movedIn++;
    }
    let lost = 0;
    let movedOut = 0;
    for (const id of input.previousActiveIds) {
      if (!now.has(id)) lost++;
      else if (!input.activeIds.has(id)) movedOut++;
    }
    const moves = input.activeAnywhere ? { movedIn, movedOut } : {};
    facts.push({ kind: 'users', active: input.activeIds.size, new: added, lost, ...moves });
  }
  if (input.seats.dormant > 0) {
    facts.push({
      kind: 'reclaim',
      seats: input.seats.seats,
      dormant: input.seats.dormant,
      candidates: input.reclaimCandidates,
    });
  }
  const { level, previousLevel, repos } = input.readiness;
  if (level !== null && previousLevel !== null && level !== previousLevel) {
    facts.push({ kind: 'readiness-level', from: previousLevel, to: level, repos });
  }
  return facts;
}
