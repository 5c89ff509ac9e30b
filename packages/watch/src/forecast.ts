/**
 * The month-end forecast of credits, and its backtest over a history.
 *
 * The method: the credits of the month's days held so far (the month to date), plus, for each
 * other day of the month, the mean credits of a day of its kind (weekday or weekend day) over the
 * trailing window (28 days by default: four whole weeks, so each day of the week counts four
 * times) that ends on the last day held. A day of the window that is not held does not count; a
 * kind of day the window lacks takes the mean of all its days. Weekends are much quieter than
 * weekdays, so a month with more weekend days left gets less.
 *
 * The backtest replays the method at every cutoff of every whole month of a history (the forecast
 * made with the days up to the k-th of the month, against the month's actual total) and summarises
 * the error by days into the month: the mean absolute percentage error (MAPE) and the mean signed
 * error (bias: positive when the forecast was too high).
 */
import { addDays, eachDay, type IsoDate, isoWeekday, monthBounds } from '@orgreport/api-core/dates';

/** A scope's credits per day held (a day held with no credits is 0; a day not held is absent). */
export type DailyValues = ReadonlyMap<IsoDate, number>;

/** A forecast of a month's credits, with what it was made of. */
export interface Forecast {
  month: string;
  /** The last day held the forecast starts from. */
  lastDay: IsoDate;
  /** Credits of the month's days held up to `lastDay`. */
  toDate: number;
  /** Days of the month held up to `lastDay`. */
  daysHeld: number;
  /** Days of the month estimated (after `lastDay`, or not held before it), by kind. */
  weekdaysLeft: number;
  weekendDaysLeft: number;
  /** Mean credits of a weekday and of a weekend day over the trailing window (null: the window holds no day). */
  weekdayRate: number | null;
  weekendRate: number | null;
  /** The month's expected total. */
  forecast: number;
}

const isWeekend = (day: IsoDate) => isoWeekday(day) >= 6;

const mean = (values: number[]): number | null =>
  values.length === 0 ? null : values.reduce((a, b) => a + b, 0) / values.length;

/**
 * The forecast of the month of `lastDay` from the days held up to `lastDay`, with rates from the
 * `trailingDays` days that end on it.
 *
 * @example
 * // Weekdays at 10, weekends at 2 over the last 28 days; 2026-10-14 (a Wednesday) is the last day held.
 * forecastMonth(values, '2026-10-14').forecast // to date + 13 weekdays x 10 + 4 weekend days x 2
 */
export function forecastMonth(values: DailyValues, lastDay: IsoDate, trailingDays = 28): Forecast {
  const month = lastDay.slice(0, 7);
  const { start, end } = monthBounds(month);
  const weekdays: number[] = [];
  const weekends: number[] = [];
  for (const day of eachDay(addDays(lastDay, 1 - trailingDays), lastDay)) {
    const v = values.get(day);
    if (v !== undefined) (isWeekend(day) ? weekends : weekdays).push(v);
  }
  const all = mean([...weekdays, ...weekends]);
  const weekdayRate = mean(weekdays) ?? all;
  const weekendRate = mean(weekends) ?? all;
  let toDate = 0;
  let daysHeld = 0;
  let weekdaysLeft = 0;
  let weekendDaysLeft = 0;
  for (const day of eachDay(start, end)) {
    const v = day <= lastDay ? values.get(day) : undefined;
    if (v !== undefined) {
      toDate += v;
      daysHeld++;
    } else if (isWeekend(day)) weekendDaysLeft++;
    else weekdaysLeft++;
  }
  const forecast = toDate + weekdaysLeft * (weekdayRate ?? 0) + weekendDaysLeft * (weekendRate ?? 0);
  return {
    month,
    lastDay,
    toDate,
    daysHeld,
    weekdaysLeft,
    weekendDaysLeft,
    weekdayRate,
    weekendRate,
    forecast,
  };
}

/** The backtest's error at one cutoff: the forecasts made with the first `day` days of each month. */
export interface CutoffError {
  /** Days into the month (the cutoff is the month's `day`-th day). */
  day: number;
  /** Months judged at this cutoff. */
  months: number;
  /** Mean absolute percentage error. */
  mape: number;
  /** Mean signed percentage error (positive: too high). */
  bias: number;
  /** The largest absolute percentage error. */
  worst: number;
}

/** One month of the backtest. */
export interface MonthError {
  month: string;
  actual: number;
  /** Mean absolute percentage error over the month's cutoffs. */
  mape: number;
  /** Signed errors by cutoff day (index 0 is the 1st). */
  errors: number[];
}

export interface Backtest {
  /** The method, in one sentence. */
  method: string;
  trailingDays: number;
  months: MonthError[];
  byDay: CutoffError[];
  /** Over every month and cutoff. */
  overall: { points: number; mape: number; bias: number };
  /** Over the cutoffs in each third of the month (days 1-10, 11-20, 21 on). */
  byThird: Array<{ days: string; points: number; mape: number }>;
}

export const FORECAST_METHOD =
  'credits to date plus, for each remaining day of the month, the mean credits of a day of its kind (weekday or weekend day) over the trailing days held that end on the last day held';

/**
 * Replays {@link forecastMonth} at each cutoff (the 1st to the day before the last) of every month
 * that is held whole, with the day before it, against the month's actual total.
 *
 * @example
 * backtestForecast(orgCredits).byDay[0] // { day: 1, months: 8, mape: 0.07, bias: -0.01, worst: 0.15 }
 */
export function backtestForecast(values: DailyValues, trailingDays = 28): Backtest {
  const days = [...values.keys()].sort();
  const months = [...new Set(days.map((d) => d.slice(0, 7)))];
  const out: MonthError[] = [];
  for (const month of months) {
    const { start, end } = monthBounds(month);
    // A month counts when it is held whole and the day before it is held (its first forecast has a window).
    const whole = eachDay(addDays(start, -1), end).every((d) => values.has(d));
    if (!whole) continue;
    const actual = eachDay(start, end).reduce((s, d) => s + (values.get(d) ?? 0), 0);
    if (actual <= 0) continue;
    const errors: number[] = [];
    for (const cutoff of eachDay(start, addDays(end, -1))) {
      // forecastMonth reads no day after the cutoff: the later days need not be hidden.
      errors.push((forecastMonth(values, cutoff, trailingDays).forecast - actual) / actual);
    }
    out.push({ month, actual, mape: mean(errors.map(Math.abs)) ?? 0, errors });
  }
  const byDay: CutoffError[] = [];
  for (let k = 0; k < 30; k++) {
    const errs = out.flatMap((m) => (k < m.errors.length ? [m.errors[k]!] : []));
    if (errs.length === 0) continue;
    byDay.push({
      day: k + 1,
      months: errs.length,
      mape: mean(errs.map(Math.abs))!,
      bias: mean(errs)!,
      worst: Math.max(...errs.map(Math.abs)),
    });
  }
  const all = out.flatMap((m) => m.errors);
  const third = (from: number, to: number, label: string) => {
    const errs = out.flatMap((m) => m.errors.slice(from - 1, to));
    return { days: label, points: errs.length, mape: mean(errs.map(Math.abs)) ?? 0 };
  };
  return {
    method: FORECAST_METHOD,
    trailingDays,
    months: out,
    byDay,
    overall: { points: all.length, mape: mean(all.map(Math.abs)) ?? 0, bias: mean(all) ?? 0 },
    byThird: [third(1, 10, '1-10'), third(11, 20, '11-20'), third(21, 31, '21-30')],
  };
}
