/** A past month's report again, from its snapshot folder: offline, without a key (`orgreport render`). */
import { resolve } from 'node:path';
import { userDayRowCount } from '@orgreport/api-core';
import { readSnapshot } from '@orgreport/snapshot';
import type { RunContext } from '../context.ts';
import { demoDirectory, withDemoPrices } from '../demo.ts';
import { loadDirectory } from '../directory/read.ts';
import { checkOutputFolder } from '../output/targets.ts';
import type { Reporter } from '../reporter.ts';
import type { Settings } from '../settings.ts';
import { checkChromium, checkDelivery, checkTemplates } from './checks.ts';
import { type ProduceResult, produceReport, reportFormats } from './produce.ts';
import { loadSections } from './sections.ts';

export interface RenderRequest {
  /** The snapshot folder to read (written by a monthly report or a fetch), relative to the working folder. */
  snapshot: string;
  /** Attach the workbook to the mail beside the PDF. */
  attachXlsx?: boolean;
}

/** Reads the snapshot, then computes, renders and delivers exactly as a monthly report would. */
export async function renderSnapshotReport(
  configured: Settings,
  request: RenderRequest,
  ctx: RunContext,
  reporter: Reporter,
): Promise<ProduceResult> {
  let config = configured;
  checkDelivery(config);
  const formats = reportFormats(config, request.attachXlsx);
  checkChromium(config, formats);
  await checkTemplates(config);
  await checkOutputFolder(config.outDir, `the output folder ${config.outDir}`);
  const sections = await loadSections(config.sections, ctx.io.cwd); // a wrong name fails before any work
  let directory = await loadDirectory(config.directory);
  const stage = reporter.stage('snapshot');
  const snapshot = await readSnapshot(resolve(ctx.io.cwd, request.snapshot));
  const m = snapshot.manifest;
  stage.done(
    `${m.organization.name} ${m.period.month}, fetched ${m.fetchedAt}, ${userDayRowCount(snapshot.userDays)} user-day rows`,
  );
  // The demo's report had the demo's prices and directory (unless given): so has the report made again.
  if (m.demo) {
    config = withDemoPrices(config);
    directory ??= await demoDirectory(m.demo.users, m.demo.today);
    reporter.info(
      `the demo organization's snapshot: with the demo's prices and directory, as monthly --demo made it`,
    );
  }
  if (config.organizationName) snapshot.manifest.organization.name = config.organizationName;
  return produceReport(snapshot, {
    config,
    reporter,
    ctx,
    includeSnapshot: false,
    formats,
    attachXlsx: request.attachXlsx,
    ...(sections && { sections }),
    ...(directory && { inputs: { directory } }),
  });
}
