/**
 * The finance workbook, written with ExcelJS's streaming writer: each configured section writes its
 * sheets in section order. The built-in sections' are `Summary` (summary), `Daily` and `Weekly`
 * (usage), `Users` and `Dormant seats` (adoption), `Models` and `Tools` (tools), `Readiness` and
 * `Criteria` (readiness), `Controls`, `Definitions` and `Data quality`.
 */

import {
  type DailyRow,
  isBuiltinSection,
  type ReportModel,
  type ReportSection,
  resolveSections,
} from '@orgreport/metrics';
import ExcelJS from 'exceljs';
import { type ColumnSpec, columnLetter, type DataSheetOptions, writeDataSheet } from './data-sheet.ts';
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
  /** The report's sections in order (default: the built-in ones): each writes its sheets. */
  sections?: ReadonlyArray<ReportSection>;
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

  const daily = dailyColumns();
  const dailyName = 'Daily';
  const dailyRef = {
    sheet: dailyName,
    rows: model.daily.length,
    columns: Object.fromEntries(
      daily.map((c, i) => [c.header === 'has_data' ? 'hasData' : c.header, columnLetter(i + 1)]),
    ) as Partial<Record<keyof DailyRow, string>>,
  };
  const write = <Row>(name: string, columns: ColumnSpec<Row>[], rows: readonly Row[]) =>
    writeDataSheet(workbook, names, name, columns, rows, sheetOptions);
  // The sheets of each built-in section, in the order the section lists them.
  const builtinSheets: Record<string, () => Promise<unknown>> = {
    summary: async () => {
      const summary = workbook.addWorksheet(names.claim('Summary'), {
        views: [{ state: 'frozen', ySplit: 1 }],
      });
      await writeSummarySheet(summary, model, dailyRef, pricing);
    },
    usage: async () => {
      await write(dailyName, daily, model.daily);
      await write('Weekly', weeklyColumns(), model.weekly);
    },
    adoption: async () => {
      await write('Users', userColumns(price), model.users);
      await write('Dormant seats', dormantSeatColumns(), model.seats.dormant_users);
    },
    tools: async () => {
      await write('Models', modelColumns(price), model.credits.byModel);
      await write('Tools', toolColumns(), toolRows(model));
    },
    readiness: async () => {
      await write('Readiness', readinessColumns(), model.readiness.repos);
      await write('Criteria', criteriaColumns(), model.readiness.criteria);
    },
    controls: () => write('Controls', controlColumns(), controlRows(model)),
    definitions: () => {
      // The rule is added only when the model's definitions do not already hold it.
      const hasRule = model.definitions.some((d) => d.text === model.readiness.rule);
      const definitions = hasRule
        ? model.definitions
        : [
            ...model.definitions,
            { id: 'readiness_level_rule', term: 'Readiness levels', text: model.readiness.rule },
          ];
      return write('Definitions', definitionColumns(), definitions);
    },
    'data-quality': () => write('Data quality', dataQualityColumns(), model.dataQuality),
  };
  for (const section of resolveSections(options.sections)) {
    const builtin = builtinSheets[section.id];
    if (isBuiltinSection(section)) await builtin?.();
    for (const sheet of section.sheets ?? [])
      await write(sheet.name, [...sheet.columns(model)], sheet.rows(model));
  }
  await workbook.commit();
}
