/**
 * The `Summary` sheet: one row per figure id of docs/metrics.md with `id`, `label`, `value`, `previous`,
 * `change`, as an Excel table. Totals that are sums, means or maxima of the `Daily` sheet and figures
 * derived from other Summary rows are formulas carrying their computed result, so Excel shows the
 * value before any recalculation and a recalculation reproduces it. A formula is used only where it
 * reproduces the model's figure exactly; otherwise the plain value is written.
 */

import { DAILY_SUMS, type DailyRow, type Figure, type FigureId, type ReportModel } from '@orgreport/metrics';
import { currencyExcelFormat, EXCEL_FORMATS, kindOfFigure } from '../format.ts';
import { columnRange } from './cell-refs.ts';
import { cellText, excelPoints, finiteOrNull, keepInert } from './cell-values.ts';
import type { XlsxPackage } from './xlsx-package.ts';

/** Column letters of the Summary sheet. */
const VALUE_COL = 'C';
const PREVIOUS_COL = 'D';

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

/** The Summary table's columns. */
const HEADERS = ['id', 'label', 'value', 'previous', 'change'];

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
  sheet.columns = HEADERS.map((header, i) => ({ header, key: header, width: [22, 48, 16, 16, 12][i]! }));
  const header = sheet.getRow(1);
  header.font = { bold: true };
  header.commit();
  const rowOf = new Map<FigureId, number>();
  for (const [i, f] of model.figures.entries()) rowOf.set(f.id, i + 2);
  const formulas = candidates(model, daily, rowOf);

  model.figures.forEach((figure, i) => {
    const r = i + 2;
    const row = sheet.getRow(r);
    const fmt = numFmtOf(figure);
    row.getCell(1).value = figure.id;
    // A figure without a value by its combine rule says why beside its label (the value cell stays a number).
    const notes = [figure.note, figure.unavailableReason].filter((n): n is string => Boolean(n));
    row.getCell(2).value = cellText(notes.length ? `${figure.label} (${notes.join('; ')})` : figure.label);
    keepInert(row.getCell(2));
    const value = finiteOrNull(figure.value);
    const candidate = formulas.get(figure.id);
    const valueCell = row.getCell(3);
    valueCell.value =
      candidate && value !== null && agrees(candidate.compute(), value)
        ? { formula: candidate.formula, result: value }
        : value;
    valueCell.numFmt = fmt;
    const previous = finiteOrNull(figure.previous);
    const previousCell = row.getCell(4);
    previousCell.value = previous;
    previousCell.numFmt = fmt;
    const change = finiteOrNull(figure.change);
    const changeCell = row.getCell(5);
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
      // Shares move in percentage points, stored as points (0.3) under a "pp" format.
      changeCell.value = change === null ? null : excelPoints(change);
      changeCell.numFmt = EXCEL_FORMATS.points;
    } else {
      changeCell.value = change;
      changeCell.numFmt = EXCEL_FORMATS.delta;
    }
    row.commit();
  });

  let next = model.figures.length + 2;
  const creditsRow = rowOf.get('credits');
  const credits = model.figures.find((f) => f.id === 'credits')?.value ?? null;
  if (pricing && creditsRow && credits !== null) {
    const row = sheet.getRow(next++);
    row.getCell(1).value = 'cost';
    row.getCell(2).value = `Cost of the period's credits at ${pricing.pricePerCredit} per credit`;
    const cell = row.getCell(3);
    cell.value = {
      formula: `${VALUE_COL}${creditsRow}*${pricing.pricePerCredit}`,
      result: credits * pricing.pricePerCredit,
    };
    cell.numFmt = currencyExcelFormat(pricing.currency);
    row.commit();
  }
  xlsx.addTable(sheet, { name: part.table, columns: HEADERS, rows: next - 2 });
  await sheet.commit();
}
