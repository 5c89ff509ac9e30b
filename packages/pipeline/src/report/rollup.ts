/**
 * One report over every organization of a store, from the store alone (`orgreport rollup`): a row
 * per organization (its own report's figures) and their total, then the report's sections over all
 * of them together.
 */
import type { ReportSection } from '@orgreport/metrics';
import type { RunContext } from '../context.ts';
import { loadDirectory } from '../directory/read.ts';
import { checkOutputFolder } from '../output/targets.ts';
import type { Reporter } from '../reporter.ts';
import { requireStore, type Settings } from '../settings.ts';
import { type AcquireFlags, reportPeriod } from '../snapshot/acquire.ts';
import { checkChromium, checkDelivery, checkTemplates } from './checks.ts';
import { type ProduceResult, produceReport, reportFormats } from './produce.ts';
import { loadSections } from './sections.ts';

export interface RollupRequest extends Pick<AcquireFlags, 'month' | 'partial'> {
  /** Attach the workbook to the mail beside the PDF. */
  attachXlsx?: boolean;
}

/** Sections a rollup leaves out: a trend is one organization's history. */
const NOT_IN_A_ROLLUP = new Set(['trend']);

/** The rollup of the month over the store of `config.store`, written and delivered as the settings say. */
export async function rollupReport(
  config: Settings,
  request: RollupRequest,
  ctx: RunContext,
  reporter: Reporter,
): Promise<ProduceResult> {
  const store = requireStore(config);
  const period = reportPeriod(request, config);
  checkDelivery(config);
  const formats = reportFormats(config, request.attachXlsx);
  checkChromium(config, formats);
  await checkTemplates(config);
  await checkOutputFolder(config.outDir, `the output folder ${config.outDir}`);
  const configured = await loadSections(config.sections, ctx.io.cwd);
  const directory = await loadDirectory(config.directory);
  const { BUILTIN_SECTIONS } = await import('@orgreport/metrics');
  const sections: ReportSection[] = configured ?? BUILTIN_SECTIONS.filter((s) => !NOT_IN_A_ROLLUP.has(s.id));
  const { rollupFromStore } = await import('../store/read-rollup.ts');
  const { snapshot, organizations } = await rollupFromStore(store, period, config, reporter);
  return produceReport(snapshot, {
    config,
    reporter,
    ctx,
    includeSnapshot: false,
    formats,
    attachXlsx: request.attachXlsx,
    sections,
    inputs: { organizations, ...(directory && { directory }) },
  });
}
