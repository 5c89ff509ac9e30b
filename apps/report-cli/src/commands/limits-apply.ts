/**
 * `orgreport limits apply FILE [--dry-run]`: credit limits from a CSV, JSON or XLSX file of
 * `email,limit`. Every row is validated first (errors name the row), the valid ones are sent in batches
 * of at most 100, and every row is printed as updated or failed. Exit code: 1 when the server refused or
 * did not receive some entries, 2 when only rows of the file were invalid, 0 when all were applied.
 */
import { resolve } from 'node:path';
import type { ConfigFlags } from '../config/config.ts';
import { connect } from '../connect.ts';
import { type CommandContext, setUp } from '../context.ts';
import { CliError, UsageError } from '../errors.ts';
import type { LimitRowError } from '../limits/parse.ts';
import { readLimitsFile } from '../limits/read.ts';

export interface LimitsApplyOptions extends ConfigFlags {
  dryRun?: boolean;
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
  if (options.dryRun) {
    for (const r of parsed.rows) out(`valid    row ${r.row} ${r.email} ${r.limit}`);
    out(`dry run: ${parsed.rows.length} valid, ${parsed.errors.length} invalid; nothing sent`);
    if (parsed.errors.length > 0) throw new UsageError(`${file}: ${parsed.errors.length} invalid row(s)`);
    return;
  }
  let serverFailures = 0;
  let updated = 0;
  if (parsed.rows.length > 0) {
    const connection = await connect(config, reporter, ctx);
    try {
      const result = await connection.client.creditLimits.set(
        parsed.rows.map(({ email, limit }) => ({ email, limit })),
      );
      reporter.debug(`credit limits: ${result.batches} request(s)`);
      const rowOf = (index: number) => parsed.rows[index]!.row;
      for (const u of result.updated) out(`updated  row ${rowOf(u.index)} ${u.email} ${u.limit}`);
      for (const r of result.rejected)
        out(failedLine({ row: rowOf(r.index), email: r.email, message: r.error }));
      for (const n of result.notSent)
        out(failedLine({ row: rowOf(n.index), email: parsed.rows[n.index]!.email, message: n.reason }));
      updated = result.updated.length;
      serverFailures = result.rejected.length + result.notSent.length;
      if (result.error && result.updated.length === 0) throw result.error;
    } finally {
      await connection.close();
    }
  }
  const failed = parsed.errors.length + serverFailures;
  out(`${updated} updated, ${failed} failed`);
  if (serverFailures > 0) throw new CliError(`${serverFailures} credit limit(s) were not applied`);
  if (parsed.errors.length > 0)
    throw new UsageError(`${file}: ${parsed.errors.length} invalid row(s) were not applied`);
}
