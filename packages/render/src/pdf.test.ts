import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildReportModel, type ReportModel } from '@orgreport/metrics';
import { sampleSnapshot } from '@orgreport/metrics/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readWithOpenpyxl, records, sheet } from './__fixtures__/openpyxl.ts';
import { HOSTILE_STRINGS, makeFixtureModel } from './__fixtures__/report-model.ts';
import { renderHtml } from './html.ts';
import { periodLabel, reportTitle } from './internal/report-view.ts';
import { createPdfRenderer, type PdfRenderer } from './pdf.ts';
import { writeWorkbook } from './workbook/workbook.ts';

const scratch = mkdtempSync(join(tmpdir(), 'render-pdf-'));
let renderer: PdfRenderer;

beforeAll(async () => {
  renderer = await createPdfRenderer({ executablePath: '/usr/bin/chromium' });
});
afterAll(async () => {
  await renderer?.close();
  rmSync(scratch, { recursive: true, force: true });
});

async function renderPdf(model: ReportModel, name: string): Promise<string> {
  const html = await renderHtml(model);
  const pdf = await renderer.render(html, {
    title: reportTitle(model),
    author: model.organization.name,
    headerText: `${model.organization.name} · ${periodLabel(model)}`,
    footerText: `${model.organization.name} · ${model.period.month}`,
  });
  const file = join(scratch, `${name}.pdf`);
  writeFileSync(file, pdf);
  return file;
}

const pdftotext = (file: string) => execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
const pdfinfo = (file: string) => execFileSync('pdfinfo', [file], { encoding: 'utf8' });

describe('PDF of the sample report', () => {
  const model = buildReportModel(sampleSnapshot(), {
    generatedAt: '2026-04-01T06:00:00Z',
    pricePerCredit: 0.00002,
    currency: 'EUR',
  });

  it('says which Chromium did not start, and what to do, when the binary is not a working browser', async () => {
    await expect(createPdfRenderer({ executablePath: '/bin/false', timeoutMs: 10_000 })).rejects.toThrow(
      /^Chromium at \/bin\/false did not start \(.+\): give a working Chromium or Chrome binary/,
    );
  });

  it('holds the headline figures as the workbook shows them, with metadata, page numbers and embedded fonts', async () => {
    const blockedBefore = renderer.blockedRequests.length;
    const file = await renderPdf(model, 'sample');
    const xlsx = join(scratch, 'sample.xlsx');
    await writeWorkbook(model, xlsx);
    const text = pdftotext(file);

    // Python formats each Summary value under its Excel number format; the PDF must show that text.
    const summary = records(sheet(readWithOpenpyxl(xlsx), 'Summary'));
    const checked = summary.filter((r) => r.value!.text !== null);
    expect(checked.length).toBeGreaterThanOrEqual(20);
    for (const row of checked) expect(text, String(row.id!.value)).toContain(row.value!.text!);
    const credits = summary.find((r) => r.id!.value === 'credits')!;
    expect(credits.value!.text).toMatch(/^\d{1,3}(,\d{3})+$/); // a sample month has over 1,000 credits

    // The Info dictionary is appended as an incremental update: the file must stay structurally valid.
    expect(execFileSync('qpdf', ['--check', file], { encoding: 'utf8' })).toContain(
      'No syntax or stream encoding errors',
    );
    const info = pdfinfo(file);
    const org = model.organization.name;
    expect(info).toContain(`Title:           ${org} — AI coding agent report ${model.period.month}`);
    expect(info).toMatch(new RegExp(`^Author:\\s+${org}$`, 'm'));
    expect(info).toMatch(/^Page size:\s+595\.9\d? x 841\.9\d? pts \(A4\)$/m);
    const pages = Number(/^Pages:\s+(\d+)$/m.exec(info)?.[1]);
    expect(pages).toBeGreaterThan(5);
    expect(text).toContain(`page 1 of ${pages}`);
    expect(text).toContain(`page ${pages} of ${pages}`);
    expect(text).toContain(`${org} · ${model.period.start} to ${model.period.end}`);

    const fonts = execFileSync('pdffonts', [file], { encoding: 'utf8' }).trim().split('\n').slice(2);
    expect(fonts.length).toBeGreaterThan(0);
    for (const line of fonts) expect(line).toMatch(/\byes\s+yes\s+(yes|no)\s+\d+\s+\d+$/); // embedded, subset
    expect(renderer.blockedRequests.length).toBe(blockedBefore);
  });
});

