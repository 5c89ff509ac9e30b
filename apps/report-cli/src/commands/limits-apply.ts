/**
 * `orgreport limits apply FILE [--dry-run]`: credit limits from a CSV, JSON or XLSX file of
 * `email,limit`. Every row is validated first (errors name the row), the valid ones are sent in batches
 * of at most 100, and each is printed as set or failed. A row with an e-mail and an empty limit leaves
 * that user as they are (nothing is sent: the API cannot remove a limit); those rows are counted, as
 * "left". Exit code: 1 when the server refused or did not receive some entries, 2 when only rows of
 * the file were invalid, 0 when nothing failed.
 * With a store (`--store`), every limit the API accepted is recorded in it, batch by batch (the API
 * cannot read limits back).
 */
import { resolve } from 'node:path';
import { type CreditLimitUpdated, type OrgClient, yesterdayUtc } from '@orgreport/api-core';
import { connect } from '@orgreport/pipeline/connect';
import { CliError, exitCodeOf, messageOf, UsageError } from '@orgreport/pipeline/errors';
import type { LimitRowError } from '@orgreport/pipeline/limits';
import { readLimitsFile, sendInBatches } from '@orgreport/pipeline/limits';
import { configuredOrgId } from '@orgreport/pipeline/settings';
import type { Config, ConfigFlags } from '../config/config.ts';
import { type CommandContext, setUp } from '../context.ts';

export interface LimitsApplyOptions extends ConfigFlags {
  /** The store that records the limits set (or ORGREPORT_STORE / config `store`). */
  store?: string;
  dryRun?: boolean;
}

/**
 * With a store: what keeps each batch the API accepted in `_limits/org_id=<id>/limits.jsonl`. The
 * store is opened (made when missing) and the organization id found before anything is sent, so
 * that a store that cannot take the records stops the run while nothing is set. The id is the
 * configured one, else the analytics `meta.org_id` of one day of `/activity` (as a sync finds it).
 */
async function limitsRecorder(
  config: Config,
  store: string,
  client: OrgClient,
): Promise<(accepted: CreditLimitUpdated[]) => Promise<void>> {
  const { openStore, recordLimits } = await import('@orgreport/store');
  await openStore(store, { create: true });
  const day = yesterdayUtc(config.now);
  const orgId =
    configuredOrgId(config) ??
    (await client.analytics.activity({ startDate: day, endDate: day }).then(
      (response) => response.meta.org_id,
      (error: unknown) => {
        throw new CliError(
          `nothing sent: the limits are recorded in the store ${store} by organization id, which could not be read from the API (give the organization's "id" in the config file, or leave out the store): ${messageOf(error)}`,
          exitCodeOf(error),
          { cause: error },
        );
      },
    ));
  return (accepted) => {
    const at = config.now().toISOString();
    return recordLimits(
      store,
      orgId,
      accepted.map(({ email, limit }) => ({ day: config.today, at, email, limit })),
    );
  };
}

function failedLine(e: LimitRowError): string {
  return `failed   row ${e.row}${e.email ? ` ${e.email}` : ''}: ${e.message}`;
}

/** Validates and applies the limits of `file`. */
export async function limitsApply(
  file: string,
  options: LimitsApplyOptions,
  ctx: CommandContext,
): Promise<void> {
  const { config, reporter } = setUp(options, ctx);
  const parsed = await readLimitsFile(resolve(ctx.io.cwd, file), file);
  const out = (line: string) => ctx.io.stdout.write(`${line}\n`);
  for (const e of parsed.errors) out(failedLine(e));
  for (const r of parsed.left) reporter.debug(`left     row ${r.row} ${r.email}: the limit is empty`);
  const left = `${parsed.left.length} left as they are (empty limit)`;
  if (options.dryRun) {
    for (const r of parsed.rows) out(`valid    row ${r.row} ${r.email} ${r.limit}`);
    out(`dry run: ${parsed.rows.length} to set, ${left}, ${parsed.errors.length} invalid; nothing sent`);
    if (parsed.errors.length > 0) throw new UsageError(`${file}: ${parsed.errors.length} invalid row(s)`);
    return;
  }
  let serverFailures = 0;
  let set = 0;
  /** The rows the API accepted that could not be kept in the store, and why. */
  let unrecorded: { rows: number[]; error: unknown } | undefined;
  if (parsed.rows.length > 0) {
    const connection = await connect(config, reporter, ctx);
    try {
      const record = config.store ? await limitsRecorder(config, config.store, connection.client) : undefined;
      const result = await sendInBatches(connection.client, parsed.rows, async (accepted) => {
        try {
          await record?.(accepted);
        } catch (error) {
          unrecorded = { rows: accepted.map((u) => parsed.rows[u.index]!.row), error };
          throw error;
        }
      });
      reporter.debug(`credit limits: ${result.batches} request(s)`);
      const rowOf = (index: number) => parsed.rows[index]!.row;
      for (const u of result.updated) out(`set      row ${rowOf(u.index)} ${u.email} ${u.limit}`);
      for (const r of result.rejected)
        out(failedLine({ row: rowOf(r.index), email: r.email, message: r.error }));
      for (const n of result.notSent)
        out(failedLine({ row: rowOf(n.index), email: parsed.rows[n.index]!.email, message: n.reason }));
      set = result.updated.length;
      serverFailures = result.rejected.length + result.notSent.length;
      if (result.error && result.updated.length === 0) throw result.error;
    } finally {
      await connection.close();
    }
  }
  const failed = parsed.errors.length + serverFailures;
  out(`${set} set, ${left}, ${failed} failed`);
  if (unrecorded) {
    throw new CliError(
      `the limits of row(s) ${unrecorded.rows.join(', ')} were set but could not be recorded in the store ${config.store}, so the rows after them were not sent: ${messageOf(unrecorded.error)}`,
    );
  }
  if (serverFailures > 0) throw new CliError(`${serverFailures} credit limit(s) were not applied`);
  if (parsed.errors.length > 0)
    throw new UsageError(`${file}: ${parsed.errors.length} invalid row(s) were not applied`);
}
