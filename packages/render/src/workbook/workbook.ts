/**
 * The finance workbook, written with ExcelJS's streaming writer: each configured section writes its
 * sheets (tables, or a sheet of figures) in section order. The built-in sections' are `Summary`
 * (summary), `Daily` and `Weekly` (usage), `Users` and `Dormant seats` (adoption), `Models` and
 * `Tools` (tools), `Readiness` and `Criteria` (readiness), `Controls`, `Definitions` and `Data quality`.
 */

import {
  type FiguresSheet,
  type ReportModel,
  type ReportSection,
  resolveSections,
  type TableSheet,
} from '@orgreport/metrics';
import ExcelJS from 'exceljs';
import { columnLetter, type DataSheetOptions, writeDataSheet } from './data-sheet.ts';
import { SheetNames } from './sheet-names.ts';
import { type DailySheetRef, writeSummarySheet } from './summary-sheet.ts';

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

/**
 * Where the workbook's table of the daily series is, for the formulas of a sheet of figures: the
 * first table sheet of the sections whose rows are the model's daily series; null when none is.
 */
function dailySheetRef(
  sheets: ReadonlyArray<TableSheet<unknown> | FiguresSheet>,
  model: ReportModel,
): DailySheetRef | null {
  for (const sheet of sheets) {
    if (!('rows' in sheet) || sheet.rows(model) !== model.daily) continue;
    const columns = sheet.columns(model).map((c, i) => [c.header, columnLetter(i + 1)]);
    return { sheet: sheet.name, rows: model.daily.length, columns: Object.fromEntries(columns) };
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
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    filename: file,
    useStyles: true,
    useSharedStrings: true,
  });
  workbook.creator = 'orgreport';
  // The generation instant, not the clock, so the same model gives the same workbook properties.
  const generated = new Date(model.generatedAt);
  if (!Number.isNaN(generated.getTime())) {
    workbook.created = generated;
    workbook.modified = generated;
  }
  const names = new SheetNames();
  const sheetOptions: DataSheetOptions = {
    currency,
    ...(options.maxRowsPerSheet ? { maxRowsPerSheet: options.maxRowsPerSheet } : {}),
  };

  // Sheets read the model with the workbook's pricing (its cost columns follow it).
  const priced: ReportModel = { ...model, pricing };
  const sheets = resolveSections(options.sections).flatMap((section) => section.sheets ?? []);
  const daily = dailySheetRef(sheets, priced);
  for (const sheet of sheets) {
    if ('figures' in sheet) {
      const figures = workbook.addWorksheet(names.claim(sheet.name), {
        views: [{ state: 'frozen', ySplit: 1 }],
      });
      await writeSummarySheet(figures, { ...priced, figures: [...sheet.figures(priced)] }, daily, pricing);
    } else {
      await writeDataSheet(
        workbook,
        names,
        sheet.name,
        sheet.columns(priced),
        sheet.rows(priced),
        sheetOptions,
      );
    }
  }
  await workbook.commit();
}
