/**
 * `syncStore`: fetches the days an organization's store lacks and writes them, one month at a time.
 * Safe to run any time: a second run finds nothing to fetch and writes nothing; a run killed at any
 * moment leaves every partition as it was or as it is meant to be, and the days it had not recorded
 * as held are fetched again by the next run; one sync per organization at a time (a lock), while
 * syncs of other organizations go on beside it.
 */
import { randomBytes } from 'node:crypto';
import {
  type Clock,
  type DayRange,
  EARLIEST_DATA_DATE,
  type IsoDate,
  type IsoMonth,
  monthBounds,
  type OrgClient,
  utcDay,
  yesterdayUtc,
} from '@orgreport/api-core';
import { type FetchProgress, fetchRange } from '@orgreport/snapshot';
import { applySpan, stateAfterSpan } from './apply.ts';
import { Engine } from './engine.ts';
import { StoreError } from './errors.ts';
import { lockOrganization } from './lock.ts';
import { type SpanInfo, writeRawSpan } from './raw.ts';
import type { RecordedHookEvent } from './rows.ts';
import {
  emptyState,
  missingSpans,
  type OrgState,
  readState,
  removeSpan,
  splitByMonth,
  writeState,
} from './state.ts';
import { openStore } from './store-file.ts';

/** What a sync reports while it works. */
export type SyncProgress =
  | { stage: 'plan'; orgId: string; spans: DayRange[] }
  | { stage: 'fetch'; span: DayRange; index: number; pages: number; userDays: number }
  | { stage: 'written'; span: DayRange; index: number; written: number; unchanged: number };

export interface SyncOptions {
  client: OrgClient;
  /** The clock: "yesterday" is the last day synced, and it stamps the fetch. */
  now: Clock;
  toolVersion: string;
  /** First day wanted (default and earliest: the first day of data, 2026-01-14). */
  since?: IsoDate;
  /** Last day wanted (default and latest: yesterday, UTC). */
  until?: IsoDate;
  /** Months fetched again whole even if held (the service revised them); each replaces its partitions. */
  refetch?: readonly IsoMonth[];
  /**
   * The organization id when known (the `meta.org_id` of analytics responses); otherwise one small
   * request asks for it.
   */
  orgId?: string;
  /** Display name of the organization (default its id). */
  organizationName?: string;
  /** Events of the local hook log: those of the fetched days are stored in `hook_events`. */
  hookEvents?: RecordedHookEvent[];
  /** Values masked wherever they occur in the fetched data (the API key, the SMTP password). */
  secrets?: ReadonlyArray<string>;
  /** `/users` rows per page (1..100, default 100). */
  usersPageSize?: number;
  signal?: AbortSignal;
  onProgress?: (progress: SyncProgress) => void;
}

export interface SyncResult {
  orgId: string;
  /** The spans fetched (one month at most each); empty when the store held every day. */
  spans: DayRange[];
  written: number;
  unchanged: number;
}

/** The organization id the key belongs to, from the smallest analytics response (one day of `/activity`). */
async function organizationId(client: OrgClient, day: IsoDate, signal?: AbortSignal): Promise<string> {
  const response = await client.analytics.activity(
    { startDate: day, endDate: day },
    signal ? { signal } : undefined,
  );
  return response.meta.org_id;
}

/** The days wanted: `since..until` within the days the API has. */
export function wantedDays(options: Pick<SyncOptions, 'since' | 'until' | 'now'>): DayRange {
  const yesterday = yesterdayUtc(options.now);
  const until = options.until && options.until < yesterday ? options.until : yesterday;
  const since = options.since && options.since > EARLIEST_DATA_DATE ? options.since : EARLIEST_DATA_DATE;
  return { start: since, end: until };
}

/** The spans a sync fetches: the wanted days the state lacks (refetched months count as lacking), by month. */
export function spansToFetch(
  state: OrgState,
  wanted: DayRange,
  refetch: readonly IsoMonth[] = [],
): DayRange[] {
  let held = state.days;
  for (const month of refetch) held = removeSpan(held, monthBounds(month));
  return splitByMonth(missingSpans(held, wanted));
}

