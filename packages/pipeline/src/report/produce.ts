/**
 * From a snapshot to delivered files: compute the report model, render the chosen formats into an
 * {@link OutputSet} (so they appear together or not at all), then mail them when asked.
 * Metrics and the renderer (Puppeteer, ExcelJS) are loaded only here or by a {@link RenderWarmup}.
 */
import type { Snapshot } from '@orgreport/api-core';
import type {
  PersonRows,
  ReportModel,
  ReportOptions,
  ReportSection,
  ResolvedScope,
  SectionInputs,
} from '@orgreport/metrics';
import type { DocumentReader } from '@orgreport/render/documents';
import { type RenderWarmup, warmUpRendering } from '@orgreport/render/warmup';
import { writeSnapshot } from '@orgreport/snapshot';
import type { RunContext } from '../context.ts';
import { isEmailTarget, normalTarget, reportMessage, sendDeliveries } from '../deliver/send-reports.ts';
import { type CommittedOutput, OutputSet } from '../output/atomic.ts';
import { fileSlug } from '../output/slug.ts';
import type { Reporter } from '../reporter.ts';
import {
  type DeliverySettings,
  REPORT_FORMATS,
  type ReportFormat,
  type ReportSettings,
  type Settings,
} from '../settings.ts';
import { chromiumOf } from './checks.ts';
import { writeReport } from './write-report.ts';

export interface ProduceOptions {
  config: Settings;
  reporter: Reporter;
  /** Also write the snapshot as `<out>/snapshot` (monthly does; render from a snapshot does not). */
  includeSnapshot: boolean;
  /** The formats to render: {@link reportFormats} of the run (checked by the caller before any work). */
  formats: ReadonlySet<ReportFormat>;
  /** Attach the workbook to the mail as well as the PDF. */
  attachXlsx?: boolean;
  /**
   * The renderer and Chromium, started by the caller before it fetched (see {@link warmUpRendering}
   * and {@link reportFormats}); the caller closes it. Without one, the report starts its own.
   */
  warmup?: RenderWarmup;
  /** The report's sections in order (see loadSections); undefined: the built-in ones. */
  sections?: ReadonlyArray<ReportSection>;
  /** Further inputs of the sections (the store's history of months for the trend). */
  inputs?: SectionInputs;
  /** A report for a set of people, and the organization's model it is compared with. */
  scope?: { scope: ResolvedScope; organization: ReportModel };
  /** Who reads the documents (privacy); default: the organization report's named readers. */
  reader?: DocumentReader;
  /** The command's context, for delivery (its environment and secrets). */
  ctx: RunContext;
}

/** What a run produced. */
export interface ProduceResult {
  model: ReportModel;
  files: CommittedOutput[];
  /** The targets that have the report: sent by this run, or by an earlier one (`alreadyDelivered`). */
  mailedTo: string[];
  /** The targets of `mailedTo` an earlier run had delivered to (the ledger says so): nothing sent now. */
  alreadyDelivered?: string[];
  /** Things the run did not stop for but the reader should know (also in the closing summary). */
  warnings: string[];
}

export { fileSlug };

/**
 * The base name of a report's files: `orgreport-<org>-<YYYY-MM>`, its scope's slug for a scoped
 * report, and `-groups` where its readers see no person's rows (`--person-rows none`), so that it
 * is never taken for the report with them.
 */
export function reportBaseName(
  model: Pick<ReportModel, 'organization' | 'period' | 'scope'>,
  personRows?: PersonRows,
): string {
  const scope = model.scope ? `-${model.scope.slug}` : '';
  const groups = personRows === 'none' ? '-groups' : '';
  return `orgreport-${fileSlug(model.organization.name)}-${model.period.month}${scope}${groups}`;
}

/** The targets a monthly run delivers to: the `--email` addresses and the `--deliver` targets. */
export function reportTargets(config: Pick<DeliverySettings, 'mailTo' | 'deliver'>): string[] {
  return [...new Set([...config.mailTo, ...config.deliver].map(normalTarget))];
}

/** The formats a run renders: the configured ones, plus what the delivery carries. */
export function reportFormats(
  config: Pick<ReportSettings, 'formats'> & Pick<DeliverySettings, 'mailTo' | 'deliver'>,
  attachXlsx = false,
): Set<ReportFormat> {
  const formats = new Set<ReportFormat>(config.formats);
  const mailing = reportTargets(config).some(isEmailTarget);
  // The mail carries the PDF (and the workbook on request), so those are rendered even if not listed;
  // other targets take the documents the run renders.
  if (mailing) formats.add('pdf');
  if (mailing && attachXlsx) formats.add('xlsx');
  return formats;
}

