/**
 * One process at a time per lock file: the file names the process that holds it. It appears whole
 * or not at all (written aside, then hard-linked into place, which fails when it exists). A lock
 * whose process is gone (same host, no such pid) is stale and taken over, by one process only; a
 * lock of a live process, or of another host, is the caller's "in use" error. The store's sync lock
 * and the delivery ledger's lock are both this one.
 */
import { randomBytes } from 'node:crypto';
import { link, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { dirname } from 'node:path';

/** Who holds a lock, as written in the lock file. */
export interface LockOwner {
  pid: number;
  host: string;
  /** When it was taken (ISO instant). */
  since: string;
}

/** A held lock; `release` removes it if it is still ours. */
export interface HeldLock {
  path: string;
  release(): Promise<void>;
}

export interface FileLockOptions {
  /** Stamps the lock (shown to whoever finds it held). */
  now: () => Date;
  /** The lock file's mode (default 0o666 before the umask). */
  mode?: number;
  /** Where our lock is written before it is linked into place; on the lock's file system (default: beside it). */
  draftPath?: string;
  /** The error for a lock held by a live process (or one of another host). */
  inUse: (owner: LockOwner, path: string) => Error;
  /** The error when other processes kept taking the lock while we tried to take over a stale one. */
  contended: (path: string) => Error;
}

/** True when a process with this id runs on this machine (one of another user's included). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The text of a lock file; null when there is none. */
async function readText(path: string): Promise<string | null> {
  try {
    return await readFile(path, 'utf8');
  } catch {
    return null;
  }
}

function parseOwner(text: string | null): LockOwner | null {
  try {
    const owner = JSON.parse(text ?? '') as LockOwner;
    return typeof owner?.pid === 'number' && typeof owner.host === 'string' ? owner : null;
  } catch {
    return null;
  }
}

function isCode(error: unknown, code: string): boolean {
  return (error as NodeJS.ErrnoException)?.code === code;
}

/**
 * Replaces the stale lock at `path` by ours if it still reads `seen`. Processes that found the same
 * stale lock do this one at a time (`<lock>.takeover`, taken like the lock): between the look and
 * the removal another process may have taken the lock, and its lock must not be removed. Returns
 * whether the lock is now ours.
 */
async function takeOver(path: string, seen: string | null, draft: string): Promise<boolean> {
  const guard = `${path}.takeover`;
  try {
    await link(draft, guard);
  } catch (error) {
    if (isCode(error, 'EEXIST')) return false; // another process is at it
    throw error;
  }
  try {
    if ((await readText(path)) !== seen) return false;
    await rm(path, { force: true });
    await link(draft, path);
    return true;
  } catch (error) {
    if (isCode(error, 'EEXIST')) return false;
    throw error;
  } finally {
    await rm(guard, { force: true });
  }
}

/**
 * Takes the lock at `path` for this process (its folder made if missing), or throws the options'
 * `inUse` error naming the process that holds it.
 */
export async function takeFileLock(path: string, options: FileLockOptions): Promise<HeldLock> {
  const me: LockOwner = { pid: process.pid, host: hostname(), since: options.now().toISOString() };
  const draft = options.draftPath ?? `${path}.${process.pid}-${randomBytes(6).toString('hex')}`;
  await mkdir(dirname(path), { recursive: true });
  await writeFile(draft, `${JSON.stringify(me)}\n`, { mode: options.mode ?? 0o666, flag: 'wx' });
  const held: HeldLock = {
    path,
    release: async () => {
      const owner = parseOwner(await readText(path));
      if (owner?.pid === me.pid && owner.host === me.host && owner.since === me.since) {
        await rm(path, { force: true });
      }
    },
  };
  try {
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        await link(draft, path);
        return held;
      } catch (error) {
        if (!isCode(error, 'EEXIST')) throw error;
      }
      const seen = await readText(path);
      const owner = parseOwner(seen);
      if (owner && (owner.host !== me.host || processAlive(owner.pid))) throw options.inUse(owner, path);
      // Stale (its process is gone) or unreadable: take it over.
      if (await takeOver(path, seen, draft)) return held;
    }
    throw options.contended(path);
  } finally {
    await rm(draft, { force: true });
  }
}
