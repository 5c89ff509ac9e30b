/**
 * The finance workbook, written with ExcelJS's streaming writer: each configured section writes its
 * sheets (tables, or a sheet of figures) in section order. The built-in sections' are `Summary`
 * (summary), `Daily` and `Weekly` (usage), `Users`, `User languages` and `Dormant seats` (adoption),
 * `Models`, `Tools` and `MCP spellings` (tools), `Readiness` and `Criteria` (readiness), `Controls`,
 * `Definitions`, `Data quality` and `Data quality details`; `Organizations` (rollup) and `Trend`
 * (trend) when their sections have figures. Every sheet is an Excel table named after
 * it (`tbl_users`); a table sheet's rows start with `org_id` and `month`, so that the workbooks of
 * several months and organizations stack.
 */

import {
  type FiguresSheet,
  type ReportModel,
  type ReportSection,
  resolveSections,
  type SheetColumn,
  sectionData,
} from '@orgreport/metrics';
import { reportTitle } from '../internal/report-view.ts';
import { type DataSheetPart, sheetParts, writeDataSheet } from './data-sheet.ts';
import { SheetNames } from './sheet-names.ts';
import { type DailySheetRef, writeSummarySheet } from './summary-sheet.ts';
import { omittedNote, tableColumns } from './table-columns.ts';
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
  | {
      parts: DataSheetPart[];
      columns: SheetColumn<unknown>[];
      rows: readonly unknown[];
      note: string | null;
    };

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
  // daily series is, whatever the sheets' order.
  const names = { sheets: new SheetNames(), tables: new TableNames() };
  const planned = resolveSections(options.sections)
    // A section that computes figures and has none (a trend without a store, a rollup's organizations
    // in an ordinary report) has no sheet, as it has no page.
    .filter((section) => !(section.compute && sectionData(model, section) === null))
    .flatMap((section) => section.sheets ?? [])
    .map((sheet): PlannedSheet => {
      if ('figures' in sheet) {
        const name = names.sheets.claim(sheet.name);
        return { figures: sheet, part: { sheet: name, table: names.tables.claim(name) } };
      }
      const rows = sheet.rows(priced) as readonly unknown[];
      const { columns, omitted } = tableColumns(priced, sheet.columns(priced), rows);
      const parts = sheetParts(sheet.name, rows.length, names, options.maxRowsPerSheet);
      return { parts, columns, rows, note: omittedNote(omitted) };
    });
  const daily = dailySheetRef(planned, priced);

  const xlsx = new XlsxPackage(file);
  setProperties(xlsx, model);
  for (const sheet of planned) {
    if ('figures' in sheet) {
      const figures = { ...priced, figures: [...sheet.figures.figures(priced)] };
      await writeSummarySheet(xlsx, sheet.part, figures, daily, pricing);
    } else {
      await writeDataSheet(xlsx, sheet.parts, sheet.columns, sheet.rows, { currency, note: sheet.note });
    }
  }
  await xlsx.commit();
}
