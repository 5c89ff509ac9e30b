/**
 * A month's report of one organization or several, from a fetch or the store to its delivery: what
 * `orgreport monthly` does. Every check that can fail on a setting runs before anything is fetched.
 */
import { join } from 'node:path';
import type { MonthPeriod } from '@orgreport/api-core';
import type { PeopleDirectory, ReportSection, ScopeSpec } from '@orgreport/metrics';
import type { RunContext } from '../context.ts';
import { checkSharedLedger, checkTargets } from '../deliver/send-reports.ts';
import { demoDirectory, withDemoPrices } from '../demo.ts';
import { loadDirectory } from '../directory/read.ts';
import { CliError, EXIT, UsageError } from '../errors.ts';
import { checkOutputFolder, checkSnapshotFolder } from '../output/targets.ts';
import type { Reporter } from '../reporter.ts';
import { organizationConfigs, type Settings } from '../settings.ts';
import { type AcquireFlags, acquireSnapshot, demoUsersOf, reportPeriod } from '../snapshot/acquire.ts';
import { checkChromium, checkDelivery, checkTemplates } from './checks.ts';
import { daysOfReport, directoryIndex, identityOf, prepareData, scopeOfRun } from './prepare.ts';
import {
  computeModel,
  fileSlug,
  loadReportModules,
  type ProduceResult,
  produceReport,
  reportFormats,
  reportTargets,
  reportWarmup,
} from './produce.ts';
import { loadSections } from './sections.ts';

/** What to report on besides the settings: the month and its source, and the run's extras. */
export interface MonthlyRequest extends AcquireFlags {
  /** Attach the workbook to the mail beside the PDF. */
  attachXlsx?: boolean;
  /** Every organization of the settings, each in its own folder under `outDir`. */
  allOrgs?: boolean;
}

/** One organization's report, from fetch (or the store) to delivery. */
async function monthlyOf(
  config: Settings,
  options: MonthlyRequest,
  reporter: Reporter,
  ctx: RunContext,
  sections: ReadonlyArray<ReportSection> | undefined,
  directory: PeopleDirectory | undefined,
): Promise<ProduceResult> {
  const formats = reportFormats(config, options.attachXlsx);
  // Chromium starts and the render thread loads the page's modules and ExcelJS while the month is
  // fetched or read.
  const warmup = reportWarmup(config, formats, sections);
  const unregister = ctx.onStop(() => warmup.close());
  loadReportModules();
  try {
    const fetched = await acquireSnapshot(options, config, reporter, ctx);
    // The store's months for the trend are read (by DuckDB, on its threads) while the data is prepared.
    const trend = config.store
      ? import('../store/read-month.ts').then((m) =>
          m.historyFromStore(config.store!, fetched, reportPeriod(options, config), reporter),
        )
      : undefined;
    trend?.catch(() => {}); // a failure is the run's where it is awaited, below
    const data = await prepareData(fetched, directory, config);
    const history = await trend;
    const inputs =
      history || data.directory
        ? { ...history, ...(data.directory && { directory: data.directory }) }
        : undefined;
    const spec = config.scope ? await parseScopeFlag(config.scope) : undefined;
    const scoped = spec && spec.kind !== 'org';
    // A scope is compared with the organization: its model is computed first, from the same data.
    const scope = scoped
      ? {
          scope: await scopeOfRun(
            await directoryIndex(data.directory, data.snapshot.manifest.fetchedRange),
            spec,
            config.minGroupSize,
            (email) => identityOf(data, email),
          ),
          organization: await computeModel(data.snapshot, config, reporter, sections, inputs),
        }
      : undefined;
    const readers = reportTargets(config).filter((t) => t.includes('@') && !t.includes(':'));
    const personRows = config.personRows ?? (scoped ? 'scope' : 'all');
    return await produceReport(data.snapshot, {
      config,
      reporter,
      ctx,
      // From a store, the store keeps the month (and the raw responses): no snapshot folder beside it.
      includeSnapshot: !config.store,
      formats,
      attachXlsx: options.attachXlsx,
      ...(sections && { sections }),
      ...(inputs && { inputs }),
      ...(scope && { scope }),
      reader: {
        policy: {
          minGroupSize: config.minGroupSize,
          personRows,
          pseudonymized: data.pseudonymizer !== undefined,
        },
        // Who may be withheld: nobody from a reader of everyone's rows, so the organization's
        // identities (about 60 ms to gather at 10k users) are gathered for the other readers only.
        people: personRows === 'all' ? [] : data.people,
        reader: readers.map((r) => identityOf(data, r)),
      },
      warmup,
    });
  } finally {
    unregister();
    await warmup.close();
  }
}

