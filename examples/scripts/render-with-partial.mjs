// Renders a snapshot's report as HTML with one partial overridden: a template folder holding
// `partials/summary.hbs` replaces the built-in summary; every other file stays built in.
//
//   node render-with-partial.mjs <snapshot-folder> <out.html>
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { buildReportModel } from '@orgreport/metrics';
import { renderHtml } from '@orgreport/render';
import { readSnapshot } from '@orgreport/snapshot';

const [folder, out] = process.argv.slice(2);
if (!folder || !out) {
  console.error('usage: node render-with-partial.mjs <snapshot-folder> <out.html>');
  process.exit(2);
}
const templates = fileURLToPath(new URL('../templates', import.meta.url));
const model = buildReportModel(await readSnapshot(folder), { generatedAt: '2026-11-22T06:00:00.000Z' });
const html = await renderHtml(model, { templateDirs: [templates], embedFonts: false });
await writeFile(out, html);
console.log(`wrote ${out} (${html.length} characters) with the summary partial of ${templates}`);
