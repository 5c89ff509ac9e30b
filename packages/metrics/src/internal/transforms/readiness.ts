/**
 * Readiness: criterion scores, report scores and levels (the 80 % rule), each repository's latest
 * report at a day and its trend, the organization's score and level, and the weakest criteria.
 */
import type { CriterionEvaluation, ReadinessReport, Snapshot } from '@orgreport/api-core';
import type {
  OrganizationRef,
  ReadinessCriterionRow,
  ReadinessRepoRow,
  ReadinessReportRow,
  ReadinessSection,
} from '../../model.ts';
import { endOfDayMs } from './span.ts';

/** Level names, index = level - 1. */
export const READINESS_LEVEL_NAMES = ['Functional', 'Documented', 'Standardized', 'Optimized', 'Autonomous'];
/** Share of a level's criteria that must pass to reach the next level. */
export const LEVEL_PASS_SHARE = 0.8;
/** The highest level. */
export const MAX_LEVEL = 5;

/**
 * The level a criterion belongs to according to the mapping: an integer from 1 to 5, or null when
 * the criterion is missing from the mapping or mapped to anything else (listed, never guessed).
 *
 * @example
 * mappedLevel({ readme: 1 }, 'readme') // 1
 */
export function mappedLevel(mapping: Readonly<Record<string, number>>, criterion: string): number | null {
  const level = Object.hasOwn(mapping, criterion) ? mapping[criterion] : undefined;
  return typeof level === 'number' && Number.isInteger(level) && level >= 1 && level <= MAX_LEVEL
    ? level
    : null;
}

/** One evaluation, classified. */
export interface ScoredCriterion {
  criterion: string;
  numerator: number | null;
  denominator: number | null;
  score: number | null;
  status: 'pass' | 'partial' | 'skipped' | 'invalid';
}

/**
 * Classifies one evaluation: skipped when it has no numerator; invalid when the denominator is
 * missing or below 1, the numerator is negative or above the denominator; otherwise scored
 * numerator / denominator, passing when numerator = denominator.
 *
 * @example
 * criterionScore('readme', { numerator: 1, denominator: 2 }) // { score: 0.5, status: 'partial', ... }
 */
export function criterionScore(criterion: string, evaluation: CriterionEvaluation): ScoredCriterion {
  const numerator = typeof evaluation.numerator === 'number' ? evaluation.numerator : null;
  const denominator = typeof evaluation.denominator === 'number' ? evaluation.denominator : null;
  if (numerator === null) return { criterion, numerator, denominator, score: null, status: 'skipped' };
  if (
    denominator === null ||
    !Number.isFinite(numerator) ||
    !Number.isFinite(denominator) ||
    denominator < 1 ||
    numerator < 0 ||
    numerator > denominator
  ) {
    return { criterion, numerator, denominator, score: null, status: 'invalid' };
  }
  return {
    criterion,
    numerator,
    denominator,
    score: numerator / denominator,
    status: numerator === denominator ? 'pass' : 'partial',
  };
}

/**
 * A repository's level by the 80 % rule: it starts at 1 and reaches n + 1 when at least 80 % of its
 * scored level-n criteria pass, level by level, up to 5. A level with no scored criterion cannot be
 * passed (no evidence), so the climb stops there. Criteria missing from the mapping do not count.
 *
 * @example
 * readinessLevel(scored, { readme: 1, unit_tests: 2 }) // 2 when readme passes and unit_tests does not
 */
export function readinessLevel(
  scored: readonly ScoredCriterion[],
  mapping: Readonly<Record<string, number>>,
): number {
  let level = 1;
  while (level < MAX_LEVEL) {
    const atLevel = scored.filter((c) => c.score !== null && mappedLevel(mapping, c.criterion) === level);
    if (atLevel.length === 0) break;
    const passed = atLevel.filter((c) => c.status === 'pass').length;
    if (passed < LEVEL_PASS_SHARE * atLevel.length) break;
    level++;
  }
  return level;
}

/** Mean of the scored criteria; null when none is scored. */
function meanScore(scored: readonly ScoredCriterion[]): number | null {
  let n = 0;
  let sum = 0;
  for (const c of scored) {
    if (c.score === null) continue;
    n++;
    sum += c.score;
  }
  return n ? sum / n : null;
}

/**
 * Scores one report: every criterion classified, the report score (mean of criterion scores, each
 * weighing the same) and its level.
 *
 * @example
 * readinessScores(report, mapping) // { report_id, score: 0.75, level: 2, criteria: [...] }
 */
