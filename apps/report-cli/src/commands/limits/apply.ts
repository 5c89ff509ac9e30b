/**
 * `orgreport limits apply FILE [--dry-run]`: credit limits from a CSV, JSON or XLSX file of
 * `email,limit` (see `applyLimitsFile` of `@orgreport/pipeline/limits`), each row printed as set or
 * failed. Exit code: 1 when the server refused or did not receive some entries, 2 when only rows of
 * the file were invalid, 0 when nothing failed.
 */
import { applyLimitsFile } from '@orgreport/pipeline/limits';
import type { ConfigFlags } from '../../config/config.ts';
import { type CommandContext, setUp } from '../../context.ts';

export interface LimitsApplyOptions extends ConfigFlags {
  /** The store that records the limits set (or ORGREPORT_STORE / config `store`). */
  store?: string;
  dryRun?: boolean;
}

/** Validates and applies the limits of `file`. */
export async function limitsApply(
  file: string,
  options: LimitsApplyOptions,
  ctx: CommandContext,
): Promise<void> {
  const { config, reporter } = setUp(options, ctx);
  await applyLimitsFile(config, { file, dryRun: options.dryRun }, ctx, reporter, (line) =>
    ctx.io.stdout.write(`${line}\n`),
  );
}
