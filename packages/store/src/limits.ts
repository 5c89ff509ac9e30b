/**
 * The record of the credit limits set (`_limits/org_id=<id>/limits.jsonl`): the API sets limits
 * but cannot read them back, so what `limits apply` set is kept here, one line per limit the API
 * accepted. Personal data (e-mails): the file is created with mode 0600.
 */
import type { IsoDate } from '@orgreport/api-core';
import { appendRecords, RECORD_FILES, readRecords, recordLayout } from './records.ts';
import { openStore } from './store-file.ts';

/** One credit limit the API accepted. */
export interface LimitRecord {
  /** The UTC day of the run that set it. */
  day: IsoDate;
  /** When the API accepted it (ISO 8601 instant, UTC). */
  at: string;
  /** The user's e-mail as given. */
  email: string;
  /** The limit, in credits. */
  limit: number;
}

/**
 * Appends limits the API accepted for organization `orgId` to the store in `root` (created when
 * missing): one write for all of them, flushed to the disk. Call it once per accepted batch.
 *
 * @example
 * await recordLimits('/srv/store', 'org_1', [{ day: '2026-11-22', at, email: 'ana@example.com', limit: 500 }]);
 */
export async function recordLimits(
  root: string,
  orgId: string,
  limits: ReadonlyArray<LimitRecord>,
): Promise<void> {
  const layout = await recordLayout(root);
  await appendRecords(
    RECORD_FILES.limits,
    layout.limitsFile(orgId),
    limits.map(({ day, at, email, limit }) => ({ day, at, email, limit })),
    layout,
  );
}

/**
 * Every limit recorded for organization `orgId` in the store in `root`, oldest first (none when
 * nothing was recorded): what the watch reads to know each user's limit on a given day. A damaged
 * record file is a `DamagedStoreError`.
 *
 * @example
 * const records = await readLimitRecords('/srv/store', 'org_1');
 */
export async function readLimitRecords(root: string, orgId: string): Promise<LimitRecord[]> {
  const layout = await openStore(root);
  return readRecords<LimitRecord>(layout, RECORD_FILES.limits, layout.limitsFile(orgId));
}

/**
 * The latest limit of each user of organization `orgId` recorded in the store in `root`, by
 * lower-cased e-mail (a later line wins). A damaged record file is a `DamagedStoreError`.
 *
 * @example
 * const limits = await readLimits('/srv/store', 'org_1');
 * limits.get('ana@example.com'); // { day: '2026-11-22', at: '...', email: 'Ana@example.com', limit: 500 }
 */
export async function readLimits(root: string, orgId: string): Promise<Map<string, LimitRecord>> {
  const out = new Map<string, LimitRecord>();
  for (const record of await readLimitRecords(root, orgId)) out.set(record.email.toLowerCase(), record);
  return out;
}
