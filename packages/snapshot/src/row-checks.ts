/**
 * Numbers are checked, not trusted: rows of the analytics endpoints are checked as they arrive, and
 * what was wrong is resolved by one rule and counted, so the report can say it under data quality.
 *
 * - a count (calls, sessions, messages, files, tokens...) that is negative: the row is excluded;
 * - a count that is fractional: the row is kept and flagged (credits may be fractional, counts not);
 * - a row dated outside the requested days, or on or after today: excluded;
 * - a second row for the same user and day (`/users`) or the same day (day endpoints), as overlapping
 *   pages or a server repeating itself give: the first one is kept, the others excluded (never summed).
 */
import { type IsoDate, type RowCheck, type RowRule, USER_DAY_SUMS, type UserDay } from '@orgreport/api-core';

/** The datasets whose rows are checked. */
export type CheckedDataset = 'userDays' | 'tokens' | 'tools' | 'activity' | 'productivity';

/** Counters of each dataset that count things (whole numbers); credits (`billable_tokens`) may be fractional. */
export const COUNT_FIELDS: Record<CheckedDataset, readonly string[]> = {
  // The summed counters of a user-day, credits aside, and the one count it does not sum.
  userDays: [...USER_DAY_SUMS.filter((f) => f !== 'billable_tokens'), 'assistant_messages'],
  tokens: ['input_tokens', 'output_tokens', 'cache_read_tokens', 'cache_write_tokens'],
  tools: [
    'tool_calls',
    'mcp_users_with_mcp',
    'skills_invocations',
    'slash_commands_invocations',
    'hooks_invocations',
    'web_users',
  ],
  activity: [
    'daily_active_users',
    'weekly_active_users',
    'monthly_active_users',
    'sessions',
    'messages',
    'user_messages',
  ],
  productivity: ['files_created', 'files_edited', 'git_commits', 'git_prs_created'],
};
/** Amounts that may be fractional but never negative. */
const AMOUNT_FIELDS = ['billable_tokens'] as const;
// Per dataset, computed once: every field checked for its sign, and the counts as a set.
const DATASETS = Object.keys(COUNT_FIELDS) as CheckedDataset[];
const CHECKED_FIELDS = Object.fromEntries(
  DATASETS.map((d) => [d, [...COUNT_FIELDS[d], ...AMOUNT_FIELDS]]),
) as unknown as Record<CheckedDataset, readonly string[]>;
const COUNTS = Object.fromEntries(DATASETS.map((d) => [d, new Set(COUNT_FIELDS[d])])) as unknown as Record<
  CheckedDataset,
  ReadonlySet<string>
>;

/** Examples kept per rule (a hostile server cannot bloat the manifest). */
const MAX_EXAMPLES = 5;

interface Tally {
  rows: number;
  examples: string[];
}

/** What a check decides for one row. */
type Verdict = 'keep' | 'exclude';

/**
 * Checks rows of the fetched range for one run: `keepUserDay` and `keepDay` say whether a row stays,
 * and {@link RowChecker.findings} lists what was found, by dataset and rule.
 */
export class RowChecker {
  readonly #range: { start: IsoDate; end: IsoDate };
  readonly #today: IsoDate;
  readonly #tallies = new Map<string, Tally>();
  /** Days seen per user, as bits over the range's days: a few bytes per user, not a string per row. */
  readonly #userDays = new Map<string, Uint8Array>();
  readonly #days = new Map<CheckedDataset, Set<string>>();
  readonly #rangeDays: number;
  readonly #rangeStartMs: number;

