/**
 * UTC calendar arithmetic shared by every stage: days as `YYYY-MM-DD` strings, ISO weeks,
 * month periods clamped to the first day of analytics data, and "yesterday" from an injectable clock.
 * Nothing here reads the system clock: callers pass `now`.
 */

/** A calendar day in UTC, written `YYYY-MM-DD`. */
export type IsoDate = string;
/** A calendar month, written `YYYY-MM`. */
export type IsoMonth = string;
/** Returns the current instant; the CLI passes the real clock, tests pass a fixed one. */
export type Clock = () => Date;

/** The first day for which the analytics API has data. */
export const EARLIEST_DATA_DATE: IsoDate = '2026-01-14';

/** Milliseconds in a UTC day. */
export const MS_PER_DAY = 86_400_000;
const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
const MONTH_RE = /^(\d{4})-(\d{2})$/;

/** Raised for a malformed day or month; `parameter`, `value` and `rule` say what was wrong. */
export class DateInputError extends RangeError {
  override readonly name = 'DateInputError';
  constructor(
    readonly parameter: string,
    readonly value: unknown,
    readonly rule: string,
  ) {
    super(`${parameter} ${JSON.stringify(value)} is invalid: ${rule}`);
  }
}

/** True when `value` is a real calendar day written `YYYY-MM-DD` (2026-02-30 is not). */
export function isIsoDate(value: unknown): value is IsoDate {
  if (typeof value !== 'string') return false;
  const m = DATE_RE.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const t = new Date(Date.UTC(y, mo - 1, d));
  return t.getUTCFullYear() === y && t.getUTCMonth() === mo - 1 && t.getUTCDate() === d;
}

/** Checks a day and returns it; throws {@link DateInputError} naming `parameter` otherwise. */
export function parseIsoDate(value: unknown, parameter = 'date'): IsoDate {
  if (!isIsoDate(value))
    throw new DateInputError(parameter, value, 'expected a real calendar day as YYYY-MM-DD');
  return value;
}

/** Checks a month `YYYY-MM` and returns it; throws {@link DateInputError} naming `parameter` otherwise. */
export function parseIsoMonth(value: unknown, parameter = 'month'): IsoMonth {
  const m = typeof value === 'string' ? MONTH_RE.exec(value) : null;
  if (!m || Number(m[2]) < 1 || Number(m[2]) > 12) {
    throw new DateInputError(parameter, value, 'expected a month as YYYY-MM with MM from 01 to 12');
  }
  return value as IsoMonth;
}

/** Days since 1970-01-01 of a day. */
export function toEpochDay(date: IsoDate): number {
  return (
    Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10))) / MS_PER_DAY
  );
}

/** The day `n` days after 1970-01-01. */
export function fromEpochDay(n: number): IsoDate {
  return new Date(n * MS_PER_DAY).toISOString().slice(0, 10);
}

/** The UTC day of an instant. */
export function utcDay(instant: Date | number): IsoDate {
  return new Date(instant).toISOString().slice(0, 10);
}

/** `date` shifted by `days` (negative goes back). */
export function addDays(date: IsoDate, days: number): IsoDate {
  return fromEpochDay(toEpochDay(date) + days);
}

/** Whole days from `from` to `to` (positive when `to` is later). */
export function daysBetween(from: IsoDate, to: IsoDate): number {
  return toEpochDay(to) - toEpochDay(from);
}

/** Every day from `start` to `end`, both included; empty when `start` is after `end`. */
export function eachDay(start: IsoDate, end: IsoDate): IsoDate[] {
  const out: IsoDate[] = [];
  for (let d = toEpochDay(start), e = toEpochDay(end); d <= e; d++) out.push(fromEpochDay(d));
  return out;
}

/** ISO weekday: 1 = Monday ... 7 = Sunday. */
export function isoWeekday(date: IsoDate): number {
  // 1970-01-01 was a Thursday (4).
  return ((((toEpochDay(date) + 3) % 7) + 7) % 7) + 1;
}

/** The ISO week of a day as `YYYY-Www` (the week-year may differ from the calendar year near New Year). */
export function isoWeekLabel(date: IsoDate): string {
  const day = toEpochDay(date);
  const thursday = day + 4 - isoWeekday(date); // the week's Thursday decides its year
  const year = Number(fromEpochDay(thursday).slice(0, 4));
  const week = Math.floor((thursday - toEpochDay(`${year}-01-01`)) / 7) + 1;
  return `${year}-W${String(week).padStart(2, '0')}`;
}

/** Monday and Sunday of the ISO week that contains `date`. */
export function isoWeekBounds(date: IsoDate): { start: IsoDate; end: IsoDate } {
  const start = addDays(date, 1 - isoWeekday(date));
  return { start, end: addDays(start, 6) };
}

