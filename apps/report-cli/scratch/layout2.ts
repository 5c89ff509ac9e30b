import { comparisonPeriod, monthPeriod } from '@orgreport/api-core';
import { createOrganization, directoryOf } from '@orgreport/emulator';
import * as m from '@orgreport/metrics';
import { readPeriod } from '@orgreport/store';
import { createReportEnvironment } from '../../../packages/render/src/internal/handlebars-env.ts';
import { reportCharts } from '../../../packages/render/src/internal/report-charts.ts';
import { reportView } from '../../../packages/render/src/internal/report-view.ts';
import {
  COMPILE_OPTIONS,
  loadTemplates,
  sectionPartials,
} from '../../../packages/render/src/internal/template-compile.ts';

const now = () => new Date('2026-11-22T06:00:00Z');
const period = monthPeriod('2026-10', { now });
const snapshot = await readPeriod('/tmp/s10k', 'org_1fd1f8c4', period, comparisonPeriod(period));
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
const organization = m.buildReportModel(snapshot, {
  generatedAt: now().toISOString(),
  inputs: { directory },
});
const index = m.indexDirectory(directory, snapshot.manifest.fetchedRange, { managers: true });
const people = m.identitiesOf(snapshot, directory);
const models = m
  .scopeNames(index, 'manager')
  .slice(20, 60)
  .map((name) =>
    m.protectModel(
      m.buildReportModel(snapshot, {
        generatedAt: now().toISOString(),
        inputs: { directory },
        scope: { scope: m.resolveScope(index, { kind: 'manager', name }), organization },
      }),
      { policy: { minGroupSize: 5, personRows: 'scope' }, sections: m.BUILTIN_SECTIONS, people },
    ),
  );
const sums: Record<string, number> = {};
const time = <T>(k: string, f: () => T): T => {
  const t = performance.now();
  const r = f();
  sums[k] = (sums[k] ?? 0) + performance.now() - t;
  return r;
};
for (const model of models) {
  const sections = m.resolveSections(undefined);
  const templates = time('load', () => loadTemplates([], sectionPartials(sections)));
  const view = time('view', () => reportView(model));
  const laidOut = sections.flatMap((s) => {
    const data = m.sectionData(view.model, s);
    if (s.compute && data === null) return [];
    return [
      { partial: s.id, organizationContext: false, context: { ...view, section: data, title: s.title } },
    ];
  });
  const charts = time('charts', () => reportCharts(view.model));
  const hb = time('env', () => createReportEnvironment({ charts, fontFaces: '', styles: templates.styles }));
  time('compile+run', () => {
    for (const [name, t] of templates.partials)
      hb.registerPartial(name, hb.compile(t.program, COMPILE_OPTIONS));
    const layout = hb.compile(templates.layout.program, COMPILE_OPTIONS);
    return layout({ ...view, sections: laidOut });
  });
}
for (const [k, v] of Object.entries(sums)) console.log(k, (v / models.length).toFixed(1));