export function readinessScores(
  report: ReadinessReport,
  mapping: Readonly<Record<string, number>>,
): ReadinessReportRow {
  const criteria = Object.entries(report.report ?? {})
    .map(([id, evaluation]) => criterionScore(id, evaluation))
    .sort((a, b) => (a.criterion < b.criterion ? -1 : 1));
  return {
    report_id: report.reportId,
    repo_url: report.repoUrl,
    created_at: new Date(report.createdAt).toISOString(),
    score: meanScore(criteria),
    level: readinessLevel(criteria, mapping),
    evaluated: criteria.filter((c) => c.score !== null).length,
    passed: criteria.filter((c) => c.status === 'pass').length,
    skipped: criteria.filter((c) => c.status === 'skipped').length,
    invalid: criteria.filter((c) => c.status === 'invalid').length,
    criteria,
  };
}

/** The organization of a report in a snapshot of several organizations; undefined in an organization's own. */
export type OrganizationOf = (report: ReadinessReport) => OrganizationRef | undefined;

const noOrganization: OrganizationOf = () => undefined;

/**
 * The readiness reports of a snapshot, and which organization each belongs to: in a snapshot of
 * several organizations (a rollup) every organization's own reports, so that a repository is
 * identified by organization and URL.
 *
 * @example
 * const { reports, organizationOf } = snapshotReadiness(rollupSnapshot);
 */
export function snapshotReadiness(snapshot: Pick<Snapshot, 'readiness' | 'organizations'>): {
  reports: readonly ReadinessReport[];
  organizationOf: OrganizationOf;
} {
  if (!snapshot.organizations) return { reports: snapshot.readiness, organizationOf: noOrganization };
  const owners = new Map<ReadinessReport, OrganizationRef>();
  for (const part of snapshot.organizations) {
    const organization = { ...part.organization };
    for (const report of part.readiness) owners.set(report, organization);
  }
  return { reports: [...owners.keys()], organizationOf: (r) => owners.get(r) };
}

/** The key of a report's repository: its organization (in a rollup) and its URL. */
function repositoryKey(organization: OrganizationRef | undefined, url: string): string {
  return organization ? `${organization.id}\u0000${url}` : url;
}

/**
 * Each repository's latest report created on or before the end of `day` (ties on the instant: the
 * report id that sorts last), by repository: its URL, preceded in a rollup by its organization's id
 * and a NUL (see {@link snapshotReadiness}).
 *
 * @example
 * latestReports(reports, '2026-03-31').get('https://git.example.test/acme/web')
 */
export function latestReports(
  reports: readonly ReadinessReport[],
  day: string,
  organizationOf: OrganizationOf = noOrganization,
): Map<string, ReadinessReport> {
  const limit = endOfDayMs(day);
  const latest = new Map<string, ReadinessReport>();
  for (const r of reports) {
    if (!(r.createdAt < limit)) continue;
    const key = repositoryKey(organizationOf(r), r.repoUrl);
    const current = latest.get(key);
    if (
      !current ||
      r.createdAt > current.createdAt ||
      (r.createdAt === current.createdAt && r.reportId > current.reportId)
    ) {
      latest.set(key, r);
    }
  }
  return latest;
}

/** A report scored, named after its organization in a rollup. */
function scoredOf(
  report: ReadinessReport,
  mapping: Readonly<Record<string, number>>,
  organizationOf: OrganizationOf,
): ReadinessReportRow {
  const organization = organizationOf(report);
  const scored = readinessScores(report, mapping);
  return organization ? { organization, ...scored } : scored;
}

/** Org score and level from repository rows: mean score, floor of the mean level. */
export function orgReadiness(repos: ReadonlyArray<{ score: number | null; level: number }>): {
  score: number | null;
  level: number | null;
} {
  const scores = repos.map((r) => r.score).filter((s): s is number => s !== null);
  return {
    score: scores.length ? scores.reduce((a, b) => a + b, 0) / scores.length : null,
    level: repos.length ? Math.floor(repos.reduce((a, r) => a + r.level, 0) / repos.length) : null,
  };
}

/**
 * The organization's readiness at the end of `day`: each repository's latest report on or before
 * it, scored, and the org score and level of those.
 */
export function readinessAt(
  reports: readonly ReadinessReport[],
  day: string,
  mapping: Readonly<Record<string, number>>,
  organizationOf: OrganizationOf = noOrganization,
): { repos: ReadinessReportRow[]; score: number | null; level: number | null } {
  const repos = [...latestReports(reports, day, organizationOf).values()].map((r) =>
    scoredOf(r, mapping, organizationOf),
  );
  return { repos, ...orgReadiness(repos) };
}

