/** A month's report: from a fetch, a store or a snapshot, for the organization or a scope; the rollup. */
export * from './checks.ts';
export * from './monthly.ts';
export * from './prepare.ts';
export * from './produce.ts';
export * from './render-snapshot.ts';
export * from './rollup.ts';
export * from './sections.ts';
export * from './write-report.ts';
