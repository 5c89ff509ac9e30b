/** `orgreport monthly`: fetch -> snapshot -> compute -> render -> deliver, for one month. */
import { type MonthlyRequest, produceMonthlyReports } from '@orgreport/pipeline/report';
import type { ConfigFlags } from '../../config/config.ts';
import { type CommandContext, setUp } from '../../context.ts';
import { printReportResult } from '../../print/summary.ts';

export interface MonthlyOptions extends ConfigFlags, MonthlyRequest {
  /** Print one JSON summary on stdout instead of the text summary. */
  json?: boolean;
}

/** Produces the monthly report of `--month` (default the last complete month) in `--out`. */
export async function monthly(options: MonthlyOptions, ctx: CommandContext): Promise<void> {
  const started = performance.now();
  const { config, reporter } = setUp(options, ctx);
  await produceMonthlyReports(config, options, ctx, reporter, (result) =>
    printReportResult('monthly', result, { json: options.json, started, ctx, reporter }),
  );
}
