/**
 * `orgreport distribute`: every reader's report of a month, made and delivered in one run (see
 * `distributeMonth` of `@orgreport/pipeline/distribute`); the command reads `--shard` and
 * `--resend` and prints the plan or the outcome.
 */
import { distributeMonth, type PlanSummary } from '@orgreport/pipeline/distribute';
import { UsageError } from '@orgreport/pipeline/errors';
import type { AcquireFlags } from '@orgreport/pipeline/snapshot';
import type { ConfigFlags } from '../../config/config.ts';
import { type CommandContext, setUp } from '../../context.ts';
import { alignColumns } from '../../print/columns.ts';

export interface DistributeOptions extends ConfigFlags, AcquireFlags {
  dryRun?: boolean;
  json?: boolean;
  /** `K/N`: this job's share of the recipients. */
  shard?: string;
  /** `all`, or comma-separated recipients: send again what the ledger holds as sent. */
  resend?: string;
}

/** `K/N` read, with the reason when it is not one. */
function parseShard(text: string | undefined): { shard: number; of: number } | undefined {
  if (text === undefined) return undefined;
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  const shard = Number(m?.[1]);
  const of = Number(m?.[2]);
  if (!m || of < 1 || shard < 1 || shard > of) {
    throw new UsageError(`--shard: expected K/N with 1 <= K <= N, such as 2/4 (got ${JSON.stringify(text)})`);
  }
  return { shard, of };
}

/** `--resend`: everyone (`all`), these recipients (lower-cased), or nobody. */
function parseResend(text: string | undefined): 'all' | string[] | undefined {
  if (text === undefined) return undefined;
  const named = text
    .split(',')
    .map((r) => r.trim().toLowerCase())
    .filter(Boolean);
  return named.includes('all') ? 'all' : named;
}

/** The plan of a dry run, a line per delivery and per scope held back, in columns. */
function printPlan(ctx: CommandContext, summary: PlanSummary): void {
  const lines = [
    `plan: ${summary.plan}${summary.shard ? ` (shard ${summary.shard})` : ''}; minimum group size ${summary.minGroupSize}`,
    `${summary.deliveries.length} deliveries of ${summary.reports} reports:`,
    ...alignColumns(
      summary.deliveries.map((d) => [
        `  ${d.recipient}`,
        d.scope,
        d.formats.join(','),
        `${d.people} people`,
        `per-person rows: ${d.personRows}${d.target !== d.recipient ? `  via ${d.target}` : ''}`,
      ]),
      { right: [false, false, false, true] },
    ),
  ];
  if (summary.heldBack.length > 0) {
    lines.push(`${scopesHeldBack(summary.heldBack.length)} (no report):`);
    lines.push(
      ...alignColumns(
        summary.heldBack.map((h) => [
          `  ${h.scope}`,
          `${h.reason}${h.recipients.length > 0 ? ` (would have gone to ${h.recipients.join(', ')})` : ''}`,
        ]),
      ),
    );
  }
  ctx.io.stdout.write(`${lines.join('\n')}\n`);
}

/** Makes and delivers every reader's report of the month. */
export async function distribute(options: DistributeOptions, ctx: CommandContext): Promise<void> {
  const started = performance.now();
  const { config, reporter } = setUp(options, ctx);
  const shard = parseShard(options.shard);
  const resend = parseResend(options.resend);
  const result = await distributeMonth(
    config,
    {
      month: options.month,
      partial: options.partial,
      demo: options.demo,
      demoUsers: options.demoUsers,
      dryRun: options.dryRun,
      // Given on the command line, the formats are the default plan's (a config file's are monthly's).
      ...(options.formats !== undefined && { formats: config.formats }),
      ...(shard && { shard }),
      ...(resend && { resend }),
    },
    ctx,
    reporter,
  );
  const { summary } = result;
  if (result.dryRun) {
    if (options.json)
      ctx.io.stdout.write(
        `${JSON.stringify({ command: 'distribute', dryRun: true, month: result.month, ...summary })}\n`,
      );
    else printPlan(ctx, summary);
    return;
  }
  if (options.json) {
    ctx.io.stdout.write(
      `${JSON.stringify({
        command: 'distribute',
        month: result.month,
        ...summary,
        rendered: result.rendered,
        sent: result.sent,
        skipped: result.skipped,
        unknown: result.unknown,
        failed: [],
        timings: { totalMs: Math.round(performance.now() - started) },
      })}\n`,
    );
  } else if (reporter.enabled('info')) {
    ctx.io.stdout.write(
      `distributed ${result.month}: ${result.sent.length} sent, ${result.skipped.length} already delivered, ${result.unknown.length} unknown, ${scopesHeldBack(summary.heldBack.length)}; ${result.rendered.length} files in ${config.outDir}; done in ${((performance.now() - started) / 1000).toFixed(1)} s\n`,
    );
  }
}

/** "1 scope held back", "3 scopes held back". */
function scopesHeldBack(count: number): string {
  return `${count} ${count === 1 ? 'scope' : 'scopes'} held back`;
}
