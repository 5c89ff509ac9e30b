/**
 * Definitions: every section's definitions in plain language, so a reader can recompute each number
 * by hand; the workbook's Definitions sheet. The built-in sections' terms are listed in the order a
 * reader meets them, then the other sections' terms in section order.
 */
import { fileURLToPath } from 'node:url';
import { field } from '../../internal/sheet-columns.ts';
import type { Definition } from '../../model.ts';
import { defineSection, type ReportSection } from '../../section.ts';

/** The built-in terms in reading order: the definitions page's order. */
export const READING_ORDER = [
  'period',
  'sums',
  'change',
  'what_changed',
  'active_users',
  'dau',
  'mau_trailing_30d',
  'weeks',
  'autonomy',
  'autonomy_mix',
  'delegation',
  'readiness_score',
  'readiness_level',
  'tools',
  'productivity',
  'credits',
  'controls',
  'seats',
  'limits',
  'teams',
  'chargeback',
  'user_cost',
  'actions',
  'people',
  'organization_context',
  'trend',
  'rollup',
  'combine_rules',
  'data_quality',
  'row_checks',
  'scope',
  'privacy',
];

/** The definitions of `sections`, built-in terms in reading order first, the others after in section order. */
export function glossary(sections: ReadonlyArray<ReportSection>): Definition[] {
  const rank = (d: Definition) => {
    // A figure's rules come with the rules' own definition, in figure order.
    const i = READING_ORDER.indexOf(d.rule ? 'combine_rules' : d.id);
    return i < 0 ? READING_ORDER.length : i;
  };
  return sections
    .flatMap((s) => s.definitions ?? [])
    .map((d, i) => ({ d, i }))
    .sort((a, b) => rank(a.d) - rank(b.d) || a.i - b.i)
    .map(({ d }) => ({ ...d }));
}

export const definitions = defineSection({
  id: 'definitions',
  title: 'Definitions',
  partial: { file: fileURLToPath(new URL('./definitions.hbs', import.meta.url)) },
  sheets: [
    {
      name: 'Definitions',
      columns: () => [field<Definition, 'id'>('id', 'text'), field('term', 'text'), field('text', 'text')],
      // The readiness rule is added only when the model's definitions do not already hold it.
      rows: (model) =>
        model.definitions.some((d) => d.text === model.readiness.rule)
          ? model.definitions
          : [
              ...model.definitions,
              { id: 'readiness_level_rule', term: 'Readiness levels', text: model.readiness.rule },
            ],
    },
  ],
});
