/**
 * One sync of an organization at a time: `_locks/org_id=<id>.lock` names the process holding it
 * (api-core's file lock: whole or not at all, a stale one taken over by one process only).
 */
import { type HeldLock, takeFileLock } from '@orgreport/api-core/file-lock';
import { tempPath } from '@orgreport/api-core/files';
import { StoreLockedError } from './errors.ts';
import type { StoreLayout } from './layout.ts';

/** A held lock; `release` removes it (only if it is still ours). */
export type StoreLock = HeldLock;

/**
 * Takes the lock of `orgId` in the store, or throws {@link StoreLockedError} naming the process that
 * holds it. `now` stamps the lock (shown to whoever finds it held).
 */
export async function lockOrganization(
  layout: StoreLayout,
  orgId: string,
  now: () => Date,
): Promise<StoreLock> {
  return takeFileLock(layout.lockFile(orgId), {
    now,
    // Drafted in `_tmp/` with every file being written, never among the locks.
    draftPath: await tempPath(layout.tmp, '.lock'),
    inUse: (owner, path) =>
      new StoreLockedError(
        `another sync of organization ${orgId} is running (process ${owner.pid} on ${owner.host}, since ${owner.since}); wait for it to finish, or remove ${path} if that process is gone`,
      ),
    contended: (path) =>
      new StoreLockedError(
        `could not take the lock ${path}: other processes keep taking it (if no sync of ${orgId} runs, remove ${path}.takeover)`,
      ),
  });
}