/** First and last day of a month. */
export function monthBounds(month: IsoMonth): { start: IsoDate; end: IsoDate } {
  const y = Number(month.slice(0, 4));
  const m = Number(month.slice(5, 7));
  const end = new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
  return { start: `${month}-01`, end };
}

/** The month before `month`. */
export function previousMonth(month: IsoMonth): IsoMonth {
  const y = Number(month.slice(0, 4));
  const m = Number(month.slice(5, 7));
  return m === 1 ? `${y - 1}-12` : `${y}-${String(m - 1).padStart(2, '0')}`;
}

/** Yesterday in UTC according to `now`: the last day the analytics API has data for. */
export function yesterdayUtc(now: Clock): IsoDate {
  return addDays(utcDay(now()), -1);
}

/** The last calendar month whose last day is before today in UTC. */
export function lastCompleteMonth(now: Clock): IsoMonth {
  return previousMonth(utcDay(now()).slice(0, 7));
}

/** A span of whole UTC days, both ends included. */
export interface DayRange {
  start: IsoDate;
  end: IsoDate;
}

/** One report period: a calendar month cut to the days for which data exists. */
export interface MonthPeriod extends DayRange {
  month: IsoMonth;
  /** Days in `start..end`. */
  days: number;
  /** True when the period is shorter than its month, for either reason below. */
  partial: boolean;
  /** The month starts before {@link EARLIEST_DATA_DATE} and was cut there. */
  clampedStart: boolean;
  /** The month was not over yet and the period ends yesterday (asked for explicitly). */
  endsEarly: boolean;
}

export interface MonthPeriodOptions {
  /** The clock that decides which days are over. */
  now: Clock;
  /** Accept a month that is not over yet; the period then ends yesterday and is partial. */
  allowPartial?: boolean;
}

/**
 * The period of a report for `month`: the month clamped at {@link EARLIEST_DATA_DATE} and, when
 * `allowPartial` is set and the month is not over, ending yesterday. Throws {@link DateInputError}
 * for a month with no data at all or an incomplete month without `allowPartial`.
 */
export function monthPeriod(month: IsoMonth, options: MonthPeriodOptions): MonthPeriod {
  parseIsoMonth(month);
  const bounds = monthBounds(month);
  const yesterday = yesterdayUtc(options.now);
  if (bounds.end < EARLIEST_DATA_DATE) {
    throw new DateInputError(
      'month',
      month,
      `analytics data starts on ${EARLIEST_DATA_DATE}; choose a later month`,
    );
  }
  if (bounds.start > yesterday) {
    throw new DateInputError(
      'month',
      month,
      `no day of this month is over yet (data runs up to ${yesterday})`,
    );
  }
  const endsEarly = bounds.end > yesterday;
  if (endsEarly && !options.allowPartial) {
    throw new DateInputError(
      'month',
      month,
      `the month is not over (data runs up to ${yesterday}); ask for a partial report (--partial) or choose ${lastCompleteMonth(options.now)}`,
    );
  }
  return clampedPeriod(month, bounds.start, endsEarly ? yesterday : bounds.end, endsEarly);
}

/** The period of `month` from `monthStart` (clamped at the first data day) to `end`. */
function clampedPeriod(month: IsoMonth, monthStart: IsoDate, end: IsoDate, endsEarly: boolean): MonthPeriod {
  const clampedStart = monthStart < EARLIEST_DATA_DATE;
  const start = clampedStart ? EARLIEST_DATA_DATE : monthStart;
  return {
    month,
    start,
    end,
    days: daysBetween(start, end) + 1,
    partial: clampedStart || endsEarly,
    clampedStart,
    endsEarly,
  };
}

/**
 * The comparison period of `period`: the previous calendar month, clamped the same way,
 * or `null` when that month has no data at all.
 */
export function comparisonPeriod(period: MonthPeriod): MonthPeriod | null {
  const month = previousMonth(period.month);
  const bounds = monthBounds(month);
  if (bounds.end < EARLIEST_DATA_DATE) return null;
  return clampedPeriod(month, bounds.start, bounds.end, false);
}

/** The ISO weeks that intersect a span, each with the days of it inside the span. */
export function isoWeeksOf(
  range: DayRange,
): Array<{ week: string; start: IsoDate; end: IsoDate; daysInRange: number; partial: boolean }> {
  const weeks = [];
  for (let monday = isoWeekBounds(range.start).start; monday <= range.end; monday = addDays(monday, 7)) {
    const sunday = addDays(monday, 6);
    const start = monday < range.start ? range.start : monday;
    const end = sunday > range.end ? range.end : sunday;
    const daysInRange = daysBetween(start, end) + 1;
    weeks.push({ week: isoWeekLabel(monday), start, end, daysInRange, partial: daysInRange < 7 });
  }
  return weeks;
}
