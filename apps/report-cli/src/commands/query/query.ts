/** `orgreport query`: SQL over a store's datasets, printed as a table, CSV or JSON lines. */

import { UsageError } from '@orgreport/pipeline/errors';
import { positiveInteger } from '@orgreport/pipeline/input';
import { requireStore } from '@orgreport/pipeline/settings';
import type { ConfigFlags } from '../../config/config.ts';
import { type CommandContext, setUp } from '../../context.ts';
import { alignColumns } from '../../print/columns.ts';

export const QUERY_FORMATS = ['table', 'csv', 'json'] as const;
type QueryFormat = (typeof QUERY_FORMATS)[number];

export interface QueryOptions extends ConfigFlags {
  format?: string;
  maxRows?: string;
}

/** Rows printed at most unless `--max-rows` says otherwise: a terminal, not an export. */
const DEFAULT_MAX_ROWS = 10_000;
/** Widest cell of the table format; longer text ends with `…`. */
const TABLE_CELL = 60;

function text(value: unknown): string {
  if (value === null || value === undefined) return '';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** A CSV field (RFC 4180): quoted when it holds a comma, a quote or a line break. */
function csvField(value: unknown): string {
  const t = text(value);
  return /[",\r\n]/.test(t) ? `"${t.replaceAll('"', '""')}"` : t;
}

function table(columns: string[], rows: unknown[][], numeric: boolean[]): string {
  const cells = [columns, ...rows.map((r) => r.map((v) => text(v).replace(/\s+/g, ' ')))].map((r) =>
    r.map((c) => (c.length > TABLE_CELL ? `${c.slice(0, TABLE_CELL - 1)}…` : c)),
  );
  return alignColumns(cells, { right: numeric, header: true })
    .map((l) => `${l}\n`)
    .join('');
}

/** Runs `sql` against the store of `--store` and prints its rows. */
export async function query(sql: string, options: QueryOptions, ctx: CommandContext): Promise<void> {
  const { config, reporter } = setUp(options, ctx);
  const folder = requireStore(config);
  const format = (options.format ?? 'table') as QueryFormat;
  if (!QUERY_FORMATS.includes(format)) {
    throw new UsageError(
      `--format: expected one of ${QUERY_FORMATS.join(', ')} (got ${JSON.stringify(options.format)})`,
    );
  }
  const maxRows = positiveInteger(options.maxRows, '--max-rows') ?? DEFAULT_MAX_ROWS;
  if (sql.trim() === '')
    throw new UsageError('the SQL is empty: give a query such as "SELECT count(*) FROM user_days"');
  const { StoreQuery } = await import('@orgreport/store');
  const store = await StoreQuery.open(folder);
  try {
    // The rows past --max-rows are counted, not held: a `SELECT *` of a large store gives millions.
    const result = await store.run(sql, { maxRows });
    const { rows } = result;
    if (result.rowCount > maxRows) {
      reporter.warn(`${result.rowCount} rows; the first ${maxRows} printed (--max-rows)`);
    }
    const out = ctx.io.stdout;
    if (format === 'json') {
      for (const row of rows) {
        out.write(
          `${JSON.stringify(Object.fromEntries(result.columns.map((c, i) => [c, row[i] ?? null])))}\n`,
        );
      }
    } else if (format === 'csv') {
      out.write(`${result.columns.map(csvField).join(',')}\r\n`);
      for (const row of rows) out.write(`${row.map(csvField).join(',')}\r\n`);
    } else {
      const numeric = result.types.map((t) => /INT|DOUBLE|FLOAT|DECIMAL|REAL/.test(t));
      out.write(table(result.columns, rows, numeric));
      reporter.info(`(${result.rowCount} row${result.rowCount === 1 ? '' : 's'})`);
    }
  } finally {
    store.close();
  }
}
