/** Checks made before any work starts, so a run never fetches a month only to fail on a setting. */
import { accessSync, constants, statSync } from 'node:fs';
import type { Config } from '../config/config.ts';
import { UsageError } from '../errors.ts';
import type { CommittedOutput } from '../output/atomic.ts';
import { formatBytes } from '../reporter.ts';

/** Refuses a mail without an SMTP server and a template directory that cannot be read. */
export function checkDelivery(config: Config): void {
  if (config.mailTo.length > 0 && !config.smtpUrl) {
    throw new UsageError(
      '--email needs an SMTP server: set ORGREPORT_SMTP_URL, --smtp-url or "smtpUrl" in the config file',
    );
  }
  if (config.templates) {
    try {
      if (!statSync(config.templates).isDirectory()) throw new Error('not a directory');
      accessSync(config.templates, constants.R_OK | constants.X_OK);
    } catch (error) {
      const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
      throw new UsageError(`--templates ${config.templates}: not a readable directory (${reason})`);
    }
  }
}

/** The closing summary: each file with its size, and the run's time. */
export function summary(files: CommittedOutput[], startedMs: number, mailedTo: string[]): string {
  const lines = files.map((f) => `  ${f.path}  ${formatBytes(f.bytes)}`);
  const seconds = ((performance.now() - startedMs) / 1000).toFixed(1);
  const mail = mailedTo.length > 0 ? `, mailed to ${mailedTo.join(', ')}` : '';
  return `${lines.join('\n')}\ndone in ${seconds} s: ${files.length} output(s)${mail}\n`;
}
