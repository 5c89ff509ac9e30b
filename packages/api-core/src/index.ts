export * from './dates.ts';