describe('PDF page isolation', () => {
  it('prints each document alone on a page that printed others before (nothing carried over)', async () => {
    const files: string[] = [];
    // More documents than one page prints, two at a time as a distribution does.
    for (let i = 0; i < 60; i += 2) {
      const pair = await Promise.all(
        [i, i + 1].map(async (n) => {
          const pdf = await renderer.render(
            `<html><head><style>p.m${n} { color: #123 }</style></head><body><p class="m${n}">marker-${n}-only</p></body></html>`,
            { title: `doc ${n}`, author: 'test', headerText: 'h', footerText: 'f' },
          );
          const file = join(scratch, `reuse-${n}.pdf`);
          writeFileSync(file, pdf);
          return file;
        }),
      );
      files.push(...pair);
    }
    for (const [n, file] of files.entries()) {
      const markers = pdftotext(file).match(/marker-\d+-only/g);
      expect(markers, file).toEqual([`marker-${n}-only`]);
      expect(pdfinfo(file)).toContain(`Title:           doc ${n}`);
    }
    // 60 documents printed and read back by two tools each: a minute on a loaded machine.
  }, 180_000);

  it('renders hostile data as text with zero external requests', async () => {
    const blockedBefore = renderer.blockedRequests.length;
    const file = await renderPdf(makeFixtureModel({ hostile: true }), 'hostile');
    const text = pdftotext(file);
    expect(text).toContain('<script>window.__pwned=1</script>');
    expect(text).toContain('{{constructor.constructor');
    expect(renderer.blockedRequests.length).toBe(blockedBefore);
    // Chromium embeds the colour emoji font's glyphs as a Type 3 font: the emoji were drawn.
    expect(execFileSync('pdffonts', [file], { encoding: 'utf8' })).toMatch(/Type 3/);
  });

  it('draws emoji in colour with the report style sheet (no missing-glyph boxes)', async () => {
    const dir = join(scratch, 'emoji-templates');
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, 'layout.hbs'),
      '<html><head><style>{{styles}}</style></head><body><p style="font-size:60pt">{{model.organization.name}}</p></body></html>',
    );
    const model = makeFixtureModel();
    model.organization.name = HOSTILE_STRINGS.emoji;
    const html = await renderHtml(model, { templateDirs: [dir], embedFonts: false });
    const pdf = await renderer.render(html, {
      title: 'emoji',
      author: 'test',
      headerText: '',
      footerText: '',
    });
    const file = join(scratch, 'emoji.pdf');
    writeFileSync(file, pdf);
    execFileSync('pdftoppm', ['-r', '20', '-f', '1', '-l', '1', file, join(scratch, 'emoji')]);
    // A binary PPM: "P6\n<w> <h>\n255\n" then RGB bytes. Saturated pixels only come from colour glyphs.
    const ppm = readFileSync(join(scratch, 'emoji-1.ppm'));
    const header = /^P6\s+(\d+)\s+(\d+)\s+255\s/.exec(ppm.subarray(0, 50).toString('latin1'));
    expect(header).not.toBeNull();
    const pixels = ppm.subarray(header![0].length);
    let saturated = 0;
    for (let i = 0; i + 2 < pixels.length; i += 3) {
      const r = pixels[i]!;
      const g = pixels[i + 1]!;
      const b = pixels[i + 2]!;
      if (Math.max(r, g, b) - Math.min(r, g, b) > 80) saturated++;
    }
    expect(saturated).toBeGreaterThan(20);
  });

  it('aborts every request that is not a data: URL and still prints', async () => {
    const blockedBefore = renderer.blockedRequests.length;
    const html =
      '<html><head><link rel="stylesheet" href="http://127.0.0.1:9/x.css"></head>' +
      '<body><p>isolated</p><img src="https://example.invalid/pixel.png"><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw="></body></html>';
    const pdf = await renderer.render(html, {
      title: 'isolation',
      author: 'test',
      headerText: 'h',
      footerText: 'f',
    });
    const blocked = renderer.blockedRequests.slice(blockedBefore);
    expect(blocked).toContain('http://127.0.0.1:9/x.css');
    expect(blocked).toContain('https://example.invalid/pixel.png');
    expect(blocked.some((u) => u.startsWith('data:'))).toBe(false);
    expect(Buffer.from(pdf.subarray(0, 5)).toString()).toBe('%PDF-');
  });
});

describe('PDF renderer', () => {
  it('says when the page is loaded and printing starts, once per document, each printed with scripts off', async () => {
    // A fresh renderer: its first document takes the page it set up at launch, the second a new one.
    const own = await createPdfRenderer({ executablePath: '/usr/bin/chromium' });
    try {
      for (const name of ['first', 'second']) {
        const steps: string[] = [];
        const printing = own
          .render(
            `<p id="t">${name}</p><script>document.getElementById('t').textContent = 'script ran'</script>`,
            { title: name, author: 'test', headerText: '', footerText: '' },
            { onLoaded: () => steps.push('loaded') },
          )
          .then((bytes) => {
            steps.push('printed');
            return bytes;
          });
        const file = join(scratch, `events-${name}.pdf`);
        writeFileSync(file, await printing);
        expect(steps).toEqual(['loaded', 'printed']);
        expect(pdftotext(file)).toContain(name);
        expect(pdftotext(file)).not.toContain('script ran');
      }
    } finally {
      await own.close();
    }
  });
});
