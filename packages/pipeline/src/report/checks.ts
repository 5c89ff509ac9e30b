/** Checks made before any work starts, so a run never fetches a month only to fail on a setting. */

import { accessSync, constants, statSync } from 'node:fs';
import { defaultChromium } from '@orgreport/render/chromium';
import { isEmailTarget } from '../deliver/send-reports.ts';
import { UsageError } from '../errors.ts';
import type { DeliverySettings, ReportFormat, ReportSettings } from '../settings.ts';

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
export function mailsReports(config: Pick<DeliverySettings, 'mailTo' | 'deliver'>): boolean {
  return config.mailTo.length > 0 || config.deliver.some(isEmailTarget);
}

/** Refuses a mail without an SMTP server and a template directory that cannot be read. */
export function checkDelivery(config: DeliverySettings & Pick<ReportSettings, 'templates'>): void {
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
export function chromiumOf(config: Pick<ReportSettings, 'chromium'>): string {
  return config.chromium ?? defaultChromium();
}

/** Refuses a PDF run when the Chromium that prints it is not an executable file. */
export function checkChromium(
  config: Pick<ReportSettings, 'chromium'>,
  formats: ReadonlySet<ReportFormat>,
): void {
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
export async function checkTemplates(
  config: Pick<ReportSettings, 'templates'> & Pick<DeliverySettings, 'mailTo' | 'deliver'>,
): Promise<void> {
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
