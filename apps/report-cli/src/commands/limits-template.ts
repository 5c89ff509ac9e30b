/**
 * `orgreport limits template --month M --out FILE.xlsx`: a workbook listing each organization user
 * with the month's credits and an empty limit column, for finance to fill and `limits apply` to read.
 */
import { basename, dirname, resolve } from 'node:path';
import { UsageError } from '@orgreport/pipeline/errors';
import { OutputSet } from '@orgreport/pipeline/output';
import { type AcquireFlags, acquireSnapshot } from '@orgreport/pipeline/snapshot';
import type { ConfigFlags } from '../config/config.ts';
import { type CommandContext, setUp } from '../context.ts';

export interface LimitsTemplateOptions extends ConfigFlags, AcquireFlags {
  out: string;
}

/** One row of the template: a user and their credits in the month. */
export interface LimitTemplateRow {
  email: string;
  name: string;
  credits: number;
}

/** Sums the period's credits per user e-mail; users without activity get 0 (every seat is listed). */
export function limitTemplateRows(snapshot: Awaited<ReturnType<typeof acquireSnapshot>>): LimitTemplateRow[] {
  const { start, end } = snapshot.manifest.period;
  const credits = new Map<string, number>();
  const cols = snapshot.userDays;
  for (let i = 0; i < cols.user_id.length; i++) {
    const date = cols.date[i]!;
    if (date < start || date > end) continue;
    const id = cols.user_id[i]!;
    credits.set(id, (credits.get(id) ?? 0) + (cols.billable_tokens[i] ?? 0));
  }
  return snapshot.orgUsers
    .filter((u) => u.email)
    .map((u) => ({
      email: u.email!,
      name: [u.firstName, u.lastName].filter(Boolean).join(' '),
      credits: credits.get(u.id) ?? 0,
    }))
    .sort((a, b) => b.credits - a.credits || a.email.localeCompare(b.email));
}

/** Fetches the month and writes the limits template workbook. */
export async function limitsTemplate(options: LimitsTemplateOptions, ctx: CommandContext): Promise<void> {
  const { config, reporter } = setUp(options, ctx);
  const file = resolve(ctx.io.cwd, options.out);
  if (!/\.xlsx$/i.test(file)) throw new UsageError(`--out ${options.out}: expected a .xlsx file name`);
  const snapshot = await acquireSnapshot(options, config, reporter, ctx);
  const rows = limitTemplateRows(snapshot);
  const { writeLimitsTemplate } = await import('@orgreport/render');
  // Written under a temporary name and renamed into place: a failure leaves no half-written workbook.
  const outputs = await new OutputSet(dirname(file)).open();
  try {
    await writeLimitsTemplate(rows, outputs.file(basename(file)), { month: snapshot.manifest.period.month });
    await outputs.commit();
  } catch (error) {
    await outputs.abort();
    throw error;
  }
  reporter.info(`limits template: ${file} (${rows.length} users)`);
}
