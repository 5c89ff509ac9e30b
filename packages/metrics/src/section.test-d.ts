// Type tests of the section API (checked by `tsc --noEmit`).
import { expectTypeOf } from 'vitest';
import {
  buildReportModel,
  defineSection,
  type MonthHistory,
  type ReportModel,
  type ReportSection,
  type SectionContext,
  type SectionInputs,
} from './index.ts';

// A package that brings an input names its type by augmenting SectionInputs.
interface TeamLookup {
  teamOf(email: string): string | undefined;
}
declare module './section.ts' {
  interface SectionInputs {
    people?: TeamLookup;
  }
}

const byTeam = defineSection({
  id: 'by-team',
  title: 'Credits by team',
  compute: ({ inputs, shared }) => {
    expectTypeOf(inputs.people).toEqualTypeOf<TeamLookup | undefined>();
    expectTypeOf(inputs['budget']).toBeUnknown(); // inputs nobody typed stay unknown
    expectTypeOf(inputs.history).toEqualTypeOf<ReadonlyArray<MonthHistory> | undefined>();
    const credits = new Map<string, number>();
    for (const u of shared.users) {
      const team = (u.email && inputs.people?.teamOf(u.email)) ?? '(none)';
      credits.set(team, (credits.get(team) ?? 0) + u.credits);
    }
    return [...credits].map(([team, total]) => ({ team, credits: total }));
  },
  checks: (_context, rows) => {
    expectTypeOf(rows).toEqualTypeOf<Array<{ team: string; credits: number }>>();
    return [];
  },
  sheets: [
    {
      name: 'Teams',
      columns: () => [{ header: 'team', kind: 'text', value: (r: { team: string }) => r.team }],
      rows: (model) => (model.sections?.['by-team'] ?? []) as Array<{ team: string }>,
    },
  ],
});

expectTypeOf(byTeam).toMatchTypeOf<ReportSection>();
expectTypeOf<SectionContext['model']>().toEqualTypeOf<Readonly<ReportModel>>();
expectTypeOf<SectionInputs>().toHaveProperty('people');
expectTypeOf(buildReportModel).returns.toEqualTypeOf<ReportModel>();
