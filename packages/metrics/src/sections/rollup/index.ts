/**
 * Rollup: one row per organization of a rollup report (each from its own report's figures) and the
 * total row, which is the report's own figures over all of them together. Without organizations
 * (an ordinary report) the section is left out.
 */
import { fileURLToPath } from 'node:url';
import { field } from '../../internal/sheet-columns.ts';
import type { Figure } from '../../model.ts';
import { defineSection, type SectionContext } from '../../section.ts';

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
] as const;

type RollupFigure = (typeof ROLLUP_FIGURES)[number];

/** One organization, or the total. */
export type RollupRow = {
  org_id: string;
  organization: string;
  total: boolean;
  cost: number | null;
} & Record<RollupFigure, number | null>;

export interface RollupSection {
  rows: RollupRow[];
  /** The total row (also the last of `rows`). */
  total: RollupRow;
  /** The organizations' credits add up to the total exactly. */
  creditsReconcile: boolean;
}

function rowOf(
  id: string,
  name: string,
  figures: ReadonlyArray<Figure>,
  price: number | null,
  total: boolean,
): RollupRow {
  const value = (f: RollupFigure) => figures.find((x) => x.id === f)?.value ?? null;
  const row = { org_id: id, organization: name, total } as RollupRow;
  for (const f of ROLLUP_FIGURES) row[f] = value(f);
  row.cost = price === null || row.credits === null ? null : row.credits * price;
  return row;
}

/** The rollup of the run: null without organizations. */
export function computeRollup(context: SectionContext): RollupSection | null {
  const organizations = context.inputs.organizations;
  if (!organizations || organizations.length === 0) return null;
  const price = context.shared.pricing?.pricePerCredit ?? null;
  const rows = organizations.map((o) => rowOf(o.id, o.name, o.figures, price, false));
  const { id, name } = context.snapshot.manifest.organization;
  const total = rowOf(id, name, context.shared.figures, price, true);
  const sum = rows.reduce((s, r) => s + (r.credits ?? 0), 0);
  return { rows: [...rows, total], total, creditsReconcile: sum === total.credits };
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
    data && !data.creditsReconcile
      ? [
          {
            kind: 'rollup_reconciliation',
            message: `The organizations' credits (${data.rows
              .filter((r) => !r.total)
              .reduce(
                (s, r) => s + (r.credits ?? 0),
                0,
              )}) do not add up to the total (${data.total.credits}).`,
          },
        ]
      : [],
  definitions: [
    {
      id: 'rollup',
      term: 'Rollup',
      text: 'A rollup report is the report of several organizations of a store taken together. Each organization\u2019s row holds the figures of its own report; the total row holds the figures of all of them together: sums add up, and distinct counts (active users, seats) add up too because each organization\u2019s users are its own (a person with an account in two organizations counts twice). Average DAU adds up per day; stickiness, utilization and autonomy are recomputed over all users, and the readiness score is the mean over every organization\u2019s repositories (a repository that two organizations report on, by the same URL, counts once, with its latest report). Enterprise controls are per organization and are not part of a rollup.',
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
      ],
      rows: (model) => (model.sections?.rollup as RollupSection | undefined)?.rows ?? [],
    },
  ],
});
