/**
 * The finance workbook, written with ExcelJS's streaming writer: each configured section writes its
 * sheets (tables, or a sheet of figures) in section order, then come the writer's own `Rates` and
 * `Notes` (own-sheets.ts). The built-in sections' are `Summary` (summary), `Organizations` (rollup),
 * `Trend` (trend), `Daily` and `Weekly` (usage), `Users`, `User languages` and `Dormant seats`
 * (adoption), `Models`, `Tools` and `MCP spellings` (tools), `Readiness` and `Criteria` (readiness),
 * `Teams`, `Chargeback`, `Controls`, `Definitions`, `Data quality` and `Data quality details`.
 *
 * Workbooks stack: every workbook of the same sections has the same sheets and the same columns,
 * whatever the month, the scope or the data. A section without figures in this report (a trend
 * without a store, a rollup's organizations in an ordinary report, teams without a directory) writes
 * its sheets as empty tables, and a column without a value in any row stays, empty; the Notes sheet
 * says so. Every sheet is an Excel table named after it (`tbl_users`) whose rows start with `org_id`,
 * `month` (the month's first day as a date, shown `yyyy-mm`) and `scope` (`organization`, or the
 * scoped report's `<kind>:<name>`, as `cost-center:CC-300`).
 */

import {
  type FiguresSheet,
  type ReportModel,
  type ReportSection,
  resolveSections,
  sectionData,
} from '@orgreport/metrics';
import { reportTitle } from '../internal/report-view.ts';
import { type DataSheetPart, sheetParts, writeDataSheet } from './data-sheet.ts';
import {
  NOTE_COLUMNS,
  NOTES_SHEET,
  type NoteRow,
  RATE_COLUMNS,
  RATES_SHEET,
  rateRows,
} from './own-sheets.ts';
import { SheetNames } from './sheet-names.ts';
import { type DailySheetRef, writeSummarySheet } from './summary-sheet.ts';
import { emptyColumnsNote, tableColumns, type WorkbookColumn } from './table-columns.ts';
import { TableNames } from './table-names.ts';
import { XlsxPackage } from './xlsx-package.ts';

/** Options of {@link writeWorkbook}. */
export interface WorkbookOptions {
  /** Price of one credit; adds cost columns and a cost row (overrides the model's pricing). */
  pricePerCredit?: number;
  /** Currency of the price (default: the model's, else EUR). */
  currency?: string;
  /** Rows per sheet including the header (tests only; Excel's limit applies otherwise). */
  maxRowsPerSheet?: number;
  /** The report's sections in order (default: the built-in ones): each writes its sheets. */
  sections?: ReadonlyArray<ReportSection>;
}

/** A sheet of the workbook with its names claimed, ready to write. */
type PlannedSheet =
  | { figures: FiguresSheet; part: { sheet: string; table: string } }
  | { parts: DataSheetPart[]; columns: WorkbookColumn<unknown>[]; rows: readonly unknown[] };

/** Why a built-in section can have no figures in a report (the note of its empty sheets). */
const NO_DATA_REASONS: Readonly<Record<string, string>> = {
  trend: 'a trend is read from a store, with orgreport monthly --store',
  rollup: 'only a rollup of several organizations has them',
  teams: 'teams come from a people directory, given with --directory',
  chargeback: 'cost centers come from a people directory, given with --directory',
};

/** The note of a sheet whose section has no figures in this report. */
function noDataNote(section: ReportSection): string {
  const reason = NO_DATA_REASONS[section.id];
  return `No rows: the section "${section.title}" has no figures in this report${reason ? ` (${reason})` : ''}.`;
}

/** The note of a table that continues on further sheets. */
function continuedNote(parts: ReadonlyArray<DataSheetPart>): string {
  const rest = parts.slice(1);
  return `The table continues on ${rest.map((p) => `${p.sheet} (${p.table})`).join(', ')}: a sheet holds at most ${parts[0]!.end - parts[0]!.start} rows.`;
}

/** The title, subject, author and dates of the workbook's document properties. */
function setProperties(xlsx: XlsxPackage, model: ReportModel): void {
  const { workbook } = xlsx;
  const partial = model.partial ? ' (partial)' : '';
  workbook.title = `orgreport — ${model.organization.name} — ${model.period.month}${partial}`;
  workbook.subject = reportTitle(model);
  workbook.description = `Organization ${model.organization.id}, ${model.period.start} to ${model.period.end}${partial}.`;
  workbook.keywords = `orgreport ${model.organization.id} ${model.period.month}`;
  workbook.category = 'Monthly report';
  workbook.creator = 'orgreport';
  workbook.lastModifiedBy = 'orgreport';
  xlsx.company = model.organization.name;
  // The generation instant, not the clock, so the same model gives the same workbook properties.
  const generated = new Date(model.generatedAt);
  if (!Number.isNaN(generated.getTime())) {
    workbook.created = generated;
    workbook.modified = generated;
  }
}

