/**
 * `@orgreport/cli`: the `orgreport` command (see {@link run}). What each command does is a function
 * of `@orgreport/pipeline`; this package holds the flags, the settings' resolution and the printing.
 */

export { AuthError, CliError, EXIT, type ExitCode, UsageError } from '@orgreport/pipeline/errors';
export { run } from './cli.ts';
export {
  type Config,
  type ConfigFlags,
  REPORT_FORMATS,
  type ReportFormat,
  resolveConfig,
} from './config/config.ts';
export type { CliIo, TextOut } from './io.ts';
export { createProgram } from './program.ts';
