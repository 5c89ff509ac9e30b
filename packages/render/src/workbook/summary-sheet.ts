/**
 * The `Summary` sheet: one row per figure id of docs/metrics.md with `id`, `label`, `value`,
 * `previous`, `change`, after the `org_id`, `month` and `scope` every sheet starts with, as an Excel
 * table. Totals that are sums, means or maxima of the `Daily` sheet and figures derived from other
 * Summary rows are formulas carrying their computed result, so Excel shows the value before any
 * recalculation and a recalculation reproduces it. A formula is used only where it reproduces the
 * model's figure exactly; otherwise the plain value is written.
 */

import { DAILY_SUMS, type DailyRow, type Figure, type FigureId, type ReportModel } from '@orgreport/metrics';
import { currencyExcelFormat, EXCEL_FORMATS, EXCEL_MONTH_FORMAT, kindOfFigure } from '../format.ts';
import { columnRange } from './cell-refs.ts';
import { cellText, excelCents, excelDate, excelPoints, finiteOrNull, keepInert } from './cell-values.ts';
import { monthDay, scopeKey } from './table-columns.ts';
import type { XlsxPackage } from './xlsx-package.ts';

/** The Summary table's columns: the stacking columns, then the figure's. */
const HEADERS = ['org_id', 'month', 'scope', 'id', 'label', 'value', 'previous', 'change', 'change_kind'];
const WIDTHS = [14, 10, 14, 22, 48, 16, 16, 12, 12];
/** Column numbers (1 = A) and letters of the Summary sheet. */
const SCOPE = 3;
const ID = 4;
const LABEL = 5;
const VALUE = 6;
const PREVIOUS = 7;
const CHANGE = 8;
/** What the change is (the model's `changeKind`): its number format is dropped by a program that reads the values alone. */
const CHANGE_KIND = 9;
const VALUE_COL = 'F';
const PREVIOUS_COL = 'G';

/** A formula and the JavaScript that computes the same number from the model. */
interface FormulaCandidate {
  formula: string;
  compute: () => number | null;
}

/** Where the Daily sheet's columns are, for SUM/AVERAGE/MAX formulas (by column header: the field's name). */
export interface DailySheetRef {
  sheet: string;
  /** Column number (1 = A) of each daily field written. */
  columns: Partial<Record<keyof DailyRow, number>>;
  /** Number of data rows (rows 2..rows+1). */
  rows: number;
}

/** Figures that are sums of the daily series' column of the same name. */
const SUMMED: ReadonlyArray<FigureId & keyof DailyRow> = DAILY_SUMS;

/** Two numbers agree when they differ by rounding noise only. */
function agrees(a: number | null, b: number | null): boolean {
  if (a === null || b === null) return false;
  return Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
}

function candidates(model: ReportModel, daily: DailySheetRef | null, rowOf: Map<FigureId, number>) {
  const out = new Map<FigureId, FormulaCandidate>();
  const range = (key: keyof DailyRow) => {
    const col = daily?.columns[key];
    return daily && col && daily.rows > 0 ? columnRange(daily.sheet, col, 2, daily.rows + 1) : null;
  };
  const values = (key: keyof DailyRow) => model.daily.map((d) => d[key] as number);
  for (const key of SUMMED) {
    const r = range(key);
    if (r) out.set(key, { formula: `SUM(${r})`, compute: () => values(key).reduce((a, b) => a + b, 0) });
  }
  const dau = range('dau');
  if (dau) {
    out.set('avg_dau', {
      formula: `AVERAGE(${dau})`,
      compute: () =>
        model.daily.length ? values('dau').reduce((a, b) => a + b, 0) / model.daily.length : null,
    });
    out.set('peak_dau', { formula: `MAX(${dau})`, compute: () => Math.max(...values('dau')) });
  }
  const ratio = (id: FigureId, num: FigureId, den: FigureId) => {
    const n = rowOf.get(num);
    const d = rowOf.get(den);
    const fn = model.figures.find((f) => f.id === num)?.value ?? null;
    const fd = model.figures.find((f) => f.id === den)?.value ?? null;
    if (n && d) {
      out.set(id, {
        formula: `IF(${VALUE_COL}${d}=0,"",${VALUE_COL}${n}/${VALUE_COL}${d})`,
        compute: () => (fn === null || fd === null || fd === 0 ? null : fn / fd),
      });
    }
  };
  ratio('stickiness', 'avg_dau', 'active_users');
  ratio('seat_utilization', 'active_users', 'seats');
  return out;
}

/** Formats of one Summary row: value/previous in the figure's format, change as signed percent. */
function numFmtOf(figure: Figure): string {
  return EXCEL_FORMATS[kindOfFigure(figure)];
}

/**
 * Writes the model's figures as the sheet `part.sheet` with the table `part.table` and commits it;
 * without a Daily sheet (`daily` null) every value is written plain.
 */
