import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeFixtureModel } from './__fixtures__/report-model.ts';
import { blockedRequestsWarning, documentFormats, registerFormat, renderDocuments } from './documents.ts';

describe('blockedRequestsWarning', () => {
  it('counts every blocked request and names the first three, each cut to a readable length', () => {
    const long = `http://x.example/${'a'.repeat(200)}`;
    const text = blockedRequestsWarning([
      'http://a.example/1',
      long,
      'https://b.example/font.woff',
      'http://c/',
    ]);
    expect(text).toMatch(/^the PDF page tried 4 outside request\(s\), all blocked/);
    expect(text).toContain('"http://a.example/1"');
    expect(text).toContain(`"${long.slice(0, 120)}..."`);
    expect(text).not.toContain(long);
    expect(text).not.toContain('http://c/');
    expect(text.endsWith(' and 1 more')).toBe(true);
  });
});

describe('renderDocuments', () => {
  it('writes each chosen format to the file named for it, starting them in registration order, with progress', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'orgreport-documents-'));
    const model = makeFixtureModel();
    const events: string[] = [];
    const { warnings } = await renderDocuments(model, {
      formats: ['html', 'json'],
      file: (f) => join(dir, `report.${f.extension}`),
      onProgress: (e) => events.push(`${e.format} ${e.phase}`),
    });
    expect(warnings).toEqual([]);
    // Started in registration order, written side by side: each is done after it started.
    expect(events.filter((e) => e.endsWith('start'))).toEqual(['json start', 'html start']);
    expect(events.indexOf('json done')).toBeGreaterThan(events.indexOf('json start'));
    expect(events.indexOf('html done')).toBeGreaterThan(events.indexOf('html start'));
    expect([...events].sort()).toEqual(['html done', 'html start', 'json done', 'json start']);
    expect(JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8'))).toEqual(model);
    expect(readFileSync(join(dir, 'report.html'), 'utf8')).toContain(
      '<section class="section" id="summary">',
    );
  });

  it('takes formats registered by name, and names the registered ones for an unknown format', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'orgreport-documents-'));
    registerFormat({
      name: 'csv-figures',
      extension: 'csv',
      write: async (file, { model }) => {
        const { writeFile } = await import('node:fs/promises');
        await writeFile(file, model.figures.map((f) => `${f.id},${f.value ?? ''}`).join('\n'));
      },
    });
    expect(documentFormats()).toEqual(['json', 'html', 'pdf', 'xlsx', 'csv-figures']);
    const model = makeFixtureModel();
    await renderDocuments(model, { formats: ['csv-figures'], file: (f) => join(dir, `r.${f.extension}`) });
    expect(readFileSync(join(dir, 'r.csv'), 'utf8').split('\n')[0]).toBe(
      `credits,${model.figures[0]!.value}`,
    );
    await expect(renderDocuments(model, { formats: ['docx'], file: () => join(dir, 'x') })).rejects.toThrow(
      'unknown format(s) docx: registered are json, html, pdf, xlsx, csv-figures',
    );
  });
});
