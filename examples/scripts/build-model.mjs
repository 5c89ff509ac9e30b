// Builds the report model of a snapshot folder (see fetch-month.mjs) and prints the headline figures.
//
//   node build-model.mjs <snapshot-folder>
import { buildReportModel } from '@orgreport/metrics';
import { readSnapshot } from '@orgreport/snapshot';

const folder = process.argv[2];
if (!folder) {
  console.error('usage: node build-model.mjs <snapshot-folder>');
  process.exit(2);
}
const snapshot = await readSnapshot(folder);
const model = buildReportModel(snapshot, {
  generatedAt: '2026-11-22T06:00:00.000Z',
  pricePerCredit: 0.00002,
  currency: 'EUR',
});
for (const figure of model.figures) {
  console.log(`${figure.id}\t${figure.value ?? 'n/a'}\t${figure.previous ?? 'n/a'}`);
}
