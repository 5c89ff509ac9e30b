/**
 * The finance workbook: `Summary`, `Daily`, `Weekly`, `Users`, `Dormant seats`, `Models`, `Tools`, `Readiness`,
 * `Criteria`, `Controls`, `Definitions` and `Data quality`, written with ExcelJS's streaming writer.
 */

import type { DailyRow, ReportModel } from '@orgreport/metrics';
import ExcelJS from 'exceljs';
import { columnLetter, type DataSheetOptions, writeDataSheet } from './data-sheet.ts';
import { SheetNames } from './sheet-names.ts';
import {
  type ControlSheetRow,
  controlColumns,
  criteriaColumns,
  dailyColumns,
  dataQualityColumns,
  definitionColumns,
  dormantSeatColumns,
  modelColumns,
  readinessColumns,
  type ToolSheetRow,
  toolColumns,
  userColumns,
  weeklyColumns,
} from './sheets.ts';
import { writeSummarySheet } from './summary-sheet.ts';

/** Options of {@link writeWorkbook}. */
export interface WorkbookOptions {
  /** Price of one credit; adds cost columns and a cost row (overrides the model's pricing). */
  pricePerCredit?: number;
  /** Currency of the price (default: the model's, else EUR). */
  currency?: string;
  /** Rows per sheet including the header (tests only; Excel's limit applies otherwise). */
  maxRowsPerSheet?: number;
}

function toolRows(model: ReportModel): ToolSheetRow[] {
  const t = model.tools;
  return [
    ...t.top.map((x) => ({ category: 'tool', name: x.name, detail: null, count: x.count, share: x.share })),
    ...t.mcpServers.map((x) => ({
      category: 'mcp_server',
      name: x.name,
      detail: x.spellings.map((s) => `${s.name} (${s.count})`).join(', '),
      count: x.count,
      share: x.share,
    })),
    ...t.skills.map((x) => ({
      category: 'skill',
      name: x.name,
      detail: null,
      count: x.count,
      share: x.share,
    })),
    ...t.slashCommands.map((x) => ({
      category: 'slash_command',
      name: x.name,
      detail: null,
      count: x.count,
      share: x.share,
    })),
    ...t.hooks.flatMap((h) =>
      h.commands.length
        ? h.commands.map((c) => ({
            category: 'hook',
            name: h.event,
            detail: [c.matcher, c.command].filter((v) => v !== null).join(' → ') || null,
            count: c.count,
            share: model.tools.hooksTotal > 0 ? c.count / model.tools.hooksTotal : null,
          }))
        : [{ category: 'hook', name: h.event, detail: null, count: h.count, share: h.share }],
    ),
  ];
}

function controlRows(model: ReportModel): ControlSheetRow[] {
  return model.controls.changes.flatMap((change): ControlSheetRow[] =>
    change.diffs.length ? change.diffs.map((diff) => ({ change, diff })) : [{ change, diff: null }],
  );
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

  const summary = workbook.addWorksheet(names.claim('Summary'), { views: [{ state: 'frozen', ySplit: 1 }] });
  const daily = dailyColumns();
  const dailyName = 'Daily';
  const dailyRef = {
    sheet: dailyName,
    rows: model.daily.length,
    columns: Object.fromEntries(
      daily.map((c, i) => [c.header === 'has_data' ? 'hasData' : c.header, columnLetter(i + 1)]),
    ) as Partial<Record<keyof DailyRow, string>>,
  };
  await writeSummarySheet(summary, model, dailyRef, pricing);
  await writeDataSheet(workbook, names, dailyName, daily, model.daily, sheetOptions);
  await writeDataSheet(workbook, names, 'Weekly', weeklyColumns(), model.weekly, sheetOptions);
  await writeDataSheet(workbook, names, 'Users', userColumns(price), model.users, sheetOptions);
  await writeDataSheet(
    workbook,
    names,
    'Dormant seats',
    dormantSeatColumns(),
    model.seats.dormant_users,
    sheetOptions,
  );
  await writeDataSheet(workbook, names, 'Models', modelColumns(price), model.credits.byModel, sheetOptions);
  await writeDataSheet(workbook, names, 'Tools', toolColumns(), toolRows(model), sheetOptions);
  await writeDataSheet(workbook, names, 'Readiness', readinessColumns(), model.readiness.repos, sheetOptions);
  await writeDataSheet(
    workbook,
    names,
    'Criteria',
    criteriaColumns(),
    model.readiness.criteria,
    sheetOptions,
  );
  await writeDataSheet(workbook, names, 'Controls', controlColumns(), controlRows(model), sheetOptions);
  // The rule is added only when the model's definitions do not already hold it.
  const hasRule = model.definitions.some((d) => d.text === model.readiness.rule);
  const definitions = hasRule
    ? model.definitions
    : [
        ...model.definitions,
        { id: 'readiness_level_rule', term: 'Readiness levels', text: model.readiness.rule },
      ];
  await writeDataSheet(workbook, names, 'Definitions', definitionColumns(), definitions, sheetOptions);
  await writeDataSheet(
    workbook,
    names,
    'Data quality',
    dataQualityColumns(),
    model.dataQuality,
    sheetOptions,
  );
  await workbook.commit();
}
