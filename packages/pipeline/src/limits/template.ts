/**
 * The limits template: a workbook listing each organization user with the month's credits and an
 * empty limit column, for finance to fill and `limits apply` to read.
 */
import { basename, dirname } from 'node:path';
import type { Snapshot } from '@orgreport/api-core';
import type { RunContext } from '../context.ts';
import { UsageError } from '../errors.ts';
import { OutputSet } from '../output/atomic.ts';
import type { Reporter } from '../reporter.ts';
import type { Settings } from '../settings.ts';
import { type AcquireFlags, acquireSnapshot } from '../snapshot/acquire.ts';

/** One row of the template: a user and their credits in the month. */
export interface LimitTemplateRow {
  email: string;
  name: string;
  credits: number;
}

/** Sums the period's credits per user e-mail; users without activity get 0 (every seat is listed). */
export function limitTemplateRows(snapshot: Snapshot): LimitTemplateRow[] {
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

/** Fetches the month and writes the limits template workbook at `file` (an absolute `.xlsx` path). */
export async function writeLimitsTemplateFile(
  config: Settings,
  request: AcquireFlags,
  file: string,
  ctx: RunContext,
  reporter: Reporter,
): Promise<{ users: number }> {
  if (!/\.xlsx$/i.test(file)) throw new UsageError(`--out ${basename(file)}: expected a .xlsx file name`);
  const snapshot = await acquireSnapshot(request, config, reporter, ctx);
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
  return { users: rows.length };
}