  constructor(range: { start: IsoDate; end: IsoDate }, today: IsoDate) {
    this.#range = range;
    this.#today = today;
    this.#rangeStartMs = Date.parse(`${range.start}T00:00:00Z`);
    this.#rangeDays =
      Math.round((Date.parse(`${range.end}T00:00:00Z`) - this.#rangeStartMs) / 86_400_000) + 1;
  }

  /** True when a `/users` row stays in the snapshot. */
  keepUserDay(row: Partial<UserDay>): boolean {
    const label = () => `${row.user_id ?? '?'} ${row.date ?? '?'}`;
    if (this.#dated('userDays', row.date, label) === 'exclude') return false;
    if (this.#numbers('userDays', row as Record<string, unknown>, label) === 'exclude') return false;
    const index = Math.round((Date.parse(`${row.date}T00:00:00Z`) - this.#rangeStartMs) / 86_400_000);
    const user = String(row.user_id);
    let seen = this.#userDays.get(user);
    if (!seen) {
      seen = new Uint8Array(Math.ceil(this.#rangeDays / 8));
      this.#userDays.set(user, seen);
    }
    const bit = 1 << (index % 8);
    const byte = index >> 3;
    if ((seen[byte]! & bit) !== 0) {
      this.#count('userDays', 'duplicate', label);
      return false;
    }
    seen[byte]! |= bit;
    return true;
  }

  /** True when a day row of `dataset` (`/tokens`, `/tools`, `/activity`, `/productivity`) stays. */
  keepDay(dataset: Exclude<CheckedDataset, 'userDays'>, row: { date?: unknown }): boolean {
    const date = typeof row.date === 'string' ? row.date : undefined;
    const label = () => date ?? '?';
    if (this.#dated(dataset, date, label) === 'exclude') return false;
    if (this.#numbers(dataset, row as Record<string, unknown>, label) === 'exclude') return false;
    let seen = this.#days.get(dataset);
    if (!seen) {
      seen = new Set();
      this.#days.set(dataset, seen);
    }
    const day = label();
    if (seen.has(day)) {
      this.#count(dataset, 'duplicate', () => day);
      return false;
    }
    seen.add(day);
    return true;
  }

  /** Day rows of `dataset` that stay. */
  days<Row extends { date?: unknown }>(dataset: Exclude<CheckedDataset, 'userDays'>, rows: Row[]): Row[] {
    return rows.filter((row) => this.keepDay(dataset, row));
  }

  /** What was found, one entry per dataset and rule, in a stable order. */
  findings(): RowCheck[] {
    return [...this.#tallies.entries()]
      .map(([key, tally]) => {
        const [dataset, rule] = key.split(':') as [string, RowRule];
        return { dataset, rule, rows: tally.rows, action: RULE_ACTION[rule], examples: tally.examples };
      })
      .sort((a, b) => (a.dataset + a.rule < b.dataset + b.rule ? -1 : 1));
  }

  #dated(dataset: CheckedDataset, date: string | undefined, label: () => string): Verdict {
    if (date === undefined) return 'keep'; // the schema has refused a row without a date already
    if (date >= this.#today) {
      this.#count(dataset, 'future', label);
      return 'exclude';
    }
    if (date < this.#range.start || date > this.#range.end) {
      this.#count(dataset, 'outside-range', label);
      return 'exclude';
    }
    return 'keep';
  }

  #numbers(dataset: CheckedDataset, row: Record<string, unknown>, label: () => string): Verdict {
    let fractional: string | undefined;
    for (const field of CHECKED_FIELDS[dataset]) {
      const value = row[field];
      if (typeof value !== 'number') continue;
      if (value < 0) {
        this.#count(dataset, 'negative', () => `${label()} ${field}=${value}`);
        return 'exclude';
      }
      if (fractional === undefined && !Number.isInteger(value) && COUNTS[dataset].has(field))
        fractional = `${field}=${value}`;
    }
    if (fractional !== undefined) this.#count(dataset, 'fractional', () => `${label()} ${fractional}`);
    return 'keep';
  }

  #count(dataset: CheckedDataset, rule: RowRule, example: () => string): void {
    const key = `${dataset}:${rule}`;
    let tally = this.#tallies.get(key);
    if (!tally) {
      tally = { rows: 0, examples: [] };
      this.#tallies.set(key, tally);
    }
    tally.rows++;
    if (tally.examples.length < MAX_EXAMPLES) tally.examples.push(example());
  }
}

/** What each rule does with the rows it finds. */
const RULE_ACTION: Record<RowRule, RowCheck['action']> = {
  negative: 'excluded',
  fractional: 'kept',
  'outside-range': 'excluded',
  future: 'excluded',
  duplicate: 'excluded',
};
