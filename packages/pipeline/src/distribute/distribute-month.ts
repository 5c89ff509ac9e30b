/**
 * A month distributed (`orgreport distribute`): every reader's report of a month, made and
 * delivered in one run, each delivery exactly once through the ledger; `shard` splits the
 * recipients between jobs.
 */
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Delivery, DeliveryMessage } from '@orgreport/deliver';
import type {
  DirectoryIndex,
  PeopleDirectory,
  ReportModel,
  ReportSection,
  SectionInputs,
} from '@orgreport/metrics';
import { warmUpRendering } from '@orgreport/render/warmup';
import type { RunContext } from '../context.ts';
import {
  checkTargets,
  isEmailTarget,
  ledgerStatuses,
  normalTarget,
  reportMessage,
  sendDeliveries,
} from '../deliver/send-reports.ts';
import { demoDirectory, withDemoPrices } from '../demo.ts';
import { loadDirectory } from '../directory/read.ts';
import { UsageError } from '../errors.ts';
import { OutputSet } from '../output/atomic.ts';
import { checkOutputFolder } from '../output/targets.ts';
import { checkChromium, checkTemplates, chromiumOf } from '../report/checks.ts';
import { daysOfReport, directoryIndex, type PreparedData, prepareData } from '../report/prepare.ts';
import { computeModel, modelOptions, reportBaseName, reportInputs } from '../report/produce.ts';
import { loadSections } from '../report/sections.ts';
import { writeReport } from '../report/write-report.ts';
import { formatBytes, type Reporter } from '../reporter.ts';
import type { ReportFormat, Settings } from '../settings.ts';
import { type AcquireFlags, acquireSnapshot, demoUsersOf, reportPeriod } from '../snapshot/acquire.ts';
import { type Plan, planProblem, planSchema } from './plan-schema.ts';
import {
  defaultPlan,
  type PlannedDelivery,
  type PlannedReport,
  type ResolvedPlan,
  resolvePlan,
  shardOf,
} from './resolve-plan.ts';

/** Reports rendered at once: Chromium prints one while this process lays out the next. */
const RENDER_CONCURRENCY = 2;

/** This job's share of the recipients: the `shard`-th of `of` (from 1). */
export interface Shard {
  shard: number;
  of: number;
}

/** What a month's distribution is asked to do besides the settings. */
export interface DistributeRequest extends AcquireFlags {
  /** Resolve the plan and check it, render and send nothing. */
  dryRun?: boolean;
  /**
   * The formats of the default plan's reports, as the command line gives them (`--formats`): every
   * manager's and the organization's. Refused with a plan, whose rules say each report's formats.
   */
  formats?: readonly ReportFormat[];
  /** This job's share of the recipients, for N jobs of a scheduler. */
  shard?: Shard;
  /** Send again what the ledger holds as sent: to everyone, or to these recipients (lower-cased). */
  resend?: 'all' | string[];
}

/** The plan resolved, as printed by a dry run. */
export interface PlanSummary {
  /** Where the plan came from: a file, the config file's `distribution`, or the default plan. */
  plan: string;
  minGroupSize: number;
  shard?: string;
  reports: number;
  deliveries: Array<{
    recipient: string;
    target: string;
    scope: string;
    formats: string[];
    people: number;
    personRows: string;
  }>;
  heldBack: ResolvedPlan['heldBack'];
}

/** What a distribution did: the plan, the files rendered, and each delivery's outcome. */
export interface DistributeResult {
  month: string;
  dryRun: boolean;
  summary: PlanSummary;
  /** The report files written in `outDir` (none on a dry run). */
  rendered: string[];
  sent: Array<{ recipient: string; target: string; id: string }>;
  skipped: Array<{ recipient: string; target: string; reason: string }>;
  unknown: Array<{ recipient: string; target: string; action: string }>;
}

/**
 * The plan of the run: `--plan FILE`, else the config file's `distribution`, else the default one
 * (in `formats` when given, else managers the PDF and the organization `config.formats`).
 */
