/**
 * The one number formatter of the report. HTML and PDF text come from `formatValue`, and the workbook
 * uses the Excel number format of the same kind (`EXCEL_FORMATS`), so a figure reads identically in
 * the PDF and in the workbook.
 */
import type { Figure, FigureUnit, ValueKind } from '@orgreport/metrics';

/** How a numeric value is shown. */
export type { ValueKind } from '@orgreport/metrics';

/** The Excel number format of each kind; `formatValue` renders the same text as Excel does. */
export const EXCEL_FORMATS: Readonly<Record<ValueKind, string>> = {
  integer: '#,##0',
  decimal: '#,##0.00',
  share: '#,##0.0%',
  change: '+#,##0.0%;-#,##0.0%;0.0%',
  points: '+#,##0.0 "pp";-#,##0.0 "pp";0.0 "pp"',
  delta: '+#,##0;-#,##0;0',
  deltaDecimal: '+#,##0.00;-#,##0.00;0.00',
  level: '0',
};

/** Excel number format of calendar days. */
export const EXCEL_DATE_FORMAT = 'yyyy-mm-dd';

/** Excel number format of a month, held as the date of its first day. */
export const EXCEL_MONTH_FORMAT = 'yyyy-mm';

/** Excel number format of instants (UTC). */
export const EXCEL_DATETIME_FORMAT = 'yyyy-mm-dd hh:mm';

/** What a missing value (no data, no comparison) reads as. */
export const NOT_AVAILABLE = 'n/a';

const groupedFormatters = new Map<number, Intl.NumberFormat>();

function grouped(value: number, digits: number): string {
  let f = groupedFormatters.get(digits);
  if (!f) {
    f = new Intl.NumberFormat('en-US', {
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
      useGrouping: true,
    });
    groupedFormatters.set(digits, f);
  }
  return f.format(value);
}

/**
 * Excel rounds the value as written with 15 significant digits (1.005 shows as 1.01), while
 * JavaScript rounds the exact binary value (1.00499...); rounding to 15 digits first matches Excel.
 */
export function excelPrecision(value: number): number {
  return Number(value.toPrecision(15));
}

function signed(value: number, digits: number, suffix: string): string {
  const text = grouped(Math.abs(value), digits) + suffix;
  if (value > 0) return `+${text}`;
  if (value < 0) return `-${text}`;
  return text;
}

/** Formats a number the way its Excel format of the same kind shows it; null, undefined and NaN read "n/a". */
export function formatValue(value: number | null | undefined, kind: ValueKind): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return NOT_AVAILABLE;
  switch (kind) {
    case 'integer':
      return grouped(excelPrecision(value), 0);
    case 'decimal':
      return grouped(excelPrecision(value), 2);
    case 'share':
      return grouped(excelPrecision(value * 100), 1) + '%';
    case 'change':
      return signed(excelPrecision(value * 100), 1, '%');
    case 'points':
      return signed(excelPrecision(value * 100), 1, ' pp');
    case 'delta':
      return signed(excelPrecision(value), 0, '');
    case 'deltaDecimal':
      return signed(excelPrecision(value), 2, '');
    case 'level':
      return String(Math.round(excelPrecision(value)));
  }
}

/**
 * Excel number format for a currency amount, e.g. `#,##0.00 "EUR"`. The code is reduced to
 * letters so that configuration can never inject format syntax.
 */
export function currencyExcelFormat(currency: string): string {
  return `#,##0.00 "${sanitizeCurrency(currency)}"`;
}

/** Formats an amount as `1,234.50 EUR`, matching `currencyExcelFormat`. */
export function formatCurrency(value: number | null | undefined, currency: string): string {
  const amount = formatAmount(value);
  return amount === NOT_AVAILABLE ? amount : `${amount} ${sanitizeCurrency(currency)}`;
}

/** An amount without its currency (`1,234.50`), for a column whose heading names the currency. */
export function formatAmount(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return NOT_AVAILABLE;
  return grouped(excelPrecision(value), 2);
}

/** The currency as every amount of the report writes it (letters only, upper case). */
export function sanitizeCurrency(currency: string): string {
  return (
    currency
      .replace(/[^A-Za-z]/g, '')
      .slice(0, 8)
      .toUpperCase() || 'CUR'
  );
}

