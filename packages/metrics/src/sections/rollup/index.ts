/**
 * Rollup: one row per organization of a rollup report (each from its own report's figures) and the
 * total row, which is the report's own figures over all of them together, each combined by its rule
 * (`FIGURE_RULES`): summed, recomputed, or, for a figure kept per organization, in the
 * organizations' rows only. Without organizations (an ordinary report) the section is left out.
 */
import { fileURLToPath } from 'node:url';
import { FIGURE_RULES, type FigureRule } from '../../figure-rules.ts';
import { field } from '../../internal/sheet-columns.ts';
import { toCents } from '../../internal/transforms/attribution.ts';
import type { Figure, FigureId, FigureUnit } from '../../model.ts';
import { defineSection, type SectionContext, type SheetColumn, type ValueKind } from '../../section.ts';

/** The figures a rollup row shows, by id (docs/metrics.md). */
export const ROLLUP_FIGURES = [
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
] as const;

type RollupFigure = (typeof ROLLUP_FIGURES)[number];

/** A figure kept per organization (rule `per-organization`): a column of its own, no total. */
export interface PerOrganizationFigure {
  id: FigureId;
  label: string;
  unit: FigureUnit;
  reason: string;
}

/** One organization, or the total. */
export type RollupRow = {
  org_id: string;
  organization: string;
  total: boolean;
  /** Its credits' cost to the cent; the total's is the organizations' costs added up (each billed on its own). */
  cost: number | null;
  /** The figures kept per organization, in the order of `perOrganization` (null in the total row). */
  per_organization: Array<{ id: FigureId; value: number | null; unit: FigureUnit }>;
} & Record<RollupFigure, number | null>;

export interface RollupSection {
  rows: RollupRow[];
  /** The total row (also the last of `rows`). */
  total: RollupRow;
  /** The organizations' credits add up to the total exactly. */
  creditsReconcile: boolean;
  /** Summed figures (rule `sum`) whose organizations' values do not add up to the total: none, normally. */
  unreconciled: Array<{ id: FigureId; organizations: number | null; total: number | null }>;
  /** Figures kept per organization, shown in the organizations' rows only. */
  perOrganization: PerOrganizationFigure[];
  /** Figures without a total by their rules, with the reason the total row would show. */
  withheld: Array<{ id: FigureId; label: string; reason: string }>;
}

type Rules = { readonly [K in FigureId]: FigureRule };

function rowOf(
  id: string,
  name: string,
  figures: ReadonlyArray<Figure>,
  total: boolean,
  perOrganization: readonly PerOrganizationFigure[],
): RollupRow {
  const value = (f: FigureId) => figures.find((x) => x.id === f)?.value ?? null;
  const row = { org_id: id, organization: name, total } as RollupRow;
  for (const f of ROLLUP_FIGURES) row[f] = value(f);
  // Priced in computeRollup, where the total's cost is its organizations' bills added up.
  row.cost = null;
  row.per_organization = perOrganization.map((f) => ({
    id: f.id,
    value: total ? null : value(f.id),
    unit: f.unit,
  }));
  return row;
}

/** True when two sums are equal up to floating-point noise (credits may carry fractions). */
function sameSum(a: number | null, b: number | null): boolean {
  if (a === null || b === null) return a === b;
  return Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
}

/**
 * The summed figures (rule `sum`) whose organizations' values do not add up to the rollup's; a sum
 * with an organization's value missing (null) is not a sum, and is listed too.
 */
export function unreconciledSums(
  organizations: ReadonlyArray<{ figures: ReadonlyArray<Figure> }>,
  totals: ReadonlyArray<Figure>,
  rules: Rules = FIGURE_RULES,
): RollupSection['unreconciled'] {
  const out: RollupSection['unreconciled'] = [];
  for (const figure of totals) {
    if (rules[figure.id]?.organizations.rule !== 'sum') continue;
    const values = organizations.map((o) => o.figures.find((f) => f.id === figure.id)?.value ?? null);
    const sum = values.some((v) => v === null) ? null : (values as number[]).reduce((a, b) => a + b, 0);
    if (!sameSum(sum, figure.value)) out.push({ id: figure.id, organizations: sum, total: figure.value });
  }
  return out;
}

/** The figures kept per organization by `rules`, in report order. */
export function perOrganizationFigures(
  figures: ReadonlyArray<Figure>,
  rules: Rules = FIGURE_RULES,
): PerOrganizationFigure[] {
  return figures.flatMap((f) => {
    const rule = rules[f.id]?.organizations;
    return rule?.rule === 'per-organization'
      ? [{ id: f.id, label: f.label, unit: f.unit, reason: rule.reason }]
      : [];
  });
}

