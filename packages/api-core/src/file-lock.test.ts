/** The file lock through its public entry point: held, found held, stale, of another host, released. */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type FileLockOptions, type LockOwner, takeFileLock } from './index.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function lockPath(): string {
  const dir = mkdtempSync(join(tmpdir(), 'file-lock-'));
  dirs.push(dir);
  return join(dir, 'deep', 'x.lock');
}

const options: FileLockOptions = {
  now: () => new Date('2026-11-25T10:00:00Z'),
  inUse: (owner, path) => new Error(`in use by ${owner.pid} on ${owner.host} since ${owner.since}: ${path}`),
  contended: (path) => new Error(`contended: ${path}`),
};

/** A pid no process has (above Linux's pid_max). */
const GONE_PID = 2 ** 22 + 1;

describe('takeFileLock', () => {
  it('writes who holds it, refuses a second taker naming the holder, and is free again once released', async () => {
    const path = lockPath();
    const held = await takeFileLock(path, { ...options, mode: 0o600 });
    const owner = JSON.parse(readFileSync(path, 'utf8')) as LockOwner;
    expect(owner).toEqual({ pid: process.pid, host: hostname(), since: '2026-11-25T10:00:00.000Z' });
    expect(statSync(path).mode & 0o777).toBe(0o600);
    await expect(takeFileLock(path, options)).rejects.toThrow(
      `in use by ${process.pid} on ${hostname()} since 2026-11-25T10:00:00.000Z: ${path}`,
    );
    await held.release();
    // Nothing is left beside it: no draft, no takeover guard.
    expect(readdirSync(join(path, '..'))).toEqual([]);
    const again = await takeFileLock(path, options);
    await again.release();
  });

  it('takes over a lock whose process is gone on this host, or that is unreadable', async () => {
    for (const stale of [JSON.stringify({ pid: GONE_PID, host: hostname(), since: 'x' }), 'not json']) {
      const path = lockPath();
      await takeFileLock(path, options).then((l) => l.release());
      writeFileSync(path, stale);
      const held = await takeFileLock(path, options);
      expect((JSON.parse(readFileSync(path, 'utf8')) as LockOwner).pid).toBe(process.pid);
      await held.release();
    }
  });

  it('leaves a lock of another host alone, whatever its pid', async () => {
    const path = lockPath();
    await takeFileLock(path, options).then((l) => l.release());
    writeFileSync(path, JSON.stringify({ pid: GONE_PID, host: 'elsewhere.test', since: 's' }));
    await expect(takeFileLock(path, options)).rejects.toThrow(`in use by ${GONE_PID} on elsewhere.test`);
  });

  it('releases only its own lock: one taken over meanwhile stays', async () => {
    const path = lockPath();
    const held = await takeFileLock(path, options);
    const theirs = JSON.stringify({ pid: process.pid, host: hostname(), since: 'later' });
    writeFileSync(path, theirs);
    await held.release();
    expect(readFileSync(path, 'utf8')).toBe(theirs);
  });
});
