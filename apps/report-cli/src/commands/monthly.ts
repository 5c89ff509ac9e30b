/** `orgreport monthly`: fetch -> snapshot -> compute -> render -> deliver, for one month. */

import { warmUpRendering } from '@orgreport/render/warmup';
import type { ConfigFlags } from '../config/config.ts';
import { type CommandContext, setUp } from '../context.ts';
import { checkChromium, checkDelivery, checkTemplates, reportSummary, summary } from '../report/checks.ts';
import { type ProduceResult, produceReport, reportFormats } from '../report/produce.ts';
import { loadSections } from '../report/sections.ts';
import { type AcquireFlags, acquireSnapshot, reportPeriod } from '../snapshot/acquire.ts';

export interface MonthlyOptions extends ConfigFlags, AcquireFlags {
  attachXlsx?: boolean;
  /** Print one JSON summary on stdout instead of the text summary. */
  json?: boolean;
}

/** Produces the monthly report of `--month` (default the last complete month) in `--out`. */
export async function monthly(options: MonthlyOptions, ctx: CommandContext): Promise<void> {
  const started = performance.now();
  const { config, reporter } = setUp(options, ctx);
  reportPeriod(options, config); // a bad month fails before anything starts
  checkDelivery(config);
  const formats = reportFormats(config, options.attachXlsx);
  checkChromium(config, formats);
  await checkTemplates(config); // a broken template fails before anything is fetched
  const sections = await loadSections(config.sections, ctx.io.cwd); // so does a wrong section
  // The renderer loads and Chromium starts while the month is fetched.
  const warmup = warmUpRendering(formats, { executablePath: config.chromium });
  let result: ProduceResult;
  try {
    const snapshot = await acquireSnapshot(options, config, reporter, ctx);
    result = await produceReport(snapshot, {
      config,
      reporter,
      includeSnapshot: true,
      formats,
      attachXlsx: options.attachXlsx,
      ...(sections && { sections }),
      warmup,
    });
  } finally {
    await warmup.close();
  }
  if (options.json) ctx.io.stdout.write(reportSummary('monthly', result, started));
  else if (reporter.enabled('info'))
    ctx.io.stdout.write(summary(result.files, started, result.mailedTo, result.warnings));
}
