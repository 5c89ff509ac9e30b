/** `orgreport render --snapshot DIR`: re-render a past month from its snapshot, offline and without a key. */
import { type RenderRequest, renderSnapshotReport } from '@orgreport/pipeline/report';
import type { ConfigFlags } from '../../config/config.ts';
import { type CommandContext, setUp } from '../../context.ts';
import { printReportResult } from '../../print/summary.ts';

export interface RenderOptions extends ConfigFlags, RenderRequest {
  /** Print one JSON summary on stdout instead of the text summary. */
  json?: boolean;
}

/** Reads the snapshot, then computes, renders and delivers exactly as `monthly` would. */
export async function render(options: RenderOptions, ctx: CommandContext): Promise<void> {
  const started = performance.now();
  const { config, reporter } = setUp(options, ctx);
  const result = await renderSnapshotReport(config, options, ctx, reporter);
  printReportResult('render', result, { json: options.json, started, ctx, reporter });
}
