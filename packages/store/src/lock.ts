/**
 * One sync of an organization at a time: `_locks/org_id=<id>.lock` names the process holding it.
 * The lock file appears whole or not at all (written aside, then hard-linked into place, which fails
 * when it exists). A lock whose process is gone (same host, no such pid) is stale and taken over,
 * by one process only.
 */

import { link, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { dirname } from 'node:path';
import { StoreLockedError } from './errors.ts';
import { tempPath } from './files.ts';
import type { StoreLayout } from './layout.ts';

interface LockOwner {
  pid: number;
  host: string;
  since: string;
}

/** True when a process with this id runs on this machine. */
function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The text of a lock file; null when there is none. */
async function readLock(path: string): Promise<string | null> {
  try {
    return await readFile(path, 'utf8');
  } catch {
    return null;
  }
}

function parseOwner(text: string | null): LockOwner | null {
  try {
    const owner = JSON.parse(text ?? '') as LockOwner;
    return typeof owner.pid === 'number' ? owner : null;
  } catch {
    return null;
  }
}

async function readOwner(path: string): Promise<LockOwner | null> {
  return parseOwner(await readLock(path));
}

/**
 * Replaces the stale lock at `path` by ours if it still reads `seen`. Processes that found the
 * same stale lock do this one at a time (`<lock>.takeover`, taken like the lock): between the look
 * and the removal another process may have taken the lock, and its lock must not be removed.
 * Returns whether the lock is now ours.
 */
async function takeOver(path: string, seen: string | null, draft: string): Promise<boolean> {
  const guard = `${path}.takeover`;
  try {
    await link(draft, guard);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false; // another process is at it
    throw error;
  }
  try {
    if ((await readLock(path)) !== seen) return false;
    await rm(path, { force: true });
    await link(draft, path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    await rm(guard, { force: true });
  }
}

/** A held lock; `release` removes it (only if it is still ours). */
export interface StoreLock {
  path: string;
  release(): Promise<void>;
}

/**
 * Takes the lock of `orgId` in the store, or throws {@link StoreLockedError} naming the process that
 * holds it. `now` stamps the lock (shown to whoever finds it held).
 */
export async function lockOrganization(
  layout: StoreLayout,
  orgId: string,
  now: () => Date,
): Promise<StoreLock> {
  const path = layout.lockFile(orgId);
  const me: LockOwner = { pid: process.pid, host: hostname(), since: now().toISOString() };
  const draft = await tempPath(layout.tmp, '.lock');
  await writeFile(draft, `${JSON.stringify(me)}\n`);
  const held: StoreLock = {
    path,
    release: async () => {
      const owner = await readOwner(path);
      if (owner?.pid === me.pid && owner.host === me.host) await rm(path, { force: true });
    },
  };
  try {
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        await mkdir(dirname(path), { recursive: true });
        await link(draft, path);
        return held;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const seen = await readLock(path);
      const owner = parseOwner(seen);
      if (owner && (owner.host !== me.host || processAlive(owner.pid))) {
        throw new StoreLockedError(
          `another sync of organization ${orgId} is running (process ${owner.pid} on ${owner.host}, since ${owner.since}); wait for it to finish, or remove ${path} if that process is gone`,
        );
      }
      // Stale (its process is gone) or unreadable: take it over.
      if (await takeOver(path, seen, draft)) return held;
    }
    throw new StoreLockedError(
      `could not take the lock ${path}: other processes keep taking it (if no sync of ${orgId} runs, remove ${path}.takeover)`,
    );
  } finally {
    await rm(draft, { force: true });
  }
}
