/** A month distributed: the plan resolved into readers and reports, each delivered exactly once. */

export * from './distribute-month.ts';
export * from './plan-schema.ts';
export * from './resolve-plan.ts';
