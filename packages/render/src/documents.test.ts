import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BUILTIN_SECTIONS, type ReportModel } from '@orgreport/metrics';
import { afterAll, describe, expect, it } from 'vitest';
import { makeFixtureModel } from './__fixtures__/report-model.ts';
import { blockedRequestsWarning, documentFormats, registerFormat, renderDocuments } from './documents.ts';
import { localFontFaceCss } from './fonts.ts';
import type { PdfRenderer } from './pdf.ts';
import type { RenderThread } from './render-thread.ts';

// Each test writes into a folder of its own under one scratch folder, removed at the end.
const scratch = mkdtempSync(join(tmpdir(), 'orgreport-documents-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

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
    const dir = mkdtempSync(join(scratch, 'case-'));
    const model = makeFixtureModel();
    const events: string[] = [];
    const { warnings, model: written } = await renderDocuments(model, {
      formats: ['html', 'json'],
      file: (f) => join(dir, `report.${f.extension}`),
      onProgress: (e) => events.push(`${e.format} ${e.phase}`),
    });
    expect(warnings).toEqual([]);
    // The organization report's readers see every row: the model as it was, with its privacy rules stated.
    expect({ ...written, privacy: undefined, definitions: model.definitions }).toEqual({
      ...model,
      privacy: undefined,
    });
    expect(written.privacy).toEqual({
      minGroupSize: 5,
      personRows: 'all',
      pseudonymized: false,
      suppressed: [],
    });
    // Started in registration order, written side by side: each is done after it started.
    expect(events.filter((e) => e.endsWith('start'))).toEqual(['json start', 'html start']);
    expect(events.indexOf('json done')).toBeGreaterThan(events.indexOf('json start'));
    expect(events.indexOf('html done')).toBeGreaterThan(events.indexOf('html start'));
    expect([...events].sort()).toEqual(['html done', 'html start', 'json done', 'json start']);
    expect(JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8'))).toEqual(written);
    expect(readFileSync(join(dir, 'report.html'), 'utf8')).toContain(
      '<section class="section" id="summary">',
    );
  });

  it('takes formats registered by name, and names the registered ones for an unknown format', async () => {
    const dir = mkdtempSync(join(scratch, 'case-'));
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

  it('starts the other formats once the PDF page is loaded in Chromium, so that they are written while it prints', async () => {
    const dir = mkdtempSync(join(scratch, 'case-'));
    const events: string[] = [];
    const pause = () => new Promise((resolve) => setTimeout(resolve, 30));
    const chromium: PdfRenderer = {
      blockedRequests: [],
      async render(_html, _doc, on = {}) {
        await pause(); // setting the page up
        events.push('pdf loaded');
        on.onLoaded?.();
        await pause(); // printing
        return new TextEncoder().encode('%PDF-1.7 printed');
      },
      async close() {},
    };
    await renderDocuments(makeFixtureModel(), {
      formats: ['json', 'html', 'pdf'],
      file: (f) => join(dir, `report.${f.extension}`),
      pdfRenderer: async () => chromium,
      onProgress: (e) => events.push(`${e.format} ${e.phase}`),
    });
    expect(events.slice(0, 2)).toEqual(['pdf start', 'pdf loaded']);
    for (const format of ['json', 'html']) {
      expect(events.indexOf(`${format} start`)).toBeGreaterThan(events.indexOf('pdf loaded'));
    }
    // Side by side: the JSON starts before the PDF is printed.
    expect(events.indexOf('json start')).toBeLessThan(events.indexOf('pdf done'));
    expect(readFileSync(join(dir, 'report.pdf'), 'utf8')).toBe('%PDF-1.7 printed');
  });

  it("fails with the PDF's error when Chromium fails before the page is loaded, the other formats not left waiting", async () => {
    const dir = mkdtempSync(join(scratch, 'case-'));
    const crashed: PdfRenderer = {
      blockedRequests: [],
      render: async () => {
        throw new Error('Chromium crashed');
      },
      async close() {},
    };
    const events: string[] = [];
    await expect(
      renderDocuments(makeFixtureModel(), {
        formats: ['json', 'pdf'],
        file: (f) => join(dir, `report.${f.extension}`),
        pdfRenderer: async () => crashed,
        onProgress: (e) => events.push(`${e.format} ${e.phase}`),
      }),
    ).rejects.toThrow('Chromium crashed');
    expect(events).toContain('json start');
  });

  it("writes the workbook on the caller's thread at once, not waiting for the PDF's page; other packages' sections on this thread", async () => {
    const dir = mkdtempSync(join(scratch, 'case-'));
    const events: string[] = [];
    const sent: Array<{ model: ReportModel; file: string }> = [];
    const thread: RenderThread = {
      render(model, work) {
        return work.workbook === undefined ? {} : { workbook: thread.write(model, work.workbook) };
      },
      async write(model, file) {
        sent.push({ model, file });
        await writeFile(file, 'written by the thread');
      },
      async close() {},
    };
    const chromium: PdfRenderer = {
      blockedRequests: [],
      async render(_html, _doc, on = {}) {
        await new Promise((resolve) => setTimeout(resolve, 30));
        events.push('pdf loaded');
        on.onLoaded?.();
        return new TextEncoder().encode('%PDF-1.7 printed');
      },
      async close() {},
    };
    const { model } = await renderDocuments(makeFixtureModel(), {
      formats: ['pdf', 'xlsx'],
      file: (f) => join(dir, `report.${f.extension}`),
      pdfRenderer: async () => chromium,
      renderThread: () => thread,
      onProgress: (e) => events.push(`${e.format} ${e.phase}`),
    });
    // The model every format reads (privacy applied) goes to the thread, which starts before the page is loaded.
    expect(sent).toEqual([{ model, file: join(dir, 'report.xlsx') }]);
    expect(events.indexOf('xlsx start')).toBeLessThan(events.indexOf('pdf loaded'));
    expect(readFileSync(join(dir, 'report.xlsx'), 'utf8')).toBe('written by the thread');

    // The functions of sections cannot cross to a thread: the workbook of chosen sections is written here.
    const own = mkdtempSync(join(scratch, 'case-'));
    await renderDocuments(makeFixtureModel(), {
      formats: ['xlsx'],
      file: (f) => join(own, `report.${f.extension}`),
      sections: BUILTIN_SECTIONS,
      renderThread: () => thread,
    });
    expect(sent).toHaveLength(1);
    expect(existsSync(join(own, 'report.xlsx'))).toBe(true);
    expect(readFileSync(join(own, 'report.xlsx')).subarray(0, 2).toString()).toBe('PK');
  });

  it('writes the JSON at once while the render thread lays out the page; the HTML waits for the PDF as before', async () => {
    const events: string[] = [];
    const thread: RenderThread = {
      render: (_model, work) => ({
        ...(work.page && {
          page: new Promise<string>((resolve) =>
            setTimeout(() => {
              events.push('page laid out');
              resolve('<style>/* orgreport:font-faces */</style><p>page</p>');
            }, 30),
          ),
        }),
      }),
      write: async () => {},
      async close() {},
    };
    const chromium: PdfRenderer = {
      blockedRequests: [],
      async render(_page, _doc, on = {}) {
        events.push('pdf loaded');
        on.onLoaded?.();
        return new TextEncoder().encode('%PDF-1.7 printed');
      },
      async close() {},
    };
    const dir = mkdtempSync(join(scratch, 'case-'));
    await renderDocuments(makeFixtureModel(), {
      formats: ['json', 'html', 'pdf'],
      file: (f) => join(dir, `report.${f.extension}`),
      pdfRenderer: async () => chromium,
      renderThread: () => thread,
      onProgress: (e) => events.push(`${e.format} ${e.phase}`),
    });
    expect(events.indexOf('json done')).toBeLessThan(events.indexOf('page laid out'));
    expect(events.indexOf('html start')).toBeGreaterThan(events.indexOf('pdf loaded'));
    expect(JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')).organization).toEqual(
      makeFixtureModel().organization,
    );

    // Laid out on this thread (no render thread), the JSON waits for the PDF's page as the others do.
    events.length = 0;
    await renderDocuments(makeFixtureModel(), {
      formats: ['json', 'pdf'],
      file: (f) => join(dir, `report.${f.extension}`),
      pdfRenderer: async () => chromium,
      onProgress: (e) => events.push(`${e.format} ${e.phase}`),
    });
    expect(events.indexOf('json start')).toBeGreaterThan(events.indexOf('pdf loaded'));
  });

  it('lays out the page on the render thread for the built-in templates, and on this thread for others', async () => {
    const asked: string[][] = [];
    const thread: RenderThread = {
      render(_model, work) {
        asked.push(Object.keys(work).sort());
        return {
          ...(work.page && {
            page: Promise.resolve('<style>/* orgreport:font-faces */</style><p>page of the thread</p>'),
          }),
          ...(work.workbook !== undefined && {
            workbook: writeFile(work.workbook, 'workbook of the thread'),
          }),
        };
      },
      write: (_model, file) => writeFile(file, 'workbook of the thread'),
      async close() {},
    };
    const printed: string[] = [];
    const chromium: PdfRenderer = {
      blockedRequests: [],
      async render(page, _doc, on = {}) {
        printed.push(page);
        on.onLoaded?.();
        return new TextEncoder().encode('%PDF-1.7 printed');
      },
      async close() {},
    };
    const dir = mkdtempSync(join(scratch, 'case-'));
    await renderDocuments(makeFixtureModel(), {
      formats: ['json', 'html', 'pdf', 'xlsx'],
      file: (f) => join(dir, `report.${f.extension}`),
      pdfRenderer: async () => chromium,
      renderThread: () => thread,
    });
    // The page once, its fonts filled in here: the system's for Chromium, embedded in the HTML file.
    expect(asked).toEqual([['page', 'workbook']]);
    expect(printed).toEqual([`<style>${localFontFaceCss()}</style><p>page of the thread</p>`]);
    const htmlFile = readFileSync(join(dir, 'report.html'), 'utf8');
    expect(htmlFile).toMatch(/^<style>@font-face \{.*font\/woff.*<\/style><p>page of the thread<\/p>$/s);
    expect(readFileSync(join(dir, 'report.xlsx'), 'utf8')).toBe('workbook of the thread');

    // A template directory's page is laid out here (the thread knows the built-in templates only).
    const own = mkdtempSync(join(scratch, 'case-'));
    await renderDocuments(makeFixtureModel(), {
      formats: ['html', 'pdf', 'xlsx'],
      file: (f) => join(own, `report.${f.extension}`),
      pdfRenderer: async () => chromium,
      renderThread: () => thread,
      templateDirs: [mkdtempSync(join(scratch, 'templates-'))],
    });
    expect(asked[1]).toEqual(['workbook']);
    expect(printed[1]).toContain('<!DOCTYPE html>');
    expect(readFileSync(join(own, 'report.html'), 'utf8')).toContain(makeFixtureModel().organization.name);
  });
});
