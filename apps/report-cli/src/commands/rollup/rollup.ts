/**
 * `orgreport rollup --store DIR`: one report over every organization of a store, from the store
 * alone: a row per organization (its own report's figures) and their total.
 */
import { type RollupRequest, rollupReport } from '@orgreport/pipeline/report';
import type { ConfigFlags } from '../../config/config.ts';
import { type CommandContext, setUp } from '../../context.ts';
import { printReportResult } from '../../print/summary.ts';

export interface RollupOptions extends ConfigFlags, RollupRequest {
  json?: boolean;
}

export async function rollup(options: RollupOptions, ctx: CommandContext): Promise<void> {
  const started = performance.now();
  const { config, reporter } = setUp(options, ctx);
  const result = await rollupReport(config, options, ctx, reporter);
  printReportResult('rollup', result, { json: options.json, started, ctx, reporter });
}
