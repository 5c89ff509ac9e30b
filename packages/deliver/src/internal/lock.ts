/**
 * One process at a time per ledger: `<ledger>.lock` names the process that holds it. The lock file
 * appears whole or not at all (written aside, then hard-linked into place, which fails when it
 * exists). A lock whose process is gone (same host, no such pid) is stale and taken over, by one
 * process only; a lock of a live process, or of another host, is a {@link LedgerLockedError}.
 */
import { randomBytes } from 'node:crypto';
import { link, readFile, rm, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { LedgerLockedError } from '../errors.ts';

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

/** True when a process with this id runs on this machine. */
function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

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
 * stale lock do this one at a time (`<lock>.takeover`, taken like the lock), so none removes a lock
 * another has just taken. Returns whether the lock is now ours.
 */
async function takeOver(path: string, seen: string | null, draft: string): Promise<boolean> {
  const guard = `${path}.takeover`;
  try {
    await link(draft, guard);
  } catch (error) {
    if (isCode(error, 'EEXIST')) return false;
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
 * Takes the lock at `path` for this process, or throws {@link LedgerLockedError} naming the process
 * that holds it (pid, host, since when). `what` names the locked thing in that message.
 */
export async function takeLock(path: string, what: string, now: () => Date, mode: number): Promise<HeldLock> {
  const me: LockOwner = { pid: process.pid, host: hostname(), since: now().toISOString() };
  const draft = `${path}.${process.pid}-${randomBytes(6).toString('hex')}`;
  await writeFile(draft, `${JSON.stringify(me)}\n`, { mode, flag: 'wx' });
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
      if (owner && (owner.host !== me.host || processAlive(owner.pid))) {
        throw new LedgerLockedError(
          `${what} is in use by process ${owner.pid} on ${owner.host} (since ${owner.since}); wait for it to finish, or remove ${path} if that process is gone`,
        );
      }
      // Stale (its process is gone) or unreadable: take it over.
      if (await takeOver(path, seen, draft)) return held;
    }
    throw new LedgerLockedError(
      `could not take the lock ${path}: other processes keep taking it (if none runs, remove ${path}.takeover)`,
    );
  } finally {
    await rm(draft, { force: true });
  }
}