/** Formats an ISO instant as `YYYY-MM-DD HH:MM UTC` (the report's only time zone). */
export function formatInstant(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/**
 * Names joined as a reader lists them (`A`, `A and B`, `A, B and C`); past `max` names, the first
 * `max - 1` and how many more (`A, B and 3 more`).
 */
export function formatList(names: readonly string[], max = Number.POSITIVE_INFINITY): string {
  if (names.length > max && max > 1)
    return `${names.slice(0, max - 1).join(', ')} and ${formatValue(names.length - max + 1, 'integer')} more`;
  return names.length < 2 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

/** A repository URL without scheme and host (`acme/api`), the part that tells repositories apart. */
export function formatRepository(url: string): string {
  return url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]+\//i, '') || url;
}

/** The UTC calendar day of an ISO instant or day (`YYYY-MM-DD`); unparseable text is returned as is. */
export function formatDay(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return d.toISOString().slice(0, 10);
}

/** The value kind of a headline figure's unit (scores are fractions shown as percentages). */
export function kindOfUnit(unit: FigureUnit): ValueKind {
  switch (unit) {
    case 'count':
    case 'credits':
    case 'tokens':
      return 'integer';
    case 'ratio':
      return 'decimal';
    case 'share':
    case 'score':
      return 'share';
    case 'level':
      return 'level';
  }
}

/** The value kind of a headline figure, from its unit alone (the model's unit decides, never the id). */
export function kindOfFigure(figure: Pick<Figure, 'unit'>): ValueKind {
  return kindOfUnit(figure.unit);
}

/** A headline figure's value as the report and the workbook's Summary sheet show it. */
export function formatFigure(figure: Pick<Figure, 'value' | 'unit'> & { id?: string }): string {
  return formatValue(figure.value, kindOfFigure(figure));
}

/** A headline figure's comparison value, formatted like its value. */
export function formatFigurePrevious(figure: Pick<Figure, 'previous' | 'unit'> & { id?: string }): string {
  return formatValue(figure.previous, kindOfFigure(figure));
}

/** The value kind a figure's change is shown in: a signed percentage, points, or a difference. */
export function kindOfChange(figure: Pick<Figure, 'changeKind'>): ValueKind {
  switch (figure.changeKind) {
    case 'points':
      return 'points';
    case 'difference':
      return 'delta';
    default:
      return 'change';
  }
}

/** Which way a figure moved: `up`, `down`, `flat`, or `none` without a comparison. */
export function changeDirection(figure: Pick<Figure, 'change'>): 'up' | 'down' | 'flat' | 'none' {
  const change = figure.change;
  if (change === null || !Number.isFinite(change)) return 'none';
  // What the report shows as 0.0 (% or pp) is no move.
  if (Math.abs(change) < 0.0005) return 'flat';
  return change > 0 ? 'up' : 'down';
}

const DIRECTION_MARKS = { up: '\u25B2 ', down: '\u25BC ', flat: '', none: '' } as const;

/** A figure's change, with the value and previous value it is the change between when they are known. */
type FigureChange = Pick<Figure, 'change' | 'changeKind'> &
  Partial<Pick<Figure, 'value' | 'previous' | 'unit'>>;

/**
 * A headline figure's month-over-month change with its direction: `▲ +13.2%` (relative),
 * `▼ -0.3 pp` (shares and scores), `▲ +1` (levels); "n/a" without comparison.
 */
export function formatFigureChange(figure: FigureChange): string {
  const shown = { change: shownChange(figure) };
  const direction = changeDirection(shown);
  // What shows as no move reads 0.0, without a sign.
  const change = direction === 'flat' ? 0 : shown.change;
  return DIRECTION_MARKS[direction] + formatValue(change, kindOfChange(figure));
}

/**
 * A change as the page can check it: a share's change in points is the difference of the two
 * shares as shown (38.3% to 32.3% is -6.0 pp, where the shares' digits beyond would give -6.1).
 */
function shownChange(figure: FigureChange): number | null {
  const { value, previous, unit } = figure;
  const shares = figure.changeKind === 'points' && unit !== undefined && kindOfUnit(unit) === 'share';
  if (!shares || !Number.isFinite(value) || !Number.isFinite(previous)) return figure.change;
  return sharesShownChange(value!, previous!);
}

/** Two shares' change in points as the page shows them (see {@link shownChange}). */
function sharesShownChange(value: number, previous: number): number {
  const percent = (share: number) => Number(grouped(excelPrecision(share * 100), 1).replace(/,/g, ''));
  return (percent(value) - percent(previous)) / 100;
}

/**
 * The change in points from one share to another, as the difference of the two as shown: a table
 * that shows both beside it agrees with itself and with the sentence that states the same change.
 *
 * @example
 * formatPointsBetween(0.99415, 0.9456) // '+4.8 pp': 99.4% against 94.6% (the exact change is 4.855 points)
 */
export function formatPointsBetween(value: number | null, previous: number | null): string {
  const change =
    value !== null && previous !== null && Number.isFinite(value) && Number.isFinite(previous)
      ? sharesShownChange(value, previous)
      : null;
  return formatValue(change, 'points');
}