export async function planOf(
  config: Settings,
  formats?: readonly ReportFormat[],
): Promise<{ plan: Plan; source: string }> {
  if (formats && (config.plan || config.distribution)) {
    throw new UsageError(
      `--formats applies to the default plan only: ${config.plan ? `the plan ${config.plan}` : `the config file's distribution`} gives each report its formats (a rule's formats: [pdf, xlsx]); leave --formats out, or change the plan`,
    );
  }
  if (config.plan) {
    let text: string;
    try {
      text = await readFile(config.plan, 'utf8');
    } catch (error) {
      throw new UsageError(
        `--plan ${config.plan}: cannot be read (${(error as NodeJS.ErrnoException).code})`,
      );
    }
    let json: unknown;
    try {
      json = /\.ya?ml$/i.test(config.plan) ? (await import('yaml')).parse(text) : JSON.parse(text);
    } catch (error) {
      throw new UsageError(
        `--plan ${config.plan}: not valid ${/\.ya?ml$/i.test(config.plan) ? 'YAML' : 'JSON'} (${(error as Error).message.split('\n')[0]})`,
      );
    }
    // A plan file may hold the plan itself, or a config file's `distribution` key.
    const body =
      json && typeof json === 'object' && 'distribution' in json
        ? (json as { distribution: unknown }).distribution
        : json;
    const parsed = planSchema.safeParse(body);
    if (!parsed.success) {
      throw new UsageError(`--plan ${config.plan}: ${planProblem(parsed.error.issues[0]!)}`);
    }
    return { plan: parsed.data, source: config.plan };
  }
  if (config.distribution)
    return { plan: config.distribution, source: `config file ${config.configFile}: distribution` };
  return {
    plan: defaultPlan(config.mailTo, formats ?? config.formats, formats ?? ['pdf']),
    source: `the default plan: each manager the ${formats ? `report (${formats.join(', ')})` : 'PDF'} of everyone under them`,
  };
}

/** The plan as a dry run and `--json` show it: every delivery with its scope, formats and people, the scopes held back. */
export function planSummary(
  plan: ResolvedPlan,
  deliveries: PlannedDelivery[],
  source: string,
  shard?: Shard,
): PlanSummary {
  const byId = new Map(plan.reports.map((r) => [r.id, r]));
  return {
    plan: source,
    minGroupSize: plan.minGroupSize,
    ...(shard && { shard: `${shard.shard}/${shard.of}` }),
    reports: plan.reports.filter((r) => deliveries.some((d) => d.report === r.id)).length,
    deliveries: deliveries.map((d) => {
      const r = byId.get(d.report)!;
      return {
        recipient: d.recipient,
        target: d.target,
        scope: r.resolved ? `${r.resolved.kind}:${r.resolved.name}` : 'org',
        formats: r.formats,
        people: r.people,
        personRows: r.personRows,
      };
    }),
    heldBack: plan.heldBack,
  };
}

/**
 * Makes and delivers every reader's report of the month: the plan (`settings.plan`, the settings'
 * `distribution`, or each manager their people's PDF) resolved against the directory, the month
 * read once (from the store or a fresh fetch) and the organization's model computed once; each
 * report a scope's model as its readers may see it, rendered through one Chromium; every delivery
 * through the ledger, so a rerun sends only what is not delivered yet.
 */
export async function distributeMonth(
  configured: Settings,
  options: DistributeRequest,
  ctx: RunContext,
  reporter: Reporter,
): Promise<DistributeResult> {
  const config = options.demo ? withDemoPrices(configured) : configured;
  const period = reportPeriod(options, config);
  const shard = options.shard;
  const { plan, source } = await planOf(config, options.formats);
  if (config.mailTo.length > 0 && (config.plan || config.distribution)) {
    reporter.warn(
      `the --email addresses (${config.mailTo.join(', ')}) go with the default plan only: with a plan, name them in a rule (scope: org, to: [...])`,
    );
  }
  const formats = new Set(plan.rules.flatMap((r) => r.formats ?? ['pdf']) as ReportFormat[]);
  if (!options.dryRun) checkChromium(config, formats);
  await checkTemplates(config);
  await checkOutputFolder(config.outDir, `the output folder ${config.outDir}`);
  const sections = await loadSections(config.sections, ctx.io.cwd);
  const directory: PeopleDirectory | undefined =
    (await loadDirectory(config.directory)) ??
    (options.demo ? await demoDirectory(demoUsersOf(options) ?? 200, config.today) : undefined);
  // The plan is resolved against the directory as written (recipients are real addresses).
  const index = await directoryIndex(directory, await daysOfReport(period), 'distribute');
  const people = new Set(directory!.people.map((p) => p.email.toLowerCase())).size;
  const resolved = resolvePlan(plan, index, {
    minGroupSize: config.minGroupSize,
    organizationPeople: people,
  });
  // The demo without a mail server delivers each mail into a folder of its recipient instead.
  const outbox = options.demo && !config.smtpUrl ? resolve(config.outDir, 'outbox') : undefined;
  const mine = resolved.deliveries
    .map((d) => ({ ...d, target: demoTarget(normalTarget(d.target), outbox) }))
    .filter((d) => !shard || shardOf(d.recipient, shard.of) === shard.shard);
  if (outbox && !options.dryRun) {
    reporter.info(
      `demo: no SMTP server is set, so each mail goes to ${outbox}/<recipient>/ (set ORGREPORT_SMTP_URL to send them)`,
    );
  }
  const summary = planSummary(resolved, mine, source, shard);
  // A dry run refuses what the run would: a target no destination takes, --resend of a stranger.
  await checkTargets(
    mine.map((d) => d.target),
    config,
    ctx,
  );
  const resend = options.resend;
  checkResend(resend, resolved);
  if (options.dryRun) {
    return { month: period.month, dryRun: true, summary, rendered: [], sent: [], skipped: [], unknown: [] };
  }

  const pending = await pendingDeliveries(mine, resolved, config, ctx, period.month, resend);
  const warmup = warmUpRendering(formats, { executablePath: chromiumOf(config) });
  const unregister = ctx.onStop(() => warmup.close());
  try {
    const snapshot = await acquireSnapshot(options, config, reporter, ctx);
    const data = await prepareData(snapshot, directory, config);
    const history = config.store
      ? await (await import('../store/read-month.ts')).historyFromStore(
          config.store,
          data.snapshot,
          period,
          reporter,
        )
      : undefined;
    const inputs = await reportInputs(config, {
      ...history,
      ...(data.directory && { directory: data.directory }),
    });
    const organization = await computeModel(data.snapshot, config, reporter, sections, inputs);
    const renderer = new ReportRenderer({
      config,
      reporter,
      data,
      organization,
      sections,
      inputs,
      warmup,
      cwd: ctx.io.cwd,
      onStop: ctx.onStop,
    });
    for (const h of resolved.heldBack) reporter.info(`held back: ${h.scope}: ${h.reason}`);
    // The reports that have something to deliver are rendered ahead, two at a time, in the order
    // of their deliveries, while the deliveries go out: a delivery waits only for its own report.
    const needed = resolved.reports.filter((r) => pending.some((d) => d.report === r.id));
    const stage = reporter.stage('reports');
    let made = 0;
    const rendering = inBatches(needed, RENDER_CONCURRENCY, async (report) => {
      await renderer.render(report).catch(() => {}); // a failed report fails its deliveries
      stage.update(`${++made} of ${needed.length}`);
    }).then(() => stage.done(`${made} reports rendered`));
    const byId = new Map(resolved.reports.map((r) => [r.id, r]));
    const { deliveryKey } = await import('@orgreport/deliver');
    const deliveries: Delivery[] = mine.map((d) => {
      const report = byId.get(d.report)!;
      const scope = report.resolved ? `${report.resolved.kind}:${report.resolved.name}` : 'org';
      return {
        key: deliveryKey({
          month: period.month,
          recipient: d.recipient,
          scope,
          formats: report.formats,
          target: d.target,
        }),
        recipient: d.recipient,
        target: d.target,
        group: report.id,
        record: { month: period.month, scope, formats: report.formats.join(','), rows: report.personRows },
        message: () => renderer.message(report),
      };
    });
    const result = await sendDeliveries(deliveries, {
      config,
      reporter,
      ctx,
      ...(resend && { resend }),
      ...(shard && { shard }),
    });
    await rendering;
    return {
      month: period.month,
      dryRun: false,
      summary,
      rendered: renderer.files(),
      sent: result.sent.map((s) => ({ recipient: s.recipient, target: s.label, id: s.id })),
      skipped: result.skipped.map((s) => ({ recipient: s.recipient, target: s.label, reason: s.reason })),
      unknown: result.unknown.map((s) => ({ recipient: s.recipient, target: s.label, action: s.action })),
    };
  } finally {
    unregister();
    await warmup.close();
  }
}

/** An e-mail target of the demo without a mail server: the recipient's folder in the outbox. */
function demoTarget(target: string, outbox: string | undefined): string {
  return outbox && isEmailTarget(target) ? `dir:${join(outbox, target)}` : target;
}

/** Refuses `--resend` of an address the plan sends nothing to (a typo would resend nothing, silently). */
function checkResend(resend: 'all' | string[] | undefined, plan: ResolvedPlan): void {
  if (resend === undefined || resend === 'all') return;
  const recipients = new Set(plan.deliveries.map((d) => d.recipient.toLowerCase()));
  const strangers = resend.filter((r) => !recipients.has(r));
  if (strangers.length > 0) {
    throw new UsageError(
      `--resend: ${strangers.join(', ')} ${strangers.length === 1 ? 'is' : 'are'} not a recipient of this plan (the dry run lists them: --dry-run); give recipients' addresses, or all`,
    );
  }
}

