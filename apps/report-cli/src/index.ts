/**
 * `@orgreport/cli`: the `orgreport` command (see {@link run}) and the snapshot stage other tools reuse.
 */
export { run } from './cli.ts';
export {
  type Config,
  type ConfigFlags,
  REPORT_FORMATS,
  type ReportFormat,
  resolveConfig,
} from './config/config.ts';
export { AuthError, CliError, EXIT, type ExitCode, UsageError } from './errors.ts';
export type { CliIo, TextOut } from './io.ts';
export { createProgram } from './program.ts';
export { type RenderWarmup, warmUpRendering } from './report/warmup.ts';
export {
  type FetchProgress,
  type FetchSnapshotOptions,
  fetchedRangeOf,
  fetchSnapshot,
} from './snapshot/fetch.ts';
export { readSnapshot, SnapshotError, writeSnapshot } from './snapshot/store.ts';
