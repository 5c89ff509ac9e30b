import { comparisonPeriod, monthPeriod } from '@orgreport/api-core';
import { createOrganization, directoryOf } from '@orgreport/emulator';
import * as m from '@orgreport/metrics';
import { createPdfRenderer } from '@orgreport/render';
import { renderDocuments } from '@orgreport/render/documents';
import { readPeriod } from '@orgreport/store';
import { renderHtmlPage, withFonts } from '../../../packages/render/src/html.ts';

const now = () => new Date('2026-11-22T06:00:00Z');
const period = monthPeriod('2026-10', { now });
const t = (label: string, t0: number) => console.log(label, Math.round(performance.now() - t0), 'ms');
let t0 = performance.now();
const snapshot = await readPeriod('/tmp/s10k', 'org_1fd1f8c4', period, comparisonPeriod(period));
t('read', t0);
const org = createOrganization({ seed: 1, users: 10000, today: '2026-11-22' });
const directory: m.PeopleDirectory = {
  source: 'x',
  people: directoryOf(org).map((e) => ({
    email: e.email,
    team: e.team,
    costCenter: e.costCenter,
    manager: e.manager || null,
    repositories: e.repositories.split(';').filter(Boolean),
    attributes: {},
    validFrom: e.validFrom || null,
  })),
};
t0 = performance.now();
const organization = m.buildReportModel(snapshot, {
  generatedAt: now().toISOString(),
  inputs: { directory },
});
t('org model', t0);
t0 = performance.now();
const index = m.indexDirectory(directory, snapshot.manifest.fetchedRange, { managers: true });
const managers = m.scopeNames(index, 'manager');
t(`index (${managers.length} managers)`, t0);
const people = m.identitiesOf(snapshot, directory);
const pdf = await createPdfRenderer();
const sample = managers.slice(20, 40);
const sums: Record<string, number> = {};
const add = (k: string, v: number) => (sums[k] = (sums[k] ?? 0) + v);
for (const name of sample) {
  let t1 = performance.now();
  const scope = m.resolveScope(index, { kind: 'manager', name });
  add('resolve', performance.now() - t1);
  t1 = performance.now();
  const model = m.buildReportModel(snapshot, {
    generatedAt: now().toISOString(),
    inputs: { directory },
    scope: { scope, organization },
  });
  add('model', performance.now() - t1);
  t1 = performance.now();
  const safe = m.protectModel(model, {
    policy: { minGroupSize: 5, personRows: 'scope' },
    sections: m.BUILTIN_SECTIONS,
    people,
  });
  add('protect', performance.now() - t1);
  t1 = performance.now();
  const page = renderHtmlPage(safe);
  add('layout', performance.now() - t1);
  t1 = performance.now();
  const html = await withFonts(page, 'local');
  add('fonts', performance.now() - t1);
  t1 = performance.now();
  const bytes = await pdf.render(html, { title: 'x', author: 'x', headerText: 'x', footerText: 'y' });
  add('pdf', performance.now() - t1);
  add('pdfKB', bytes.length / 1024);
}
await pdf.close();
for (const [k, v] of Object.entries(sums)) console.log(k, (v / sample.length).toFixed(1));