/**
 * The renderer warmed up for a report's `formats`: Chromium started, and the render thread loading
 * the workbook's and the page's modules (the page of other packages' sections or of `--templates`
 * is laid out on this thread, which loads its modules then). The caller closes it.
 */
export function reportWarmup(
  config: Settings,
  formats: ReadonlySet<ReportFormat>,
  sections: ReadonlyArray<ReportSection> | undefined,
): RenderWarmup {
  return warmUpRendering(
    formats,
    { executablePath: chromiumOf(config) },
    { workbookThread: true, pageThread: !sections && !config.templates },
  );
}

/**
 * Starts loading what a report needs once its month is read: the metrics (about a tenth of a second
 * with arquero's modules) and the documents' entry. Called before the month is fetched or read, so
 * that this thread loads them while it waits for the API and the store instead of after. A failure
 * is left to the import that uses them.
 */
export function loadReportModules(): void {
  import('@orgreport/metrics').catch(() => {});
  import('@orgreport/render/documents').catch(() => {});
}

/**
 * The inputs every report of a run reads besides the month: what the caller brings (the directory,
 * the store's history) and what the configuration says (the watch's budgets, where the definitions
 * are published), with the watch's month-end forecast for a partial month's budget.
 */
export async function reportInputs(config: Settings, inputs: SectionInputs = {}): Promise<SectionInputs> {
  const budgets = config.watch?.budgets;
  const { forecastMonth } = await import('@orgreport/watch');
  return {
    ...inputs,
    ...(budgets && {
      budgets: {
        ...(budgets.organization !== undefined && { organization: budgets.organization }),
        teams: budgets.teams,
        costCenters: budgets.costCenters,
      },
    }),
    forecastCredits: (values, lastDay) => forecastMonth(values, lastDay).forecast,
    ...(config.definitionsUrl && { definitionsUrl: config.definitionsUrl }),
  };
}

/** The options of every report model of a run: the configured prices, sections and inputs. */
export function modelOptions(
  config: Settings,
  options: {
    generatedAt: string;
    sections?: ReadonlyArray<ReportSection>;
    inputs?: SectionInputs;
    scope?: ProduceOptions['scope'];
  },
): ReportOptions {
  const { sections, inputs, scope } = options;
  return {
    generatedAt: options.generatedAt,
    ...(config.pricePerCredit !== undefined ? { pricePerCredit: config.pricePerCredit } : {}),
    ...(config.currency !== undefined ? { currency: config.currency } : {}),
    ...(config.pricePerSeat !== undefined ? { pricePerSeat: config.pricePerSeat } : {}),
    ...(sections && { sections }),
    ...(inputs && { inputs }),
    ...(scope && { scope }),
  };
}

/** Computes the report model of a snapshot with the configured pricing. */
export async function computeModel(
  snapshot: Snapshot,
  config: Settings,
  reporter: Reporter,
  sections?: ReadonlyArray<ReportSection>,
  inputs?: SectionInputs,
  scope?: ProduceOptions['scope'],
): Promise<ReportModel> {
  const { buildReportModel } = await import('@orgreport/metrics');
  const stage = reporter.stage(scope ? `compute ${scope.scope.label}` : 'compute');
  const model = buildReportModel(
    snapshot,
    modelOptions(config, {
      generatedAt: config.now().toISOString(),
      ...(sections && { sections }),
      inputs: await reportInputs(config, inputs),
      ...(scope && { scope }),
    }),
  );
  stage.done(`${model.figures.length} figures, ${model.weekly.length} weeks, ${model.users.length} users`);
  return model;
}

/**
 * The documents a target takes: a mail the PDF (and the workbook with `--attach-xlsx`), as a reader's
 * inbox wants it; any other target (a folder, a bucket, a Slack channel, a Teams card or a webhook
 * that links to them) every document the run rendered (`--formats`), the snapshot left out.
 */
export function documentsFor(target: string, files: readonly string[], attachXlsx = false): string[] {
  const documents = files.filter((p) => REPORT_FORMATS.some((format) => p.endsWith(`.${format}`)));
  if (!isEmailTarget(target)) return documents;
  return documents.filter((p) => p.endsWith('.pdf') || (attachXlsx && p.endsWith('.xlsx')));
}

/**
 * Delivers the committed documents to the run's targets (see {@link documentsFor}), each delivery
 * recorded in the ledger; returns the targets that took it.
 */
