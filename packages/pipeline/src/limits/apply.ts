/**
 * Credit limits applied from a file (`orgreport limits apply`), each accepted limit recorded in the
 * store when there is one (the API cannot read limits back).
 */
import { resolve } from 'node:path';
import { type CreditLimitUpdated, type OrgClient, yesterdayUtc } from '@orgreport/api-core';
import { connect } from '../connect.ts';
import type { RunContext } from '../context.ts';
import { CliError, exitCodeOf, messageOf, UsageError } from '../errors.ts';
import type { Reporter } from '../reporter.ts';
import { configuredOrgId, type Settings } from '../settings.ts';
import type { LimitRowError } from './parse.ts';
import { readLimitsFile } from './read.ts';
import { sendInBatches } from './send.ts';

/**
 * With a store: what keeps each batch the API accepted in `_limits/org_id=<id>/limits.jsonl`. The
 * store is opened (made when missing) and the organization id found before anything is sent, so
 * that a store that cannot take the records stops the run while nothing is set. The id is the
 * configured one, else the analytics `meta.org_id` of one day of `/activity` (as a sync finds it).
 */
async function limitsRecorder(
  config: Settings,
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

/** What to apply: the file and whether to send. */
export interface LimitsApplyRequest {
  /** The CSV, JSON or XLSX file of `email,limit`, as the user named it (relative to the working folder). */
  file: string;
  /** Validate and report each row; send nothing. */
  dryRun?: boolean;
}

/**
 * Validates and applies the limits of a file: every row validated first (errors name the row),
 * the valid ones sent in batches of at most 100; `out` receives a line per row (set, failed, valid
 * on a dry run) and the closing count. A row with an e-mail and an empty limit leaves that user as
 * they are (the API cannot remove a limit). With `settings.store`, every limit the API accepted is
 * recorded in it, batch by batch. Throws when some were not applied: a failure when the server
 * refused or did not receive some, an input error when only rows of the file were invalid.
 */
export async function applyLimitsFile(
  config: Settings,
  request: LimitsApplyRequest,
  ctx: RunContext,
  reporter: Reporter,
  out: (line: string) => void,
): Promise<void> {
  const { file } = request;
  const parsed = await readLimitsFile(resolve(ctx.io.cwd, file), file);
  for (const e of parsed.errors) out(failedLine(e));
  for (const r of parsed.left) reporter.debug(`left     row ${r.row} ${r.email}: the limit is empty`);
  const left = `${parsed.left.length} left as they are (empty limit)`;
  if (request.dryRun) {
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
  // The last line counts every row not applied: the service's refusals and the file's invalid rows.
  const invalid = parsed.errors.length > 0 ? ` (and ${file}: ${parsed.errors.length} invalid row(s))` : '';
  if (serverFailures > 0) throw new CliError(`${serverFailures} credit limit(s) were not applied${invalid}`);
  if (parsed.errors.length > 0)
    throw new UsageError(`${file}: ${parsed.errors.length} invalid row(s) were not applied`);
}
