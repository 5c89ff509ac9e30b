/**
 * The record of every sync run (`_sync/org_id=<id>/runs.jsonl`): when it ran, whether it stored
 * what it was asked for, and the last day the store holds after it. What a watch reads to say that
 * syncs have failed for days, or that yesterday is not in the store yet.
 */
import type { IsoDate } from '@orgreport/api-core';
import { scrubText } from '@orgreport/api-core/redact';
import { appendRecords, RECORD_FILES, readRecords, recordLayout } from './records.ts';
import { readState } from './state.ts';
import { openStore } from './store-file.ts';

/** One sync run of an organization. */
export interface SyncRun {
  /** When the run started (ISO 8601 instant, UTC). */
  at: string;
  /** The UTC day of the run. */
  day: IsoDate;
  /** Whether the run stored every day it was asked for. */
  ok: boolean;
  /** The last day the store holds after the run; null when it holds none. */
  through: IsoDate | null;
  /** Why the run failed; left out when it did not. */
  error?: string;
}

export interface RecordSyncRunOptions {
  /** Values masked wherever they occur in `error` (the API key). */
  secrets?: ReadonlyArray<string>;
}

/**
 * Appends a run of organization `orgId` to the store in `root` (created when missing), with the
 * last day the store holds now as `through`, and returns the record written.
 *
 * @example
 * await recordSyncRun('/srv/store', 'org_1', { at: started.toISOString(), day: '2026-11-22', ok: true });
 */
export async function recordSyncRun(
  root: string,
  orgId: string,
  run: Omit<SyncRun, 'through'>,
  options: RecordSyncRunOptions = {},
): Promise<SyncRun> {
  const layout = await recordLayout(root);
  // A state that cannot be read holds no day anyone can use.
  const state = await readState(layout, orgId).catch(() => null);
  const record: SyncRun = {
    at: run.at,
    day: run.day,
    ok: run.ok,
    through: state?.days.at(-1)?.end ?? null,
    ...(run.error !== undefined && { error: scrubText(run.error, [...(options.secrets ?? [])]) }),
  };
  await appendRecords(RECORD_FILES.syncRuns, layout.syncRunsFile(orgId), [record], layout);
  return record;
}

/**
 * The sync runs of organization `orgId` recorded in the store in `root`, oldest first: the last
 * `last` of them when given. A damaged record file is a `DamagedStoreError`.
 *
 * @example
 * const [latest] = await readSyncRuns('/srv/store', 'org_1', { last: 1 });
 */
export async function readSyncRuns(
  root: string,
  orgId: string,
  options: { last?: number } = {},
): Promise<SyncRun[]> {
  const layout = await openStore(root);
  const runs = await readRecords<SyncRun>(layout, RECORD_FILES.syncRuns, layout.syncRunsFile(orgId));
  return options.last === undefined ? runs : runs.slice(Math.max(0, runs.length - options.last));
}
