/**
 * The columns of a table sheet as the workbook writes them: the organization's id and the month
 * (`org_id`, `month`) first, so that the tables of several months and organizations stack into one;
 * then the sheet's own columns, less those without a value in any row, which a note under the table
 * names with the reason. Headers are the Excel table's column names: one line each, unique.
 */
import type { ReportModel, SheetColumn } from '@orgreport/metrics';
import { cellValue } from './cell-values.ts';

/** A column left out of a table as no row has a value in it. */
export interface OmittedColumn {
  header: string;
  /** Why it can be empty (the column's `emptyReason`); null when the section gave none. */
  reason: string | null;
}

/** The columns a table is written with, and those left out. */
export interface TableColumns<Row> {
  columns: SheetColumn<Row>[];
  omitted: OmittedColumn[];
}

/** The columns that identify the report on every row: its organization's id and its month (YYYY-MM). */
export function stackingColumns(model: ReportModel): SheetColumn<unknown>[] {
  return [
    { header: 'org_id', kind: 'text', value: () => model.organization.id },
    { header: 'month', kind: 'text', value: () => model.period.month },
  ];
}

function hasValue<Row>(column: SheetColumn<Row>, rows: ReadonlyArray<Row>): boolean {
  return rows.some((row) => cellValue(column.value(row), column.kind) !== null);
}

/** One-line, non-empty headers, numbered where a header repeats (ignoring case, as Excel does). */
function uniqueHeaders<Row>(columns: ReadonlyArray<SheetColumn<Row>>): SheetColumn<Row>[] {
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

/**
 * The columns of a table of `rows`: the stacking columns, then each of `columns` that has a value
 * in some row. A table without rows keeps all its columns (there is nothing to leave out for).
 */
export function tableColumns<Row>(
  model: ReportModel,
  columns: ReadonlyArray<SheetColumn<Row>>,
  rows: ReadonlyArray<Row>,
): TableColumns<Row> {
  const kept: SheetColumn<Row>[] = [];
  const omitted: OmittedColumn[] = [];
  for (const column of columns) {
    if (rows.length === 0 || hasValue(column, rows)) kept.push(column);
    else omitted.push({ header: column.header, reason: column.emptyReason ?? null });
  }
  return { columns: uniqueHeaders([...stackingColumns(model), ...kept]), omitted };
}

/** The note under a table that names the columns left out and why; null when none was. */
export function omittedNote(omitted: ReadonlyArray<OmittedColumn>): string | null {
  if (omitted.length === 0) return null;
  const byReason = new Map<string | null, string[]>();
  for (const { header, reason } of omitted) byReason.set(reason, [...(byReason.get(reason) ?? []), header]);
  const groups = [...byReason].map(([reason, headers]) =>
    reason ? `${headers.join(', ')} (${reason})` : headers.join(', '),
  );
  return `Columns left out, as no row has a value in them: ${groups.join('; ')}.`;
}
