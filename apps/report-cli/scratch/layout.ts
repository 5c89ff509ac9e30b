import { comparisonPeriod, monthPeriod } from '@orgreport/api-core';
import { createOrganization, directoryOf } from '@orgreport/emulator';
import * as m from '@orgreport/metrics';
import { readPeriod } from '@orgreport/store';
import { renderHtmlPage } from '../../../packages/render/src/html.ts';

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
const t0 = performance.now();
for (const model of models) renderHtmlPage(model);
console.log('layout', ((performance.now() - t0) / models.length).toFixed(1));
