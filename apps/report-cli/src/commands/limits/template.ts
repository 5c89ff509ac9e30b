/**
 * `orgreport limits template --month M --out FILE.xlsx`: a workbook listing each organization user
 * with the month's credits and an empty limit column (see `writeLimitsTemplateFile` of
 * `@orgreport/pipeline/limits`).
 */
import { resolve } from 'node:path';
import { UsageError } from '@orgreport/pipeline/errors';
import { writeLimitsTemplateFile } from '@orgreport/pipeline/limits';
import type { AcquireFlags } from '@orgreport/pipeline/snapshot';
import type { ConfigFlags } from '../../config/config.ts';
import { type CommandContext, setUp } from '../../context.ts';

export interface LimitsTemplateOptions extends ConfigFlags, AcquireFlags {
  out: string;
}

/** Fetches the month and writes the limits template workbook. */
export async function limitsTemplate(options: LimitsTemplateOptions, ctx: CommandContext): Promise<void> {
  const { config, reporter } = setUp(options, ctx);
  const file = resolve(ctx.io.cwd, options.out);
  if (!/\.xlsx$/i.test(file)) throw new UsageError(`--out ${options.out}: expected a .xlsx file name`);
  await writeLimitsTemplateFile(config, options, file, ctx, reporter);
}