async function deliver(
  model: ReportModel,
  files: CommittedOutput[],
  options: ProduceOptions,
): Promise<{ sent: string[]; already: string[] }> {
  const { config, reporter, ctx } = options;
  const paths = files.map((f) => f.path);
  const { deliveryKey } = await import('@orgreport/deliver');
  // One message per set of documents (the mails', the other targets'), made when first sent.
  const messages = new Map<string, ReturnType<typeof reportMessage>>();
  const scope = model.scope ? `${model.scope.kind}:${model.scope.name}` : 'org';
  const deliveries = reportTargets(config).map((target) => {
    const attach = documentsFor(target, paths, options.attachXlsx);
    const formats = attach.map((p) => p.slice(p.lastIndexOf('.') + 1)).sort();
    return {
      key: deliveryKey({ month: model.period.month, recipient: target, scope, formats, target }),
      recipient: target,
      target,
      group: 'report',
      record: {
        month: model.period.month,
        scope,
        formats: formats.join(','),
        organization: model.organization.id,
      },
      message: () => {
        const key = attach.join('\n');
        const made = messages.get(key);
        if (made) return made;
        const message = reportMessage(model, attach, config);
        messages.set(key, message);
        return message;
      },
    };
  });
  const result = await sendDeliveries(deliveries, { config, reporter, ctx });
  return { sent: result.sent.map((d) => d.recipient), already: result.skipped.map((d) => d.recipient) };
}

/** Lets the run's owner free the compute's garbage before the documents allocate (see `RunContext.releaseMemory`). */
function releaseMemory(ctx: RunContext, reporter: Reporter): void {
  if (!ctx.releaseMemory) return;
  if (!reporter.enabled('debug')) {
    ctx.releaseMemory();
    return;
  }
  const started = performance.now();
  const before = process.memoryUsage();
  ctx.releaseMemory();
  const after = process.memoryUsage();
  const mb = (bytes: number) => `${Math.round(bytes / 1e6)} MB`;
  reporter.debug(
    `memory: the compute's garbage collected in ${((performance.now() - started) / 1000).toFixed(2)} s: heap ${mb(before.heapUsed)} to ${mb(after.heapUsed)}, buffers ${mb(before.arrayBuffers)} to ${mb(after.arrayBuffers)}`,
  );
}

/**
 * Writes the chosen formats (and the snapshot), commits them together, then mails them when asked.
 * The files are committed before mailing: a failed mail leaves a complete report behind.
 */
export async function produceReport(snapshot: Snapshot, options: ProduceOptions): Promise<ProduceResult> {
  const { config, reporter } = options;
  const { formats } = options;
  const delivering = reportTargets(config).length > 0;
  // Loads the renderer and starts Chromium while the snapshot is written and the model computed.
  const warmup = options.warmup ?? reportWarmup(config, formats, options.sections);

  const outputs = await new OutputSet(config.outDir).open();
  const unregisterWork = options.warmup ? undefined : options.ctx.onStop(() => warmup.close());
  const unregister = options.ctx.onStop(() => outputs.abort(), 'leftovers');
  let model: ReportModel;
  let files: CommittedOutput[];
  let warnings: string[];
  try {
    if (options.includeSnapshot) {
      const stage = reporter.stage('snapshot');
      const manifest = await writeSnapshot(await outputs.directory('snapshot'), snapshot);
      stage.done(`${Object.keys(manifest.checksums).length} files`);
    }
    const computed = await computeModel(
      snapshot,
      config,
      reporter,
      options.sections,
      options.inputs,
      options.scope,
    );
    releaseMemory(options.ctx, reporter);
    // The documents and the message show the model as their readers may see it.
    ({ warnings, model } = await writeReport(computed, {
      formats,
      outputs,
      baseName: reportBaseName(computed, options.reader?.policy.personRows),
      ...(config.templates && { templates: config.templates }),
      ...(options.sections && { sections: options.sections }),
      ...(options.reader && { reader: options.reader }),
      warmup,
      alone: true,
      reporter,
    }));
    for (const warning of warnings) reporter.warn(warning);
    files = await outputs.commit();
  } catch (error) {
    await outputs.abort();
    throw error;
  } finally {
    unregister();
    unregisterWork?.();
    if (!options.warmup) await warmup.close();
  }
  const delivered = delivering ? await deliver(model, files, options) : { sent: [], already: [] };
  return {
    model,
    files,
    mailedTo: [...delivered.sent, ...delivered.already],
    ...(delivered.already.length > 0 && { alreadyDelivered: delivered.already }),
    warnings,
  };
}
