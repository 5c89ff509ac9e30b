/**
 * `orgreport rollup --store DIR`: one report over every organization of a store, from the store
 * alone: a row per organization (its own report's figures) and their total, then the report's
 * sections over all of them together.
 */
import type { ReportSection } from '@orgreport/metrics';
import { loadDirectory } from '@orgreport/pipeline/directory';
import { UsageError } from '@orgreport/pipeline/errors';
import {
  checkChromium,
  checkDelivery,
  checkTemplates,
  loadSections,
  produceReport,
  reportFormats,
  reportSummary,
  summary,
} from '@orgreport/pipeline/report';
import { type AcquireFlags, reportPeriod } from '@orgreport/pipeline/snapshot';
import type { ConfigFlags } from '../config/config.ts';
import { type CommandContext, setUp } from '../context.ts';

export interface RollupOptions extends ConfigFlags, Pick<AcquireFlags, 'month' | 'partial'> {
  attachXlsx?: boolean;
  json?: boolean;
}

/** Sections a rollup leaves out: a trend is one organization's history. */
const NOT_IN_A_ROLLUP = new Set(['trend']);

export async function rollup(options: RollupOptions, ctx: CommandContext): Promise<void> {
  const started = performance.now();
  const { config, reporter } = setUp(options, ctx);
  if (!config.store) {
    throw new UsageError('no store: give --store DIR (or ORGREPORT_STORE, or "store" in the config file)');
  }
  const period = reportPeriod(options, config);
  checkDelivery(config);
  const formats = reportFormats(config, options.attachXlsx);
  checkChromium(config, formats);
  await checkTemplates(config);
  const configured = await loadSections(config.sections, ctx.io.cwd);
  const directory = await loadDirectory(config.directory);
  const { BUILTIN_SECTIONS } = await import('@orgreport/metrics');
  const sections: ReportSection[] = configured ?? BUILTIN_SECTIONS.filter((s) => !NOT_IN_A_ROLLUP.has(s.id));
  const { rollupFromStore } = await import('@orgreport/pipeline/store');
  const { snapshot, organizations } = await rollupFromStore(config.store, period, config, reporter);
  const result = await produceReport(snapshot, {
    config,
    reporter,
    ctx,
    includeSnapshot: false,
    formats,
    attachXlsx: options.attachXlsx,
    sections,
    inputs: { organizations, ...(directory && { directory }) },
  });
  if (options.json) ctx.io.stdout.write(reportSummary('rollup', result, started));
  else if (reporter.enabled('info'))
    ctx.io.stdout.write(
      summary(result.files, started, result.mailedTo, result.warnings, result.alreadyDelivered),
    );
}