/** The rollup of the run: null without organizations. */
export function computeRollup(context: SectionContext): RollupSection | null {
  const organizations = context.inputs.organizations;
  if (!organizations || organizations.length === 0) return null;
  const price = context.shared.pricing?.pricePerCredit ?? null;
  const totals = context.shared.figures;
  const perOrganization = perOrganizationFigures(totals);
  const rows = organizations.map((o) => rowOf(o.id, o.name, o.figures, false, perOrganization));
  const { id, name } = context.snapshot.manifest.organization;
  const total = rowOf(id, name, totals, true, perOrganization);
  if (price !== null) {
    // Each organization is billed on its own, to the cent: the total is the sum of those bills (the
    // combined credits priced once can differ from it by a cent per organization).
    const cents = rows.map((r) => (r.credits === null ? null : toCents(r.credits * price)));
    for (const [i, r] of rows.entries()) r.cost = cents[i] === null ? null : cents[i]! / 100;
    total.cost = cents.some((c) => c === null) ? null : cents.reduce<number>((a, c) => a + c!, 0) / 100;
  }
  const sum = rows.reduce((s, r) => s + (r.credits ?? 0), 0);
  return {
    rows: [...rows, total],
    total,
    creditsReconcile: sum === total.credits,
    unreconciled: unreconciledSums(organizations, totals),
    perOrganization,
    withheld: totals.flatMap((f) =>
      f.unavailableReason ? [{ id: f.id, label: f.label, reason: f.unavailableReason }] : [],
    ),
  };
}

/** The workbook's number format of a figure's unit. */
const KIND_OF_UNIT: Record<FigureUnit, ValueKind> = {
  count: 'integer',
  credits: 'integer',
  tokens: 'integer',
  ratio: 'decimal',
  share: 'share',
  score: 'share',
  level: 'level',
};

/** The sheet's columns of the figures kept per organization. */
function perOrganizationColumns(section: RollupSection | undefined): SheetColumn<RollupRow>[] {
  return (section?.perOrganization ?? []).map((f) => ({
    header: f.id,
    kind: KIND_OF_UNIT[f.unit],
    value: (row: RollupRow) => row.per_organization.find((p) => p.id === f.id)?.value ?? null,
  }));
}

export const rollup = defineSection<RollupSection | null>({
  id: 'rollup',
  // A rollup is over organizations, never over a set of people.
  scope: 'omit',
  // Organizations: no person, no group of people.
  privacy: (data) => data,
  title: 'Organizations',
  compute: computeRollup,
  checks: (_context, data) =>
    data && data.unreconciled.length > 0
      ? [
          {
            kind: 'rollup_reconciliation',
            message: `Summed figures whose organizations' values do not add up to the total: ${data.unreconciled
              .map(
                (u) =>
                  `${u.id} (${u.organizations ?? 'an organization has no value'} against ${u.total ?? 'none'})`,
              )
              .join(', ')}.`,
            count: data.unreconciled.length,
            details: data.unreconciled,
          },
        ]
      : [],
  definitions: [
    {
      id: 'rollup',
      term: 'Rollup',
      text: 'A rollup report is the report of several organizations of a store taken together. Each organization\u2019s row holds the figures of its own report; the total row holds the figures of all of them together, each combined by its rule (see "How each figure combines"): summed figures add up to the organizations\u2019 values exactly (a difference is listed under data quality); recomputed figures are computed again from all organizations\u2019 rows together: distinct counts (active users, seats) come to the sum because each organization\u2019s users are its own (a person with an account in two organizations counts twice), DAU adds up per day before its mean and peak, and stickiness, utilization, autonomy and readiness are recomputed over all of them, never averaged; a figure kept per organization has no total and is shown in the organizations\u2019 rows only. A repository is identified by its organization and URL (two organizations evaluating one URL are two repositories). Enterprise-control changes are each organization\u2019s own: their count is the sum, and they are listed under each organization\u2019s name.',
    },
  ],
  partial: { file: fileURLToPath(new URL('./rollup.hbs', import.meta.url)) },
  sheets: [
    {
      name: 'Organizations',
      columns: (model) => [
        // `org_id` is the rollup's own id on every workbook row (it stacks); this is the row's.
        field<RollupRow, 'org_id'>('org_id', 'text', 'organization_id'),
        field('organization', 'text'),
        field('total', 'boolean'),
        field('credits', 'integer'),
        ...(model.pricing ? [field<RollupRow, 'cost'>('cost', 'currency')] : []),
        field('active_users', 'integer'),
        field('avg_dau', 'decimal'),
        field('stickiness', 'share'),
        field('seats', 'integer'),
        field('seat_utilization', 'share'),
        field('sessions', 'integer'),
        field('tool_calls', 'integer'),
        field('git_commits', 'integer'),
        field('autonomy_mean', 'decimal'),
        field('readiness_org_score', 'share'),
        field('readiness_repos', 'integer'),
        field('controls_changes', 'integer'),
        ...perOrganizationColumns(model.sections?.rollup as RollupSection | undefined),
      ],
      rows: (model) => (model.sections?.rollup as RollupSection | undefined)?.rows ?? [],
    },
  ],
});
