/**
 * The columns of a table sheet as the workbook writes them: the organization's id, the month and
 * the scope (`org_id`, `month`, `scope`) first, so that the tables of several months, organizations
 * and scopes stack into one;
 * then every one of the sheet's own columns, in every workbook alike, even when no row has a value
 * in it (a note on the Notes sheet says so). Headers are the Excel table's column names: one line
 * each, unique.
 */
import { type ReportModel, type SheetColumn, scopeText } from '@orgreport/metrics';
import { EXCEL_MONTH_FORMAT } from '../format.ts';

/** A column as the workbook writes it: a section's column, or one of the writer's own with its own number format. */
export interface WorkbookColumn<Row> extends SheetColumn<Row> {
  /** The column's number format, instead of its kind's. */
  numFmt?: string;
}

/** The first day of the report's month (`YYYY-MM-01`), which the `month` column holds as a date. */
export function monthDay(model: ReportModel): string {
  return `${model.period.month}-01`;
}

/**
 * What the report covers, on every row, so that the tables of an organization's report and of its
 * scoped reports (a cost center's, a manager's) stacked together tell their rows apart:
 * `organization`, or the scope's kind and name (`cost-center:CC-300`, `team:Platform`,
 * `manager:dana.lee@acme.test`).
 */
export function scopeKey(model: ReportModel): string {
  return model.scope ? scopeText(model.scope) : 'organization';
}

/**
 * The columns that identify the report on every row: its organization's id, its month as the
 * date of its first day shown `yyyy-mm`, and what it covers (see {@link scopeKey}).
 */
export function stackingColumns(model: ReportModel): WorkbookColumn<unknown>[] {
  const org = model.organization.id;
  const month = monthDay(model);
  const scope = scopeKey(model);
  return [
    { header: 'org_id', kind: 'text', value: () => org },
    { header: 'month', kind: 'date', numFmt: EXCEL_MONTH_FORMAT, value: () => month },
    { header: 'scope', kind: 'text', value: () => scope },
  ];
}

/** One-line, non-empty headers, numbered where a header repeats (ignoring case, as Excel does). */
function uniqueHeaders<Row>(columns: ReadonlyArray<WorkbookColumn<Row>>): WorkbookColumn<Row>[] {
  const taken = new Set<string>();
  return columns.map((column) => {
    // biome-ignore lint/suspicious/noControlCharactersInRegex: a table's column name is one line.
    const base = column.header.replace(/[\u0000-\u001f]+/g, ' ').trim() || 'column';
    let header = base;
    for (let n = 2; taken.has(header.toLowerCase()); n++) header = `${base}_${n}`;
    taken.add(header.toLowerCase());
    return header === column.header ? column : { ...column, header };
  });
}

/** The columns of a table: the stacking columns, then each of `columns`. */
export function tableColumns<Row>(
  model: ReportModel,
  columns: ReadonlyArray<WorkbookColumn<Row>>,
): WorkbookColumn<Row>[] {
  return uniqueHeaders([...(stackingColumns(model) as WorkbookColumn<Row>[]), ...columns]);
}

/**
 * The note that names the columns of a table without a value in any of its rows, with the reasons
 * their sections give (`emptyReason`); null when every column has a value somewhere, or the table
 * has no rows. `filled[j]` tells whether column j has a value in some row.
 */
export function emptyColumnsNote<Row>(
  columns: ReadonlyArray<WorkbookColumn<Row>>,
  filled: ReadonlyArray<boolean>,
  rows: number,
): string | null {
  if (rows === 0) return null;
  const byReason = new Map<string | null, string[]>();
  columns.forEach((column, j) => {
    if (filled[j]) return;
    const reason = column.emptyReason ?? null;
    byReason.set(reason, [...(byReason.get(reason) ?? []), column.header]);
  });
  if (byReason.size === 0) return null;
  const groups = [...byReason].map(([reason, headers]) =>
    reason ? `${headers.join(', ')} (${reason})` : headers.join(', '),
  );
  return `No row has a value in: ${groups.join('; ')}.`;
}