/** The deliveries the ledger does not hold as sent (all of them to a recipient `--resend` names). */
async function pendingDeliveries(
  deliveries: PlannedDelivery[],
  plan: ResolvedPlan,
  config: Settings,
  ctx: RunContext,
  month: string,
  resend: 'all' | string[] | undefined,
): Promise<PlannedDelivery[]> {
  if (resend === 'all') return deliveries;
  const again = resend ?? [];
  const { deliveryKey } = await import('@orgreport/deliver');
  const byId = new Map(plan.reports.map((r) => [r.id, r]));
  const keyOf = (d: PlannedDelivery) => {
    const report = byId.get(d.report)!;
    const scope = report.resolved ? `${report.resolved.kind}:${report.resolved.name}` : 'org';
    return deliveryKey({ month, recipient: d.recipient, scope, formats: report.formats, target: d.target });
  };
  // Every part counts (what another split, or a run without shards, sent is not pending here); a
  // shared ledger is read for these deliveries alone.
  const status = await ledgerStatuses(config, ctx, deliveries.map(keyOf));
  return deliveries.filter((d) => again.includes(d.recipient.toLowerCase()) || status(keyOf(d)) !== 'sent');
}

/** Runs `work` over `items`, `size` at a time. */
async function inBatches<T>(
  items: readonly T[],
  size: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(size, items.length) }, worker));
}