/**
 * Fetches into the store in `root` (created when missing) the days of `since..until` it lacks,
 * month by month; the organization users and readiness reports come with the last month.
 *
 * @example
 * await syncStore('/srv/store', { client, now: () => new Date(), toolVersion: '0.1.0' });
 */
export async function syncStore(root: string, options: SyncOptions): Promise<SyncResult> {
  const wanted = wantedDays(options);
  if (wanted.start > wanted.end) {
    throw new StoreError(`no day to sync: data runs from ${EARLIEST_DATA_DATE} to ${wanted.end}`);
  }
  // The API answers before a new store is made: a sync refused there (a wrong key, no network)
  // leaves no empty store behind.
  const orgId = options.orgId ?? (await organizationId(options.client, wanted.end, options.signal));
  const layout = await openStore(root, { create: true });
  const lock = await lockOrganization(layout, orgId, options.now);
  let engine: Engine | undefined;
  try {
    // The salt of secret fingerprints is the organization's own, so a secret that did not change
    // keeps its fingerprint from one sync to the next (and a changed one shows as changed).
    let state: OrgState = (await readState(layout, orgId)) ?? {
      ...emptyState(orgId),
      salt: randomBytes(16).toString('hex'),
    };
    const spans = spansToFetch(state, wanted, options.refetch);
    options.onProgress?.({ stage: 'plan', orgId, spans });
    const result: SyncResult = { orgId, spans, written: 0, unchanged: 0 };
    if (spans.length === 0) return result;
    engine = await Engine.open();
    // The undated lists (organization users, readiness reports) are as of the day they are fetched:
    // once the store holds today's, a later sync of the same day does not fetch them again.
    const listsDue = state.listsAsOf !== utcDay(options.now());
    for (const [index, span] of spans.entries()) {
      const lists = listsDue && index === spans.length - 1;
      const snapshot = await fetchRange(options.client, {
        range: span,
        lists,
        now: options.now,
        toolVersion: options.toolVersion,
        organizationName:
          options.organizationName ?? (state.organizationName !== orgId ? state.organizationName : undefined),
        ...(options.hookEvents && { hookEvents: options.hookEvents }),
        ...(state.salt && { salt: state.salt }),
        ...(options.secrets && { secrets: options.secrets }),
        ...(options.usersPageSize && { usersPageSize: options.usersPageSize }),
        ...(options.signal && { signal: options.signal }),
        onProgress: (p: FetchProgress) =>
          options.onProgress?.({ stage: 'fetch', span, index, pages: p.pages, userDays: p.userDays }),
      });
      if (snapshot.manifest.organization.id !== orgId) {
        throw new StoreError(
          `the API answered for organization ${snapshot.manifest.organization.id}, not ${orgId}: check the key and the organization`,
        );
      }
      const info: SpanInfo = {
        range: span,
        lists,
        asOf: utcDay(options.now()),
        hookLog: options.hookEvents !== undefined,
      };
      // The raw span first: whatever happens next, the store can be rebuilt from it.
      await writeRawSpan(layout, orgId, snapshot, info, state.salt);
      // A refetched month is replaced whole: a store in object storage does not read its old files.
      const month = span.start.slice(0, 7);
      if (options.refetch?.includes(month)) await layout.remote?.dropMonth(orgId, month);
      let applied = await applySpan(engine, layout, orgId, snapshot, info);
      let next = stateAfterSpan(state, snapshot, info);
      await writeState(layout, next);
      // In object storage the span is committed with the state, by compare-and-swap: when another
      // sync committed first, the span is applied again on top of what it wrote.
      for (let tries = 1; layout.remote && !(await layout.remote.commit(orgId, next)); tries++) {
        if (tries >= 10)
          throw new StoreError(
            `the store ${layout.label} kept changing while ${span.start}..${span.end} was written; run the sync again`,
          );
        state = (await readState(layout, orgId)) ?? state;
        applied = await applySpan(engine, layout, orgId, snapshot, info);
        next = stateAfterSpan(state, snapshot, info);
        await writeState(layout, next);
      }
      state = next;
      result.written += applied.written;
      result.unchanged += applied.unchanged;
      options.onProgress?.({ stage: 'written', span, index, ...applied });
    }
    return result;
  } finally {
    engine?.close();
    await lock.release();
  }
}
