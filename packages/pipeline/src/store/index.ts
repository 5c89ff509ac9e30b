/** The store's side of a run: syncing into it, its sync records, the month and the rollup read from it. */

export * from './read-month.ts';
export * from './read-rollup.ts';
export * from './sync-organizations.ts';
export * from './sync-runs.ts';
export * from './sync-store.ts';
