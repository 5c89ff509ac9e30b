import { existsSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  BUILTIN_SECTION_IDS,
  BUILTIN_SECTIONS,
  buildReportModel,
  DEFINITIONS,
  defineSection,
  type ReportSection,
  type SectionContext,
  sectionData,
  shortSections,
} from '../index.ts';
import { sampleSnapshot } from '../testing/index.ts';
import { buildSnapshot, tokensDay, userDay } from '../testing/snapshot-builder.ts';

const OPTIONS = { generatedAt: '2026-11-01T00:00:00.000Z' };
const builtin = (id: string) => BUILTIN_SECTIONS.find((s) => s.id === id)!;

/** Credits per active user of each model tier: a section of another team, written in the test. */
const perUser = defineSection({
  id: 'credits-per-user',
  title: 'Credits per active user by tier',
  compute: ({ model }: SectionContext) => {
    const users = model.figures.find((f) => f.id === 'active_users')?.value ?? 0;
    return model.credits.byTier.map((t) => ({ tier: t.tier, perUser: users ? t.credits / users : null }));
  },
  checks: (_context, rows) =>
    rows.some((r) => r.perUser === null) ? [{ kind: 'no_active_user', message: 'No active user.' }] : [],
  definitions: [
    { id: 'credits_per_user', term: 'Credits per user', text: 'Credits of a tier / active users.' },
  ],
  partial: { source: '<section class="section" id="credits-per-user">{{title}}</section>' },
});

