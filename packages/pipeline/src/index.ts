/**
 * `@orgreport/pipeline`: what each `orgreport` command does, as functions a program can call.
 */
export * from './context.ts';
export * from './errors.ts';
export * from './reporter.ts';
export * from './settings.ts';
