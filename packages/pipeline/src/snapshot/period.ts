/** The period and the source a command's flags choose: `--month`, `--partial`, `--demo`. */
import { lastCompleteMonth, type MonthPeriod, monthPeriod, parseIsoMonth } from '@orgreport/api-core';
import { UsageError } from '../errors.ts';
import { positiveInteger } from '../input/numbers.ts';
import type { RunSettings } from '../settings.ts';

/** Flags that choose the period and the source. */
export interface AcquireFlags {
  month?: string;
  partial?: boolean;
  demo?: boolean;
  demoUsers?: string;
}

/** The report period of `--month` (default: the last complete month) under the configuration's clock. */
export function reportPeriod(flags: AcquireFlags, config: Pick<RunSettings, 'now' | 'today'>): MonthPeriod {
  const month = flags.month ?? lastCompleteMonth(config.now);
  // Name the flag when the user gave one; a default month failing means the clock (--today) is too early.
  const label = flags.month !== undefined ? '--month' : `the last complete month (today is ${config.today})`;
  try {
    parseIsoMonth(month, label);
    return monthPeriod(month, { now: config.now, allowPartial: Boolean(flags.partial) });
  } catch (error) {
    const text = (error as Error).message.replace(/^month /, `${label} `);
    throw new UsageError(text, { cause: error });
  }
}

/** Users of the demo organization when `--demo`, else undefined. */
export function demoUsersOf(flags: AcquireFlags): number | undefined {
  return flags.demo ? (positiveInteger(flags.demoUsers, '--demo-users') ?? 200) : undefined;
}