/** Renders each planned report once (its documents committed together) and makes its message. */
class ReportRenderer {
  private readonly made = new Map<string, Promise<{ model: ReportModel; paths: string[] }>>();
  private pseudonymousIndex: DirectoryIndex | undefined;
  private readonly written: string[] = [];
  constructor(
    private readonly run: {
      config: Settings;
      reporter: Reporter;
      data: PreparedData;
      organization: ReportModel;
      sections: ReadonlyArray<ReportSection> | undefined;
      inputs: SectionInputs;
      warmup: ReturnType<typeof warmUpRendering>;
      /** Where section packages are resolved from. */
      cwd: string;
      onStop: RunContext['onStop'];
    },
  ) {}

  files(): string[] {
    return [...this.written];
  }

  render(report: PlannedReport): Promise<{ model: ReportModel; paths: string[] }> {
    let made = this.made.get(report.id);
    if (!made) {
      made = this.make(report);
      this.made.set(report.id, made);
    }
    return made;
  }

  async message(report: PlannedReport): Promise<DeliveryMessage> {
    const { model, paths } = await this.render(report);
    return reportMessage(model, paths, this.run.config);
  }

  private async make(report: PlannedReport): Promise<{ model: ReportModel; paths: string[] }> {
    const { config, data, organization, sections, inputs, warmup } = this.run;
    const metrics = await import('@orgreport/metrics');
    const identity = (email: string) =>
      data.pseudonymizer ? data.pseudonymizer.email(email) : email.toLowerCase();
    let model = organization;
    if (report.resolved) {
      // The scope in the run's identities (pseudonyms when the run makes them).
      const spec =
        report.resolved.kind === 'manager'
          ? { kind: 'manager' as const, name: identity(report.resolved.name) }
          : { kind: report.resolved.kind, name: report.resolved.name };
      // With pseudonyms the scope is resolved again in the run's identities, against an index made once.
      if (data.pseudonymizer) {
        this.pseudonymousIndex ??= await directoryIndex(data.directory, data.snapshot.manifest.fetchedRange);
      }
      const scope = this.pseudonymousIndex
        ? metrics.resolveScope(this.pseudonymousIndex, spec)
        : report.resolved;
      model = metrics.buildReportModel(
        data.snapshot,
        modelOptions(config, {
          generatedAt: organization.generatedAt,
          ...(sections && { sections }),
          inputs,
          scope: { scope, organization },
        }),
      );
    }
    const chosen = report.sections
      ? metrics.resolveSections(await loadSections(report.sections, this.run.cwd))
      : sections;
    const outputs = await new OutputSet(config.outDir).open();
    const unregister = this.run.onStop(() => outputs.abort(), 'leftovers');
    try {
      const rendered = await writeReport(model, {
        formats: report.formats as ReportFormat[],
        outputs,
        baseName: reportBaseName(model, report.personRows),
        ...(config.templates && { templates: config.templates }),
        ...(chosen && { sections: chosen }),
        warmup,
        reader: {
          policy: {
            minGroupSize: config.minGroupSize,
            personRows: report.personRows,
            pseudonymized: data.pseudonymizer !== undefined,
          },
          people: data.people,
          reader: report.readers.map(identity),
        },
      });
      const committed = await outputs.commit();
      for (const c of committed) {
        this.written.push(c.path);
        this.run.reporter.debug(`${c.path}: ${formatBytes(c.bytes)}`);
      }
      return { model: rendered.model, paths: committed.map((c) => c.path) };
    } catch (error) {
      await outputs.abort();
      throw error;
    } finally {
      unregister();
    }
  }
}
