/**
 * Readiness: each repository's score and level at the period's end with its trend, the weakest
 * criteria, the organization's level; the workbook's Readiness and Criteria sheets; the checks of
 * invalid evaluations and of criteria missing from the level mapping.
 */
import { fileURLToPath } from 'node:url';
import { type Run, runOf } from '../../internal/run.ts';
import { field } from '../../internal/sheet-columns.ts';
import { readinessInvalid, readinessUnmapped } from '../../internal/transforms/data-quality.ts';
import { readinessSection, snapshotReadiness } from '../../internal/transforms/readiness.ts';
import type {
  DataQualityFinding,
  ReadinessCriterionRow,
  ReadinessRepoRow,
  ReportModel,
} from '../../model.ts';
import type { SheetColumn } from '../../section.ts';
import { builtinSection } from '../builtin.ts';

/** The readiness level rule in plain language. */
export const READINESS_LEVEL_RULE =
  'Readiness levels are 1 Functional, 2 Documented, 3 Standardized, 4 Optimized, 5 Autonomous. ' +
  'A repository starts at level 1 and reaches level n+1 when at least 80 % of its scored level-n criteria pass ' +
  '(numerator = denominator), checked level by level up to 5. A level with no scored criterion in the report ' +
  'cannot be passed, so the climb stops there. Skipped criteria (no numerator) and invalid evaluations are left ' +
  'out. Which level a criterion belongs to is configuration (a default mapping ships with orgreport); criteria ' +
  'missing from it count in scores but in no level and are listed. Org level = the mean of the repositories\u2019 ' +
  'levels, rounded down.';

/** Columns of the `Readiness` sheet (repositories at the end of the period; in a rollup, whose each is). */
function readinessColumns(model: ReportModel): SheetColumn<ReadinessRepoRow>[] {
  const organization: SheetColumn<ReadinessRepoRow>[] = model.readiness.repos.some((r) => r.organization)
    ? [
        { header: 'organization_id', kind: 'text', value: (r) => r.organization?.id ?? null },
        { header: 'organization', kind: 'text', value: (r) => r.organization?.name ?? null },
      ]
    : [];
  return [
    ...organization,
    field('repo_url', 'text'),
    field('level', 'level'),
    field('score', 'share'),
    field('previous_score', 'share'),
    field('trend', 'points'),
    field('report_id', 'text'),
    field('created_at', 'datetime'),
  ];
}

/** Columns of the `Criteria` sheet (weakest first). */
function criteriaColumns(): SheetColumn<ReadinessCriterionRow>[] {
  return [
    field('criterion', 'text'),
    field('level', 'level'),
    field('mean_score', 'share'),
    field('evaluated', 'integer'),
    field('passed', 'integer'),
    field('skipped', 'integer'),
    field('invalid', 'integer'),
  ];
}

/** The run's readiness, computed once (the section and the brief's actions read it). */
export function readinessOf(run: Run): ReportModel['readiness'] {
  return run.once('readiness', () => {
    const { reports, organizationOf } = snapshotReadiness(run.snapshot);
    return readinessSection({
      reports,
      organizationOf,
      mapping: run.mapping,
      period: run.period,
      comparisonEnd: run.comparison?.end ?? null,
      topN: run.topN,
      rule: READINESS_LEVEL_RULE,
    });
  });
}

export const readiness = builtinSection('readiness', {
  id: 'readiness',
  title: 'Readiness',
  compute: (context) => readinessOf(runOf(context)),
  checks: (context, readiness) => {
    // The reports behind the figures (each repository's latest) and those created in the period.
    const inspected = new Map(
      [...runOf(context).current.repos, ...readiness.reports].map((r) => [r.report_id, r]),
    );
    return [readinessInvalid([...inspected.values()]), readinessUnmapped(readiness.unmapped_criteria)].filter(
      (f): f is DataQualityFinding => f !== null,
    );
  },
  definitions: [
    {
      id: 'readiness_score',
      term: 'Readiness scores',
      text: 'Criterion score = numerator / denominator. An evaluation without a numerator is skipped (left out of every score, counted as skipped); one with a denominator below 1, a negative numerator or a numerator above the denominator is invalid (excluded and listed under data quality). A criterion passes when numerator = denominator. Report score = mean of its criterion scores. A repository\u2019s score = that of its latest report created on or before the period\u2019s last day; trend = that score minus the score of its latest report on or before the comparison period\u2019s last day, in percentage points. Org score = mean of the repositories\u2019 scores. A repository is identified by its URL, and in a rollup by its organization and URL: two organizations evaluating the same URL are two repositories, each with its own latest report. Weakest criteria = criteria ordered by their mean score across the repositories\u2019 latest reports.',
    },
    { id: 'readiness_level', term: 'Readiness levels', text: READINESS_LEVEL_RULE },
  ],
  partial: { file: fileURLToPath(new URL('./readiness.hbs', import.meta.url)) },
  sheets: [
    { name: 'Readiness', columns: readinessColumns, rows: (model) => model.readiness.repos },
    { name: 'Criteria', columns: criteriaColumns, rows: (model) => model.readiness.criteria },
  ],
});
