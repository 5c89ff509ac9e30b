/** Checks made before any work starts, so a run never fetches a month only to fail on a setting. */

import { accessSync, constants, statSync } from 'node:fs';
import type { ReportModel } from '@orgreport/metrics';
import { defaultChromium } from '@orgreport/render/chromium';
import { isEmailTarget } from '../deliver/send-reports.ts';
import { UsageError } from '../errors.ts';
import type { CommittedOutput } from '../output/atomic.ts';
import { formatBytes } from '../reporter.ts';
import type { ReportFormat, Settings } from '../settings.ts';

/** Why `path` is not a usable directory or executable file (a code such as ENOENT), or undefined. */
function pathProblem(path: string, kind: 'readable directory' | 'executable file'): string | undefined {
  try {
    const stats = statSync(path);
    if (kind === 'readable directory' ? !stats.isDirectory() : !stats.isFile()) {
      return kind === 'readable directory' ? 'not a directory' : 'not a file';
    }
    accessSync(path, kind === 'readable directory' ? constants.R_OK | constants.X_OK : constants.X_OK);
    return undefined;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code ?? (error as Error).message;
  }
}

/** True when the run mails: `--email` addresses, or e-mail targets among `--deliver`. */
export function mailsReports(config: Settings): boolean {
  return config.mailTo.length > 0 || config.deliver.some(isEmailTarget);
}

/** Refuses a mail without an SMTP server and a template directory that cannot be read. */
export function checkDelivery(config: Settings): void {
  const mailing = mailsReports(config);
  const what = config.mailTo.length > 0 ? '--email' : 'an e-mail address in --deliver';
  if (mailing && !config.smtpUrl) {
    throw new UsageError(
      `${what} needs an SMTP server: set ORGREPORT_SMTP_URL, --smtp-url or "smtpUrl" in the config file`,
    );
  }
  if (mailing && !config.mailFrom) {
    throw new UsageError(
      `${what} needs a sender address: set --mail-from, ORGREPORT_MAIL_FROM or "mailFrom" in the config file (the SMTP user is used when it is an e-mail address)`,
    );
  }
  const problem = config.templates && pathProblem(config.templates, 'readable directory');
  if (problem) throw new UsageError(`--templates ${config.templates}: not a readable directory (${problem})`);
}

/** The Chromium of a run: the configured one, else the renderer's default (its headless shell, else Chromium). */
export function chromiumOf(config: Settings): string {
  return config.chromium ?? defaultChromium();
}

/** Refuses a PDF run when the Chromium that prints it is not an executable file. */
export function checkChromium(config: Settings, formats: ReadonlySet<ReportFormat>): void {
  const chromium = chromiumOf(config);
  const problem = formats.has('pdf') && pathProblem(chromium, 'executable file');
  if (problem) {
    throw new UsageError(
      `no Chromium at ${chromium} (${problem}) to print the PDF: install it (bash scripts/setup.sh, ` +
        'or apt-get install chromium-headless-shell), set ORGREPORT_CHROMIUM or "chromium" in the config file to a Chromium ' +
        'or Chrome binary, or leave pdf out of --formats',
    );
  }
}

/**
 * Parses every file of the `--templates` directory the render would use (layout, partials, styles,
 * and the mail templates when mailing), so a broken template is an input error (exit 2) naming the
 * file, raised before anything is fetched.
 * Only the template checker is loaded, and only when a template directory is configured.
 */
export async function checkTemplates(config: Settings): Promise<void> {
  if (!config.templates) return;
  if (mailsReports(config)) {
    const { checkMailTemplates, MessageTemplateError } = await import('@orgreport/render/message');
    try {
      await checkMailTemplates(config.templates);
    } catch (error) {
      if (error instanceof MessageTemplateError) throw new UsageError(error.message, { cause: error });
      throw error;
    }
  }
  // The small subpath: the renderer itself (about a second to load) is not needed to check templates.
  const { validateTemplateDirs, TemplateDirectoryError } = await import('@orgreport/render/templates');
  try {
    await validateTemplateDirs([config.templates]);
  } catch (error) {
    if (error instanceof TemplateDirectoryError)
      throw new UsageError(`--templates: ${error.message}`, { cause: error });
    throw error;
  }
}

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