export async function writeSummarySheet(
  xlsx: XlsxPackage,
  part: { sheet: string; table: string },
  model: ReportModel,
  daily: DailySheetRef | null,
  pricing: { pricePerCredit: number; currency: string } | null,
): Promise<void> {
  const sheet = xlsx.workbook.addWorksheet(part.sheet, { views: [{ state: 'frozen', ySplit: 1 }] });
  const org = cellText(model.organization.id);
  const month = excelDate(monthDay(model));
  const scope = cellText(scopeKey(model));
  // The identifying columns as wide as their text (within reason), the others as set.
  const fitted = (i: number, text: string | null | undefined) =>
    Math.min(60, Math.max(WIDTHS[i]!, (text?.length ?? 0) + 2));
  sheet.columns = HEADERS.map((header, i) => ({
    header,
    key: header,
    width: i === 0 ? fitted(0, org) : i === SCOPE - 1 ? fitted(i, scope) : WIDTHS[i]!,
  }));
  const header = sheet.getRow(1);
  header.font = { bold: true };
  header.commit();
  const rowOf = new Map<FigureId, number>();
  for (const [i, f] of model.figures.entries()) rowOf.set(f.id, i + 2);
  const formulas = candidates(model, daily, rowOf);
  /** Row `r` with the stacking cells filled in. */
  const stackedRow = (r: number) => {
    const row = sheet.getRow(r);
    row.getCell(1).value = org;
    keepInert(row.getCell(1));
    const monthCell = row.getCell(2);
    monthCell.value = month;
    monthCell.numFmt = EXCEL_MONTH_FORMAT;
    row.getCell(SCOPE).value = scope;
    keepInert(row.getCell(SCOPE));
    return row;
  };

  model.figures.forEach((figure, i) => {
    const r = i + 2;
    const row = stackedRow(r);
    const fmt = numFmtOf(figure);
    row.getCell(ID).value = figure.id;
    // A figure without a value by its combine rule says why beside its label (the value cell stays a number).
    const notes = [figure.note, figure.unavailableReason].filter((n): n is string => Boolean(n));
    row.getCell(LABEL).value = cellText(
      notes.length ? `${figure.label} (${notes.join('; ')})` : figure.label,
    );
    keepInert(row.getCell(LABEL));
    const value = finiteOrNull(figure.value);
    const candidate = formulas.get(figure.id);
    const valueCell = row.getCell(VALUE);
    valueCell.value =
      candidate && value !== null && agrees(candidate.compute(), value)
        ? { formula: candidate.formula, result: value }
        : value;
    valueCell.numFmt = fmt;
    const previous = finiteOrNull(figure.previous);
    const previousCell = row.getCell(PREVIOUS);
    previousCell.value = previous;
    previousCell.numFmt = fmt;
    const change = finiteOrNull(figure.change);
    const changeCell = row.getCell(CHANGE);
    if (figure.changeKind === 'relative') {
      // The change is a formula on value and previous only where it reproduces the model's change.
      const computed =
        value !== null && previous !== null && previous !== 0
          ? (value - previous) / Math.abs(previous)
          : null;
      changeCell.value =
        change !== null && agrees(computed, change)
          ? {
              formula: `IF(OR(${PREVIOUS_COL}${r}="",${PREVIOUS_COL}${r}=0),"",(${VALUE_COL}${r}-${PREVIOUS_COL}${r})/ABS(${PREVIOUS_COL}${r}))`,
              result: change,
            }
          : change;
      changeCell.numFmt = EXCEL_FORMATS.change;
    } else if (figure.changeKind === 'points') {
      // Shares move in percentage points, stored as points (0.3) under a "pp" format: a formula on
      // value and previous where it reproduces the model's change, so the scale shows in the cell.
      const points = change === null ? null : excelPoints(change);
      const computed = value !== null && previous !== null ? (value - previous) * 100 : null;
      changeCell.value =
        points !== null && agrees(computed, points)
          ? {
              formula: `IF(OR(${VALUE_COL}${r}="",${PREVIOUS_COL}${r}=""),"",(${VALUE_COL}${r}-${PREVIOUS_COL}${r})*100)`,
              result: points,
            }
          : points;
      changeCell.numFmt = EXCEL_FORMATS.points;
    } else {
      changeCell.value = change;
      changeCell.numFmt = EXCEL_FORMATS.delta;
    }
    // relative: a fraction (0.25 = +25 %); points: percentage points (0.3 = +0.3 pp); difference: as the value.
    if (change !== null) row.getCell(CHANGE_KIND).value = figure.changeKind;
    row.commit();
  });

  let next = model.figures.length + 2;
  const creditsRow = rowOf.get('credits');
  const credits = model.figures.find((f) => f.id === 'credits')?.value ?? null;
  // A rollup's bill is its organizations' bills added up, each to the cent (its Organizations sheet's
  // total), which the combined credits priced once can miss by a cent.
  const rollupCost = (model.sections?.['rollup'] as { total?: { cost?: number | null } } | null | undefined)
    ?.total?.cost;
  if (pricing && creditsRow && credits !== null) {
    const row = stackedRow(next++);
    row.getCell(ID).value = 'cost';
    const cell = row.getCell(VALUE);
    if (typeof rollupCost === 'number') {
      row.getCell(LABEL).value =
        `Cost of the period's credits: the organizations' bills added up, each its credits at ${pricing.pricePerCredit} per credit to the cent (seats not included)`;
      cell.value = excelCents(rollupCost);
    } else {
      row.getCell(LABEL).value =
        `Cost of the period's credits at ${pricing.pricePerCredit} per credit, to the cent (seats not included)`;
      // Money to the cent, as every money cell of the workbook holds it.
      cell.value = {
        formula: `ROUND(${VALUE_COL}${creditsRow}*${pricing.pricePerCredit},2)`,
        result: excelCents(credits * pricing.pricePerCredit),
      };
    }
    cell.numFmt = currencyExcelFormat(pricing.currency);
    row.commit();
  }
  xlsx.addTable(sheet, { name: part.table, columns: HEADERS, rows: next - 2 });
  await sheet.commit();
}
