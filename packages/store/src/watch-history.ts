/**
 * `readWatchHistory`: what the alert rules of `orgreport watch` read of one organization: the days
 * held, the organization's credits per day (`tokens_daily`), every user's credits per day
 * (`user_days`, four columns only), and every control revision (`control_revisions`, settings parsed
 * back from their JSON text). Days outside `since..until` are left in the files.
 */
import type { ControlChange, DayRange, IsoDate } from '@orgreport/api-core';
import { Engine, sqlString } from './engine.ts';
import { StoreError } from './errors.ts';
import { entries } from './files.ts';
import type { StoreLayout } from './layout.ts';
import { readState } from './state.ts';
import { openStore } from './store-file.ts';

export interface ReadWatchHistoryOptions {
  /** The first day read (default: the first day held). */
  since?: IsoDate;
  /** The last day read (default: the last day held). */
  until?: IsoDate;
  /** Read the user-day rows (default true; the forecast's backtest needs the organization's days only). */
  userDays?: boolean;
}

/** An organization's credits and control revisions as the watch reads them. */
export interface StoredWatchHistory {
  orgId: string;
  organizationName: string;
  /** The days held within `since..until`, as sorted, disjoint spans. */
  held: DayRange[];
  /** `tokens_daily.billable_tokens` per day. */
  orgDays: Array<{ date: IsoDate; credits: number }>;
  /** `user_days` rows: the user, the day, `billable_tokens`. */
  userDays: Array<{ date: IsoDate; userId: string; email: string | null; credits: number }>;
  /** Every stored control revision, revision ascending. */
  controls: ControlChange[];
}

/**
 * The partition files of an organization's dataset, in month order. Of a store in object storage,
 * only those of the months of `since..until` (when given) are fetched into its cache.
 */
async function partFiles(
  layout: StoreLayout,
  dataset: string,
  orgId: string,
  span: { since?: IsoDate; until?: IsoDate } = {},
): Promise<string[]> {
  if (layout.remote) {
    const first = span.since?.slice(0, 7) ?? '0000-00';
    const last = span.until?.slice(0, 7) ?? '9999-99';
    const months = (await layout.partitionMonths(dataset, orgId)).filter((m) => m >= first && m <= last);
    return layout.presentFiles(
      orgId,
      months.map((m) => layout.partitionFile(dataset, orgId, m)),
    );
  }
  const dir = layout.orgDir(dataset, orgId);
  const out: string[] = [];
  for (const month of await entries(dir)) {
    for (const file of await entries(`${dir}/${month}`)) {
      if (/^part-.*\.parquet$/.test(file)) out.push(`${dir}/${month}/${file}`);
    }
  }
  return out;
}

const relation = (files: string[]) => `read_parquet([${files.map(sqlString).join(', ')}])`;

/** The spans of `days` within `since..until`. */
function clip(days: readonly DayRange[], since?: IsoDate, until?: IsoDate): DayRange[] {
  return days.flatMap((r) => {
    const start = since && since > r.start ? since : r.start;
    const end = until && until < r.end ? until : r.end;
    return start <= end ? [{ start, end }] : [];
  });
}

/**
 * Reads what the watch needs of organization `orgId` (a store without it is a {@link StoreError}).
 *
 * @example
 * const history = await readWatchHistory('/srv/store', 'org_1', { since: '2026-08-01' });
 */
export async function readWatchHistory(
  root: string,
  orgId: string,
  options: ReadWatchHistoryOptions = {},
): Promise<StoredWatchHistory> {
  const layout = await openStore(root);
  const state = await readState(layout, orgId);
  if (!state) throw new StoreError(`the store ${root} holds no data of organization ${orgId}`);
  const held = clip(state.days, options.since, options.until);
  const first = held[0]?.start;
  const last = held.at(-1)?.end;
  // The datasets by day: the partitions of the months held within since..until (none: no day held).
  const dated = async (dataset: string) =>
    first && last ? partFiles(layout, dataset, orgId, { since: first, until: last }) : [];
  const engine = await Engine.open();
  try {
    const [tokens, users, revisions] = await Promise.all([
      dated('tokens_daily'),
      options.userDays === false ? [] : dated('user_days'),
      partFiles(layout, 'control_revisions', orgId),
    ]);
    const days =
      first && last ? `date BETWEEN DATE ${sqlString(first)} AND DATE ${sqlString(last)}` : 'false';
    const orgDays: StoredWatchHistory['orgDays'] = [];
    if (tokens.length > 0) {
      const c = await engine.columns(
        `SELECT strftime(date, '%Y-%m-%d') AS date, billable_tokens AS credits FROM ${relation(tokens)} WHERE ${days} ORDER BY date`,
      );
      const dates = c.date ?? [];
      for (let i = 0; i < dates.length; i++) {
        orgDays.push({ date: dates[i] as string, credits: Number(c.credits![i] ?? 0) });
      }
    }
    const userDays: StoredWatchHistory['userDays'] = [];
    if (users.length > 0 && options.userDays !== false) {
      const { columns: c } = await engine.encodedColumns(
        [
          { name: 'date', type: 'DATE', doc: '' },
          { name: 'user_id', type: 'VARCHAR', doc: '' },
          { name: 'user_email', type: 'VARCHAR', doc: '' },
          { name: 'billable_tokens', type: 'DOUBLE', doc: '' },
        ],
        `${relation(users)} WHERE ${days}`,
        'user_id, date',
      );
      const dates = c.date ?? [];
      for (let i = 0; i < dates.length; i++) {
        userDays.push({
          date: dates[i] as string,
          userId: c.user_id![i] as string,
          email: (c.user_email![i] as string | null) ?? null,
          credits: Number(c.billable_tokens![i] ?? 0),
        });
      }
    }
    const controls: ControlChange[] = [];
    if (revisions.length > 0) {
      const rows = await engine.rows(
        `SELECT CAST(revision AS DOUBLE) AS revision, updated_at, user_id, user_email, user_name, settings FROM ${relation(revisions)} ORDER BY revision`,
      );
      for (const r of rows) {
        const user =
          r.user_id === null && r.user_email === null && r.user_name === null
            ? null
            : {
                id: r.user_id as string | null,
                email: r.user_email as string | null,
                name: r.user_name as string | null,
              };
        let settings: unknown = {};
        try {
          settings = r.settings === null ? {} : JSON.parse(r.settings as string);
        } catch {
          throw new StoreError(
            `control revision ${r.revision} of organization ${orgId} holds settings that are not JSON: rebuild the store from its raw data (orgreport sync --store DIR --rebuild)`,
          );
        }
        controls.push({
          revision: Number(r.revision),
          updatedAt: r.updated_at as string,
          user,
          settings,
        } as ControlChange);
      }
    }
    return { orgId, organizationName: state.organizationName, held, orgDays, userDays, controls };
  } finally {
    engine.close();
  }
}
