import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  BUILTIN_SECTIONS,
  defineSection,
  type ReportModel,
  type ReportSection,
  sectionData,
} from '@orgreport/metrics';
import { afterAll, describe, expect, it } from 'vitest';
import { readWithOpenpyxl, records, sheet } from './__fixtures__/openpyxl.ts';
import { makeFixtureModel } from './__fixtures__/report-model.ts';
import { renderHtml } from './html.ts';
import { validateTemplateDirs } from './internal/template-compile.ts';
import { writeWorkbook } from './workbook/workbook.ts';

const scratch = mkdtempSync(join(tmpdir(), 'render-sections-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const builtin = (id: string) => BUILTIN_SECTIONS.find((s) => s.id === id)!;

interface TierRow {
  tier: string;
  perUser: number | null;
}

/** Another team's section: its figures are in the model under `sections['credits-per-user']`. */
const perUser = defineSection<TierRow[]>({
  id: 'credits-per-user',
  title: 'Credits per active user',
  compute: () => [],
  partial: {
    source:
      '<section class="section" id="credits-per-user"><h2>{{title}}</h2>{{#each section}}<p>{{tier}}: {{dec perUser}}</p>{{/each}}</section>',
  },
  sheets: [
    {
      name: 'Per user',
      columns: () => [
        { header: 'tier', kind: 'text', value: (r: TierRow) => r.tier },
        { header: 'credits_per_user', kind: 'decimal', value: (r: TierRow) => r.perUser },
      ],
      rows: (model: ReportModel) => (model.sections?.['credits-per-user'] as TierRow[] | undefined) ?? [],
    },
  ],
});

const model: ReportModel = {
  ...makeFixtureModel(),
  sections: {
    'credits-per-user': [
      { tier: 'standard', perUser: 1234.5 },
      { tier: 'thinking', perUser: null },
    ],
  },
};

/** Built-in sections omitted (cover, adoption, ...), two swapped (readiness before usage), one added. */
const configured: ReportSection[] = [
  builtin('summary'),
  builtin('readiness'),
  builtin('usage'),
  perUser,
  builtin('data-quality'),
];

const sectionIds = (html: string) =>
  [...html.matchAll(/<section class="(?:section|cover)"(?: id="([^"]+)")?/g)].map((m) => m[1] ?? 'cover');

describe('the configured sections', () => {
  it('lay out the HTML in their order, each partial with its own figures and title', async () => {
    const html = await renderHtml(model, { sections: configured, embedFonts: false });
    expect(sectionIds(html)).toEqual(['summary', 'readiness', 'usage', 'credits-per-user', 'data-quality']);
    expect(html).toContain('<h2>Credits per active user</h2><p>standard: 1,234.50</p><p>thinking: n/a</p>');
    const all = await renderHtml(model, { embedFonts: false });
    // All but those that compute figures and have none here (no rollup, no trend without a store).
    expect(sectionIds(all)).toEqual(
      BUILTIN_SECTIONS.filter((s) => !(s.compute && sectionData(model, s) === null)).map((s) => s.id),
    );
    expect(sectionIds(all)).not.toContain('trend');
  });

  it('leave out a section that computes figures and has none in the model', async () => {
    const noLog = { ...model, hookEvents: null, sections: {} };
    const html = await renderHtml(noLog, {
      sections: [builtin('summary'), builtin('hook-events'), perUser],
      embedFonts: false,
    });
    expect(sectionIds(html)).toEqual(['summary']);
  });

  it('take a template folder’s partial over the section’s own, built-in or not', async () => {
    const dir = join(scratch, 'override');
    mkdirSync(join(dir, 'partials'), { recursive: true });
    writeFileSync(
      join(dir, 'partials', 'credits-per-user.hbs'),
      '<p>OVERRIDDEN {{title}} {{len section}}</p>',
    );
    writeFileSync(join(dir, 'partials', 'usage.hbs'), '<p>OWN USAGE {{int model.credits.total}}</p>');
    const html = await renderHtml(model, { sections: configured, templateDirs: [dir], embedFonts: false });
    expect(html).toContain('<p>OVERRIDDEN Credits per active user 2</p>');
    expect(html).toContain(`<p>OWN USAGE ${model.credits.total.toLocaleString('en-US')}</p>`);
    expect(html).not.toContain('Credits by ISO week');
    expect(html).toContain('id="readiness"');
  });

  it('let a template refer to any section’s partial when those sections are given to the check', async () => {
    const dir = join(scratch, 'refers');
    mkdirSync(join(dir, 'partials'), { recursive: true });
    writeFileSync(join(dir, 'partials', 'summary.hbs'), '{{> credits-per-user}}{{> usage}}');
    await expect(validateTemplateDirs([dir])).rejects.toThrow(
      'refers to partial "credits-per-user", which no template directory or section has',
    );
    await expect(validateTemplateDirs([dir], [perUser])).resolves.toBeUndefined();
  });

  it('write the workbook’s sheets in section order', async () => {
    const file = join(scratch, 'configured.xlsx');
    await writeWorkbook(model, file, { sections: configured });
    const sheets = readWithOpenpyxl(file);
    expect(sheets.map((s) => s.name)).toEqual([
      'Summary',
      'Readiness',
      'Criteria',
      'Daily',
      'Weekly',
      'Per user',
      'Data quality',
      'Data quality details',
      // The writer's own, after every section's.
      'Rates',
      'Notes',
    ]);
    // Another section's table sheet gets the stacking columns and its table like a built-in one.
    expect(sheet(sheets, 'Per user').tables).toEqual({ tbl_per_user: 'A1:E3' });
    expect(
      records(sheet(sheets, 'Per user')).map((r) => [
        r['org_id']?.value,
        r['month']?.value,
        r['scope']?.value,
        r['tier']?.value,
        r['credits_per_user']?.value,
      ]),
    ).toEqual([
      [model.organization.id, `${model.period.month}-01T00:00:00`, 'organization', 'standard', 1234.5],
      [model.organization.id, `${model.period.month}-01T00:00:00`, 'organization', 'thinking', null],
    ]);
  });

  it('write the Summary’s totals as formulas over the Daily sheet only when a section writes it', async () => {
    const credits = (file: string) =>
      records(sheet(readWithOpenpyxl(file), 'Summary')).find((r) => r['id']?.value === 'credits')!['value']!;
    const withDaily = join(scratch, 'with-daily.xlsx');
    await writeWorkbook(model, withDaily, { sections: [builtin('usage'), builtin('summary')] });
    // Daily written after the Summary: the formula still finds its credits (after org_id, month, scope, date, has_data).
    expect(credits(withDaily).value).toBe(`=SUM('Daily'!F2:F${model.daily.length + 1})`);
    expect(credits(withDaily).result).toBe(model.credits.total);
    const alone = join(scratch, 'summary-alone.xlsx');
    await writeWorkbook(model, alone, { sections: [builtin('summary')] });
    expect(credits(alone).value).toBe(model.credits.total);
  });
});
