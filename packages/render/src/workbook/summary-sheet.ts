/**
 * The `Summary` sheet: one row per figure id of docs/metrics.md with `id`, `label`, `value`, `previous`,
 * `change`. Totals that are sums, means or maxima of the `Daily` sheet and figures derived from other
 * Summary rows are formulas carrying their computed result, so Excel shows the value before any
 * recalculation and a recalculation reproduces it. A formula is used only where it reproduces the
 * model's figure exactly; otherwise the plain value is written.
 */

import { DAILY_SUMS, type DailyRow, type Figure, type FigureId, type ReportModel } from '@orgreport/metrics';
import type ExcelJS from 'exceljs';
import { currencyExcelFormat, EXCEL_FORMATS, kindOfFigure } from '../format.ts';
import { excelPoints, finiteOrNull, inertText } from './cell-values.ts';

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
  /** Column letter of each daily field. */
  columns: Partial<Record<keyof DailyRow, string>>;
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

function quoteSheet(name: string): string {
  return `'${name.replace(/'/g, "''")}'`;
}

function candidates(model: ReportModel, daily: DailySheetRef | null, rowOf: Map<FigureId, number>) {
  const out = new Map<FigureId, FormulaCandidate>();
  const range = (key: keyof DailyRow) => {
    const col = daily?.columns[key];
    return daily && col && daily.rows > 0
      ? `${quoteSheet(daily.sheet)}!${col}2:${col}${daily.rows + 1}`
      : null;
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
 * Writes the Summary sheet (already created) with the model's figures and commits it; without a
 * Daily sheet (`daily` null) every value is written plain.
 */
export async function writeSummarySheet(
  sheet: ExcelJS.Worksheet,
  model: ReportModel,
  daily: DailySheetRef | null,
  pricing: { pricePerCredit: number; currency: string } | null,
): Promise<void> {
  sheet.columns = [
    { header: 'id', key: 'id', width: 22 },
    { header: 'label', key: 'label', width: 48 },
    { header: 'value', key: 'value', width: 16 },
    { header: 'previous', key: 'previous', width: 16 },
    { header: 'change', key: 'change', width: 12 },
  ];
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
    row.getCell(2).value = inertText(figure.note ? `${figure.label} (${figure.note})` : figure.label);
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
    row.getCell(2).value = inertText(`Cost of the period's credits at ${pricing.pricePerCredit} per credit`);
    const cell = row.getCell(3);
    cell.value = {
      formula: `${VALUE_COL}${creditsRow}*${pricing.pricePerCredit}`,
      result: credits * pricing.pricePerCredit,
    };
    cell.numFmt = currencyExcelFormat(pricing.currency);
    row.commit();
  }
  sheet.autoFilter = `A1:E${next - 1}`;
  await sheet.commit();
}
