/**
 * Benchmark of issue 6: a 10,000-user model rendered to PDF and XLSX on this machine.
 * Run from packages/render: `npx tsx --conditions=@orgreport/source src/__fixtures__/bench-10k.ts`.
 */
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { renderHtml } from '../html.ts';
import { periodLabel, reportTitle } from '../internal/report-view.ts';
import { createPdfRenderer } from '../pdf.ts';
import { writeWorkbook } from '../workbook/workbook.ts';
import { makeFixtureModel } from './report-model.ts';

const dir = mkdtempSync(join(tmpdir(), 'render-bench-'));
const model = makeFixtureModel({ users: 10_000, pricing: { pricePerCredit: 0.0001, currency: 'EUR' } });
const renderer = await createPdfRenderer({});
try {
  const started = performance.now();
  const html = await renderHtml(model);
  const htmlMs = performance.now() - started;
  const pdf = await renderer.render(html, {
    title: reportTitle(model),
    author: model.organization.name,
    headerText: `${model.organization.name} · ${periodLabel(model)}`,
    footerText: model.organization.name,
  });
  writeFileSync(join(dir, 'report.pdf'), pdf);
  const pdfMs = performance.now() - started;
  await writeWorkbook(model, join(dir, 'report.xlsx'));
  const totalMs = performance.now() - started;
  console.log(
    `10,000 users: HTML ${htmlMs.toFixed(0)} ms, +PDF ${(pdfMs - htmlMs).toFixed(0)} ms (${pdf.length} bytes),` +
      ` +XLSX ${(totalMs - pdfMs).toFixed(0)} ms (${statSync(join(dir, 'report.xlsx')).size} bytes); total ${totalMs.toFixed(0)} ms`,
  );
} finally {
  await renderer.close();
  rmSync(dir, { recursive: true, force: true });
}