export interface ReadinessInput {
  reports: readonly ReadinessReport[];
  mapping: Readonly<Record<string, number>>;
  period: { start: string; end: string };
  /** End of the comparison period; null without one (no trend then). */
  comparisonEnd: string | null;
  topN: number;
  rule: string;
  /** In a rollup, each report's organization (see {@link snapshotReadiness}). */
  organizationOf?: OrganizationOf;
}

/**
 * The readiness section of the report at the period's end.
 *
 * @example
 * readinessSection({ reports, mapping, period, comparisonEnd: '2026-02-28', topN: 5, rule })
 */
export function readinessSection(input: ReadinessInput): ReadinessSection {
  const { mapping } = input;
  const organizationOf = input.organizationOf ?? noOrganization;
  const latest = latestReports(input.reports, input.period.end, organizationOf);
  const before = input.comparisonEnd
    ? latestReports(input.reports, input.comparisonEnd, organizationOf)
    : new Map<string, ReadinessReport>();
  const scoredLatest = [...latest.values()].map((r) => scoredOf(r, mapping, organizationOf));
  const repos: ReadinessRepoRow[] = scoredLatest
    .map((s) => {
      const prev = before.get(repositoryKey(s.organization, s.repo_url));
      const previous = prev ? readinessScores(prev, mapping).score : null;
      return {
        ...(s.organization && { organization: s.organization }),
        repo_url: s.repo_url,
        report_id: s.report_id,
        created_at: s.created_at,
        score: s.score,
        level: s.level,
        previous_score: previous,
        trend: s.score !== null && previous !== null ? s.score - previous : null,
      };
    })
    .sort(
      (a, b) =>
        (a.organization?.name ?? '').localeCompare(b.organization?.name ?? '') ||
        (a.organization?.id ?? '').localeCompare(b.organization?.id ?? '') ||
        (a.repo_url < b.repo_url ? -1 : a.repo_url > b.repo_url ? 1 : 0),
    );
  const org = orgReadiness(repos);

  const stats = new Map<
    string,
    { sum: number; evaluated: number; passed: number; skipped: number; invalid: number }
  >();
  for (const report of scoredLatest) {
    for (const c of report.criteria) {
      const s = stats.get(c.criterion) ?? { sum: 0, evaluated: 0, passed: 0, skipped: 0, invalid: 0 };
      stats.set(c.criterion, s);
      if (c.status === 'skipped') s.skipped++;
      else if (c.status === 'invalid') s.invalid++;
      else {
        s.evaluated++;
        s.sum += c.score ?? 0;
        if (c.status === 'pass') s.passed++;
      }
    }
  }
  const criteria: ReadinessCriterionRow[] = [...stats]
    .map(([criterion, s]) => ({
      criterion,
      level: mappedLevel(mapping, criterion),
      mean_score: s.evaluated ? s.sum / s.evaluated : null,
      evaluated: s.evaluated,
      passed: s.passed,
      skipped: s.skipped,
      invalid: s.invalid,
    }))
    .sort(
      (a, b) =>
        (a.mean_score ?? Number.POSITIVE_INFINITY) - (b.mean_score ?? Number.POSITIVE_INFINITY) ||
        b.evaluated - a.evaluated ||
        (a.criterion < b.criterion ? -1 : 1),
    );
  const startMs = Date.parse(`${input.period.start}T00:00:00.000Z`);
  const endMs = endOfDayMs(input.period.end);
  const seen = new Set<string>();
  for (const r of input.reports) {
    if (r.createdAt < endMs) for (const id of Object.keys(r.report ?? {})) seen.add(id);
  }
  return {
    org_score: org.score,
    org_level: org.level,
    level_names: READINESS_LEVEL_NAMES,
    repos,
    reports: input.reports
      .filter((r) => r.createdAt >= startMs && r.createdAt < endMs)
      .sort((a, b) => a.createdAt - b.createdAt || (a.reportId < b.reportId ? -1 : 1))
      .map((r) => scoredOf(r, mapping, organizationOf)),
    criteria,
    // A criterion every repository passes is nobody's weakness: only those below 100 % are listed.
    weakest: criteria.filter((c) => c.mean_score !== null && c.mean_score < 1).slice(0, input.topN),
    unmapped_criteria: [...seen].filter((id) => mappedLevel(mapping, id) === null).sort(),
    skipped_evaluations: scoredLatest.reduce((a, r) => a + r.skipped, 0),
    invalid_evaluations: scoredLatest.reduce((a, r) => a + r.invalid, 0),
    rule: input.rule,
  };
}