/** A scope of `--scope` resolved against the directory as written, before anything is fetched. */
async function checkScope(
  config: Settings,
  directory: PeopleDirectory | undefined,
  period: MonthPeriod,
): Promise<void> {
  const spec = await parseScopeFlag(config.scope!);
  if (spec.kind === 'org') return;
  await scopeOfRun(await directoryIndex(directory, await daysOfReport(period)), spec, config.minGroupSize);
}

/** `--scope` read, an input error naming the forms when it is none of them. */
async function parseScopeFlag(text: string): Promise<ScopeSpec> {
  const { parseScope } = await import('@orgreport/metrics');
  try {
    return parseScope(text);
  } catch (error) {
    throw new UsageError(`--scope: ${(error as Error).message}`, { cause: error });
  }
}

/**
 * Produces the monthly report of `request.month` (default the last complete month) in
 * `settings.outDir` and delivers it as the settings say; `onReport` sees each organization's result
 * as it is done. With several organizations, one failing does not stop the others; the run then
 * throws at the end, naming them.
 */
export async function produceMonthlyReports(
  configured: Settings,
  options: MonthlyRequest,
  ctx: RunContext,
  reporter: Reporter,
  onReport: (result: ProduceResult) => void = () => {},
): Promise<ProduceResult[]> {
  // The demo organization comes with its prices (and its directory, below) unless others are set.
  const config = options.demo ? withDemoPrices(configured) : configured;
  reportPeriod(options, config); // a bad month fails before anything starts
  if (config.scope) await parseScopeFlag(config.scope);
  checkDelivery(config);
  await checkTargets(reportTargets(config), config, ctx);
  if (reportTargets(config).length > 0) await checkSharedLedger(config, ctx);
  if (options.attachXlsx && reportTargets(config).length === 0) {
    reporter.warn(
      '--attach-xlsx adds the workbook to what is sent: this run sends nothing (give --email or --deliver)',
    );
  }
  checkChromium(config, reportFormats(config, options.attachXlsx));
  await checkTemplates(config); // a broken template fails before anything is fetched
  // So does a place the run cannot write to, or would wrongly replace (the snapshot folder whole).
  await checkOutputFolder(config.outDir, `the output folder ${config.outDir}`);
  if (!config.store) {
    const snapshotFolder = join(config.outDir, 'snapshot');
    await checkSnapshotFolder(snapshotFolder, `the snapshot folder ${snapshotFolder}`);
  }
  const sections = await loadSections(config.sections, ctx.io.cwd); // so does a wrong section
  const directory =
    (await loadDirectory(config.directory)) ?? // and a directory with a bad row
    (options.demo ? await demoDirectory(demoUsersOf(options) ?? 200, config.today) : undefined);
  if (options.demo && (options.allOrgs || config.org)) {
    throw new UsageError('--demo reports on the demo organization: leave out --org and --all-orgs');
  }
  // So does a scope the directory does not know, or one too small for a report.
  if (config.scope) await checkScope(config, directory, reportPeriod(options, config));
  const targets = options.demo ? [config] : organizationConfigs(config, options.allOrgs);
  const failed: string[] = [];
  const results: ProduceResult[] = [];
  for (const target of targets) {
    // Several organizations: each report (and its snapshot) in a folder of its own under --out.
    const run =
      targets.length > 1
        ? { ...target, outDir: join(config.outDir, fileSlug(target.organizationName ?? 'organization')) }
        : target;
    try {
      const result = await monthlyOf(run, options, reporter, ctx, sections, directory);
      results.push(result);
      onReport(result);
    } catch (error) {
      // One organization failing does not stop the others' reports; the run still fails at the end.
      if (targets.length === 1) throw error;
      failed.push(target.organizationName ?? 'organization');
      reporter.error(`${target.organizationName}: ${(error as Error).message}`);
    }
  }
  if (failed.length > 0) {
    throw new CliError(
      `${failed.length} of ${targets.length} organizations have no report (${failed.join(', ')}); the others are written`,
      EXIT.failure,
    );
  }
  return results;
}
