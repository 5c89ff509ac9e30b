/**
 * Sections as configured: a report with built-in sections omitted and reordered and a section from
 * another package added (examples/section-weekday) has exactly those sections, in that order, in
 * the model, the HTML and the workbook; a name that is no section fails before anything is fetched.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { RunningEmulator } from '@orgreport/emulator';
import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, envFor, readWorkbook, smallOrg, tempDir } from './helpers.ts';

let emulator: RunningEmulator;
beforeAll(async () => {
  emulator = await smallOrg({ users: 15 });
});
afterAll(() => emulator?.close());

// The schema as published with the package (its exports name it).
const schemaFile = createRequire(import.meta.url).resolve('@orgreport/metrics/report-model.schema.json');
const validate = new Ajv({ allErrors: true, strict: false }).compile(
  JSON.parse(readFileSync(schemaFile, 'utf8')),
);

const file = (dir: string, ext: string) => join(dir, readdirSync(dir).find((f) => f.endsWith(ext))!);

describe('configured sections', () => {
  it('omits, reorders and adds sections in the model, the HTML and the workbook', async () => {
    const out = tempDir();
    const sections = 'summary,readiness,usage,@orgreport-example/section-weekday,data-quality';
    const run = await cli(
      ['monthly', '--month', '2026-10', '--out', out, '--formats', 'json,html,xlsx', '--sections', sections],
      { env: envFor(emulator) },
    );
    expect(run.code, run.err).toBe(0);
    const model = JSON.parse(readFileSync(file(out, '.json'), 'utf8'));
    expect(model.sections.weekday.rows.map((r: { weekday: string }) => r.weekday)).toEqual([
      'Monday',
      'Tuesday',
      'Wednesday',
      'Thursday',
      'Friday',
      'Saturday',
      'Sunday',
    ]);
    expect(model.definitions.at(-1).id).toBe('weekday');
    expect(validate(model), JSON.stringify(validate.errors?.slice(0, 3))).toBe(true);
    const html = readFileSync(file(out, '.html'), 'utf8');
    const ids = [...html.matchAll(/<section class="section" id="([^"]+)"/g)].map((m) => m[1]);
    expect(ids).toEqual(['summary', 'readiness', 'usage', 'weekday', 'data-quality']);
    expect(html).toContain('Activity by weekday');
    expect(Object.keys(readWorkbook(file(out, '.xlsx')))).toEqual([
      'Summary',
      'Readiness',
      'Criteria',
      'Daily',
      'Weekly',
      'Weekdays',
      'Data quality',
      'Data quality details',
      'Rates',
      'Notes',
    ]);
    // An installed section's table sheet stacks like a built-in one: org_id, month and scope first.
    const weekdays = readWorkbook(file(out, '.xlsx')).Weekdays!;
    expect(weekdays[0]!.slice(0, 4)).toEqual(['org_id', 'month', 'scope', 'weekday']);
    // The month as the date of its first day (shown yyyy-mm); the organization's report.
    expect(weekdays[1]!.slice(0, 3)).toEqual([model.organization.id, '2026-10-01', 'organization']);
  }, 120_000);

  it('the default sections give the report as it always was', async () => {
    const out = tempDir();
    const run = await cli(['monthly', '--month', '2026-10', '--out', out, '--formats', 'json,html,xlsx'], {
      env: envFor(emulator),
    });
    expect(run.code, run.err).toBe(0);
    const model = JSON.parse(readFileSync(file(out, '.json'), 'utf8'));
    expect(model.sections).toBeUndefined();
    expect(validate(model), JSON.stringify(validate.errors?.slice(0, 3))).toBe(true);
    const html = readFileSync(file(out, '.html'), 'utf8');
    const ids = [...html.matchAll(/<section class="section" id="([^"]+)"/g)].map((m) => m[1]);
    expect(ids).toEqual([
      'summary',
      'usage',
      'adoption',
      'behaviour',
      'tools',
      'productivity',
      'readiness',
      'seats',
      'controls',
      'definitions',
      'data-quality',
    ]);
    expect(Object.keys(readWorkbook(file(out, '.xlsx')))).toEqual([
      'Summary',
      // Sections without figures here (no rollup, no store, no directory) write empty tables.
      'Organizations',
      'Trend',
      'Daily',
      'Weekly',
      'Users',
      'User languages',
      'Dormant seats',
      'Models',
      'Tools',
      'MCP spellings',
      'Readiness',
      'Criteria',
      'Teams',
      'Chargeback',
      'Controls',
      'Definitions',
      'Data quality',
      'Data quality details',
      'Rates',
      'Notes',
    ]);
  }, 120_000);

  it('re-renders a snapshot offline with the configured sections (the cover too is a section)', async () => {
    const first = tempDir();
    const run = await cli(['monthly', '--month', '2026-10', '--out', first, '--formats', 'json'], {
      env: envFor(emulator),
    });
    expect(run.code, run.err).toBe(0);
    const out = tempDir();
    const again = await cli(
      [
        'render',
        '--snapshot',
        join(first, 'snapshot'),
        '--out',
        out,
        '--formats',
        'html,xlsx',
        '--sections',
        'tools,cover',
      ],
      { env: envFor(emulator) },
    );
    expect(again.code, again.err).toBe(0);
    const html = readFileSync(file(out, '.html'), 'utf8');
    const ids = [...html.matchAll(/<section class="(section|cover)"(?: id="([^"]+)")?/g)].map(
      (m) => m[2] ?? m[1],
    );
    expect(ids).toEqual(['tools', 'cover']);
    expect(Object.keys(readWorkbook(file(out, '.xlsx')))).toEqual([
      'Models',
      'Tools',
      'MCP spellings',
      'Rates',
      'Notes',
    ]);
  }, 120_000);

  it('refuses a name that is neither a built-in section nor an installed package, before fetching', async () => {
    const run = await cli(
      ['monthly', '--month', '2026-10', '--out', tempDir(), '--sections', 'summary,weather'],
      {
        env: envFor(emulator),
      },
    );
    expect(run.code).toBe(2);
    expect(run.err).toContain('orgreport: sections: "weather" is neither a built-in section');
    expect(run.err).not.toContain('fetch:');
  });
});
