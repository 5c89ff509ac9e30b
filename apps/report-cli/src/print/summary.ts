/** What a command prints when it is done: the closing summary, or one JSON object with `--json`. */
import type { ReportModel } from '@orgreport/metrics';
import type { CommittedOutput } from '@orgreport/pipeline/output';
import type { ProduceResult } from '@orgreport/pipeline/report';
import { formatBytes, type Reporter } from '@orgreport/pipeline/reporter';
import type { CommandContext } from '../context.ts';

/** The machine-readable summary of a run (`--json`): one JSON object on stdout. */
export interface RunSummary {
  command: 'monthly' | 'fetch' | 'render' | 'rollup';
  organization: { id: string; name: string };
  period: { month: string; start: string; end: string; partial: boolean };
  /** Every file or folder written, with its kind (`pdf`, `xlsx`, `html`, `json`, `snapshot`) and size. */
  outputs: Array<{ kind: string; path: string; bytes: number }>;
  /** Headline figures by id (absent for `fetch`, which computes none). */
  figures?: Array<{
    id: string;
    value: number | null;
    previous: number | null;
    change: number | null;
    changeKind: string;
  }>;
  dataQuality: Array<{ kind: string; message: string; count: number | null }>;
  mailedTo: string[];
  warnings: string[];
  timings: { totalMs: number };
}

/** The kind of an output from its name. */
export function outputKind(path: string): string {
  const ext = path.match(/\.([a-z]+)$/)?.[1];
  return ext ?? 'snapshot';
}

/** The `--json` summary of a rendered report (monthly, render). */
export function reportSummary(
  command: 'monthly' | 'render' | 'rollup',
  result: {
    model: ReportModel;
    files: CommittedOutput[];
    mailedTo: string[];
    warnings: ReadonlyArray<string>;
  },
  startedMs: number,
): string {
  const { model } = result;
  return jsonSummary(
    {
      command,
      organization: model.organization,
      period: {
        month: model.period.month,
        start: model.period.start,
        end: model.period.end,
        partial: model.partial,
      },
      outputs: result.files.map((f) => ({ kind: outputKind(f.path), path: f.path, bytes: f.bytes })),
      figures: model.figures.map((f) => ({
        id: f.id,
        value: f.value,
        previous: f.previous,
        change: f.change,
        changeKind: f.changeKind,
      })),
      dataQuality: model.dataQuality.map((d) => ({
        kind: d.kind,
        message: d.message,
        count: d.count ?? null,
      })),
      mailedTo: result.mailedTo,
      warnings: [...result.warnings],
    },
    startedMs,
  );
}

/** The `--json` summary of a sync: what the store lacked, what was written. */
export interface SyncSummary {
  command: 'sync';
  organization: { id: string; name: string };
  store: string;
  /** The spans of days fetched (one month at most each); empty when the store held every day. */
  spans: Array<{ start: string; end: string }>;
  partitions: { written: number; unchanged: number };
  requests: number;
  timings: { totalMs: number };
}

/** What `sync --rebuild --json` prints: the organizations rebuilt and the raw spans each replayed. */
export interface RebuildSummary {
  command: 'sync';
  store: string;
  rebuilt: Array<{ orgId: string; spans: number }>;
  timings: { totalMs: number };
}

/** One line of JSON for `--json`, with the run's time. */
export function jsonSummary(
  summary: Omit<RunSummary, 'timings'> | Omit<SyncSummary, 'timings'> | Omit<RebuildSummary, 'timings'>,
  startedMs: number,
): string {
  const full = { ...summary, timings: { totalMs: Math.round(performance.now() - startedMs) } };
  return `${JSON.stringify(full)}\n`;
}

/** The closing summary: each file with its size, the run's warnings, and the run's time. */
export function summary(
  files: CommittedOutput[],
  startedMs: number,
  mailedTo: string[],
  warnings: ReadonlyArray<string> = [],
  alreadyDelivered: ReadonlyArray<string> = [],
): string {
  const lines = files.map((f) => `  ${f.path}  ${formatBytes(f.bytes)}`);
  for (const warning of warnings) lines.push(`  warning: ${warning}`);
  const seconds = ((performance.now() - startedMs) / 1000).toFixed(1);
  const sent = mailedTo.filter((t) => !alreadyDelivered.includes(t));
  const mail =
    (sent.length > 0 ? `, delivered to ${sent.join(', ')}` : '') +
    (alreadyDelivered.length > 0
      ? `, already delivered to ${alreadyDelivered.join(', ')} (not sent again)`
      : '');
  const warned = warnings.length > 0 ? `, ${warnings.length} warning(s)` : '';
  return `${lines.join('\n')}\ndone in ${seconds} s: ${files.length} output(s)${mail}${warned}\n`;
}

/** A report's result on stdout: its `--json` summary, or the closing summary unless quiet. */
export function printReportResult(
  command: 'monthly' | 'render' | 'rollup',
  result: ProduceResult,
  how: { json?: boolean; started: number; ctx: CommandContext; reporter: Reporter },
): void {
  if (how.json) how.ctx.io.stdout.write(reportSummary(command, result, how.started));
  else if (how.reporter.enabled('info'))
    how.ctx.io.stdout.write(
      summary(result.files, how.started, result.mailedTo, result.warnings, result.alreadyDelivered),
    );
}