describe('the built-in sections', () => {
  it('are the report in its order, each in its own folder with its partial beside its declaration', () => {
    expect(BUILTIN_SECTION_IDS).toEqual([
      'cover',
      'brief',
      'summary',
      'rollup',
      'trend',
      'usage',
      'adoption',
      'behaviour',
      'tools',
      'productivity',
      'readiness',
      'seats',
      'people',
      'teams',
      'chargeback',
      'controls',
      'hook-events',
      'organization-context',
      'guide',
      'definitions',
      'data-quality',
    ]);
    // A scoped reader's short report: the page they act on, their people, teams and money, the
    // organization's context, how to read it.
    expect(shortSections().map((s) => s.id)).toEqual([
      'brief',
      'people',
      'teams',
      'chargeback',
      'organization-context',
      'guide',
    ]);
    const folders = readdirSync(new URL('.', import.meta.url), { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name);
    expect(folders.sort()).toEqual([...BUILTIN_SECTION_IDS].sort());
    for (const section of BUILTIN_SECTIONS) {
      const partial = section.partial as { file: string };
      expect(partial.file, section.id).toMatch(new RegExp(`/sections/${section.id}/${section.id}\\.hbs$`));
      expect(existsSync(partial.file), section.id).toBe(true);
    }
  });

  it('each declare their own definitions, listed in reading order; every definition once', () => {
    const ids = BUILTIN_SECTIONS.flatMap((s) => (s.definitions ?? []).map((d) => d.id));
    expect(new Set(ids).size).toBe(ids.length);
    expect(DEFINITIONS.map((d) => d.id).sort()).toEqual([...ids].sort());
    expect(DEFINITIONS.slice(0, 3).map((d) => d.id)).toEqual(['period', 'sums', 'change']);
    expect(DEFINITIONS.at(-1)?.id).toBe('row_checks');
    expect(builtin('readiness').definitions?.map((d) => d.id)).toEqual([
      'readiness_score',
      'readiness_level',
    ]);
  });

  it('list their data-quality findings in section order (usage, behaviour, tools, readiness)', () => {
    const model = buildReportModel(sampleSnapshot(), OPTIONS);
    expect(model.dataQuality.map((f) => f.kind)).toEqual([
      'users_total_mismatch', // usage: the daily series
      'autonomy_mix_off', // behaviour
      'mcp_case_merged', // tools
      'unparseable_tool_names',
      'readiness_invalid', // readiness
      'readiness_unmapped',
    ]);
  });

  it('keep their figures under the model members they always had', () => {
    const model = buildReportModel(sampleSnapshot(), OPTIONS);
    expect(sectionData(model, builtin('tools'))).toBe(model.tools);
    expect(sectionData(model, builtin('usage'))).toBe(model.credits);
    expect(sectionData(model, builtin('hook-events'))).toBe(model.hookEvents);
    expect(model.hookEvents?.total).toBeGreaterThan(0);
    expect(sectionData(model, builtin('summary'))).toBeNull(); // computes nothing of its own
    expect(model.sections).toBeUndefined();
    const withoutLog = buildReportModel(buildSnapshot({ month: '2026-10' }), OPTIONS);
    expect(sectionData(withoutLog, builtin('hook-events'))).toBeNull();
  });

  it('name no sheet column org_id or month: the workbook puts the report’s own first on every row', () => {
    const model = buildReportModel(sampleSnapshot(), { ...OPTIONS, pricePerCredit: 0.01 });
    for (const section of BUILTIN_SECTIONS) {
      for (const sheet of section.sheets ?? []) {
        if (!('columns' in sheet)) continue;
        const headers = sheet.columns(model).map((c) => c.header.toLowerCase());
        expect(headers, sheet.name).not.toContain('org_id');
        expect(headers, sheet.name).not.toContain('month');
      }
    }
  });
});

describe('a configuration of sections', () => {
  // 2026-10: two users active on the 5th, one of them on the 6th; 300 + 100 standard credits.
  const snapshot = buildSnapshot({
    month: '2026-10',
    tokens: [
      tokensDay('2026-10-05', {
        billable_tokens: 300,
        by_model: [
          { model_id: 'm1', model_tier: 'standard', billable_tokens: 300, input_tokens: 0, output_tokens: 0 },
        ],
      }),
      tokensDay('2026-10-06', {
        billable_tokens: 100,
        by_model: [
          { model_id: 'm2', model_tier: 'thinking', billable_tokens: 100, input_tokens: 0, output_tokens: 0 },
        ],
      }),
    ],
    userDays: [
      userDay('u1', '2026-10-05', { sessions: 1 }),
      userDay('u2', '2026-10-05', { sessions: 2 }),
      userDay('u1', '2026-10-06', { sessions: 1 }),
    ],
  });
  const sections: ReportSection[] = [
    builtin('summary'),
    builtin('readiness'),
    builtin('usage'),
    perUser,
    builtin('data-quality'),
  ];

  it('adds the added section’s figures, finding and definition after the built-in ones', () => {
    const model = buildReportModel(snapshot, { ...OPTIONS, sections });
    expect(model.sections).toEqual({
      'credits-per-user': [
        { tier: 'standard', perUser: 150 },
        { tier: 'thinking', perUser: 50 },
      ],
    });
    expect(sectionData(model, perUser)).toBe(model.sections?.['credits-per-user']);
    // The trend's and the rollup's terms come with them only (this run has neither); the terms of
    // the scoped report's own sections (the actions, the people, the organization's context) with it.
    const absent = [
      'trend',
      'rollup',
      'teams',
      'chargeback',
      'user_cost',
      'actions',
      'people',
      'organization_context',
    ];
    expect(model.definitions.map((d) => d.id)).toEqual([
      ...DEFINITIONS.map((d) => d.id).filter((id) => !absent.includes(id)),
      'credits_per_user',
    ]);
    // The model holds every built-in section's figures, whatever the layout shows.
    expect(model.tools.total).toBe(0);
    expect(model.credits.total).toBe(400);
    const plain = buildReportModel(snapshot, OPTIONS);
    expect({ ...model, sections: undefined, definitions: [] }).toEqual({
      ...plain,
      sections: undefined,
      definitions: [],
    });
  });

  it('runs the added sections after the built-in ones, with what every section shares', () => {
    const seen: Array<Pick<SectionContext, 'period' | 'inputs'> & { daily: number; credits: number }> = [];
    const probe = defineSection({
      id: 'probe',
      title: 'Probe',
      compute: (context) => {
        seen.push({
          period: context.period,
          inputs: context.inputs,
          daily: context.shared.daily.length,
          credits: context.shared.figures.find((f) => f.id === 'credits')?.value ?? -1,
        });
        return { users: context.shared.users.map((u) => u.user_id), teams: context.inputs['teams'] };
      },
    });
    const teams = { u1: 'platform', u2: 'apps' };
    const model = buildReportModel(snapshot, { ...OPTIONS, sections: [probe], inputs: { teams } });
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ daily: 31, credits: 400, inputs: { teams } });
    expect(seen[0]?.period.month).toBe('2026-10');
    expect(model.sections?.['probe']).toEqual({ users: ['u1', 'u2'], teams });
  });

  it('refuses a section named twice, and a sheet that is neither a table nor figures', () => {
    expect(() => buildReportModel(snapshot, { ...OPTIONS, sections: [perUser, perUser] })).toThrow(
      'section "credits-per-user" is configured twice',
    );
    expect(() =>
      defineSection({
        id: 'bad',
        title: 'Bad',
        sheets: [{ name: 'X' } as unknown as { name: string; figures: () => [] }],
      }),
    ).toThrow('every sheet needs a name and either columns(model) and rows(model), or figures(model)');
  });
});
