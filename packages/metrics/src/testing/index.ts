/**
 * `@orgreport/metrics/testing`: hand-made snapshots for tests and the deterministic sample snapshot
 * other packages use to produce a realistic report model.
 */
export { sampleSnapshot } from './sample-snapshot.ts';
export * from './snapshot-builder.ts';