/**
 * Where the table of the daily series is, for the formulas of a sheet of figures: the first table
 * sheet whose rows are the model's daily series, written on one sheet; null when there is none.
 */
function dailySheetRef(sheets: ReadonlyArray<PlannedSheet>, model: ReportModel): DailySheetRef | null {
  for (const sheet of sheets) {
    if (!('rows' in sheet) || sheet.rows !== model.daily) continue;
    if (sheet.parts.length !== 1) return null;
    const columns = Object.fromEntries(sheet.columns.map((c, i) => [c.header, i + 1]));
    return { sheet: sheet.parts[0]!.sheet, rows: model.daily.length, columns };
  }
  return null;
}

/** Writes the report workbook to `file`. */
export async function writeWorkbook(
  model: ReportModel,
  file: string,
  options: WorkbookOptions = {},
): Promise<void> {
  const price = options.pricePerCredit ?? model.pricing?.pricePerCredit ?? null;
  const currency = options.currency ?? model.pricing?.currency ?? 'EUR';
  const pricing = price === null ? null : { pricePerCredit: price, currency };
  // Sheets read the model with the workbook's pricing (its cost columns follow it).
  const priced: ReportModel = { ...model, pricing };

  // Every name is claimed before anything is written, so that a sheet of figures knows where the
  // daily series is, whatever the sheets' order. The writer's own sheets claim theirs first: their
  // names stay the same whatever a section calls its sheets.
  const names = { sheets: new SheetNames(), tables: new TableNames() };
  const own = (title: string, rows: number) => sheetParts(title, rows, names, options.maxRowsPerSheet);
  const rates = rateRows(model, price, currency);
  const ratesParts = own(RATES_SHEET, rates.length);
  const notesName = names.sheets.claim(NOTES_SHEET);
  const notesTable = names.tables.claim(notesName);
  const notes: NoteRow[] = [];

  const planned = resolveSections(options.sections).flatMap((section) => {
    // A section that computes figures and has none (a trend without a store, a rollup's organizations
    // in an ordinary report) writes its sheets all the same, as empty tables: the workbooks stack.
    const empty = Boolean(section.compute) && sectionData(model, section) === null;
    return (section.sheets ?? []).map((sheet): PlannedSheet => {
      if ('figures' in sheet) {
        const name = names.sheets.claim(sheet.name);
        if (empty) notes.push({ sheet: name, note: noDataNote(section) });
        return { figures: sheet, part: { sheet: name, table: names.tables.claim(name) } };
      }
      const rows = empty ? [] : (sheet.rows(priced) as readonly unknown[]);
      const columns = tableColumns(priced, sheet.columns(priced)) as WorkbookColumn<unknown>[];
      const parts = sheetParts(sheet.name, rows.length, names, options.maxRowsPerSheet);
      if (empty) notes.push({ sheet: parts[0]!.sheet, note: noDataNote(section) });
      return { parts, columns, rows };
    });
  });
  const daily = dailySheetRef(planned, priced);

  const xlsx = new XlsxPackage(file);
  setProperties(xlsx, model);
  for (const sheet of planned) {
    if ('figures' in sheet) {
      const figures = { ...priced, figures: [...sheet.figures.figures(priced)] };
      await writeSummarySheet(xlsx, sheet.part, figures, daily, pricing);
      continue;
    }
    const filled = await writeDataSheet(xlsx, sheet.parts, sheet.columns, sheet.rows, { currency });
    const first = sheet.parts[0]!.sheet;
    if (sheet.parts.length > 1) notes.push({ sheet: first, note: continuedNote(sheet.parts) });
    const emptyColumns = emptyColumnsNote(sheet.columns, filled, sheet.rows.length);
    if (emptyColumns) notes.push({ sheet: first, note: emptyColumns });
  }
  await writeDataSheet(xlsx, ratesParts, tableColumns(priced, RATE_COLUMNS), rates, { currency });
  const notesParts = [{ sheet: notesName, table: notesTable, start: 0, end: notes.length }];
  await writeDataSheet(xlsx, notesParts, tableColumns(priced, NOTE_COLUMNS), notes, { currency });
  await xlsx.commit();
}
