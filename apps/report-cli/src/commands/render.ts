/** `orgreport render --snapshot DIR`: re-render a past month from its snapshot, offline and without a key. */
import { resolve } from 'node:path';
import { loadDirectory } from '@orgreport/pipeline/directory';
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
import { readSnapshot } from '@orgreport/snapshot';
import type { ConfigFlags } from '../config/config.ts';
import { type CommandContext, setUp } from '../context.ts';

export interface RenderOptions extends ConfigFlags {
  /** The snapshot directory to read. */
  snapshot: string;
  attachXlsx?: boolean;
  /** Print one JSON summary on stdout instead of the text summary. */
  json?: boolean;
}

/** Reads the snapshot, then computes, renders and delivers exactly as `monthly` would. */
export async function render(options: RenderOptions, ctx: CommandContext): Promise<void> {
  const started = performance.now();
  const { config, reporter } = setUp(options, ctx);
  checkDelivery(config);
  const formats = reportFormats(config, options.attachXlsx);
  checkChromium(config, formats);
  await checkTemplates(config);
  const sections = await loadSections(config.sections, ctx.io.cwd); // a wrong name fails before any work
  const directory = await loadDirectory(config.directory);
  const stage = reporter.stage('snapshot');
  const snapshot = await readSnapshot(resolve(ctx.io.cwd, options.snapshot));
  const m = snapshot.manifest;
  stage.done(
    `${m.organization.name} ${m.period.month}, fetched ${m.fetchedAt}, ${snapshot.userDays.user_id.length} user-day rows`,
  );
  if (config.organizationName) snapshot.manifest.organization.name = config.organizationName;
  const result = await produceReport(snapshot, {
    config,
    reporter,
    ctx,
    includeSnapshot: false,
    formats,
    attachXlsx: options.attachXlsx,
    ...(sections && { sections }),
    ...(directory && { inputs: { directory } }),
  });
  if (options.json) ctx.io.stdout.write(reportSummary('render', result, started));
  else if (reporter.enabled('info'))
    ctx.io.stdout.write(
      summary(result.files, started, result.mailedTo, result.warnings, result.alreadyDelivered),
    );
}
