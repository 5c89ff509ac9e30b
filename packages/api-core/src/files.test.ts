/** Atomic file writes through their public entry point: whole or not at all, the mode kept, races. */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { copyFileAtomic, writeFileAtomic } from './index.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function scratch(): string {
  const dir = mkdtempSync(join(tmpdir(), 'files-'));
  dirs.push(dir);
  return dir;
}

/** Runs `body` under `mask`, the process's umask put back after. */
async function withUmask<T>(mask: number, body: () => Promise<T>): Promise<T> {
  const old = process.umask(mask);
  try {
    return await body();
  } finally {
    process.umask(old);
  }
}

const modeOf = (path: string) => statSync(path).mode & 0o777;

describe('writeFileAtomic', () => {
  it('replaces the file whole, creating its folders, and leaves no temporary beside it', async () => {
    const dir = scratch();
    const path = join(dir, 'a', 'b', 'state.json');
    await writeFileAtomic(path, 'first\n');
    await writeFileAtomic(path, new TextEncoder().encode('second\n'));
    expect(readFileSync(path, 'utf8')).toBe('second\n');
    expect(readdirSync(join(dir, 'a', 'b'))).toEqual(['state.json']);
  });

  it('gives the file exactly the mode asked for under a restrictive umask, and new folders theirs', async () => {
    const dir = scratch();
    const path = join(dir, 'kept', 'deep', 'alerts.json');
    await withUmask(0o077, () => writeFileAtomic(path, 'x', { mode: 0o640, folderMode: 0o750 }));
    // The umask would have made it 0600; the mode asked for is 0640.
    expect(modeOf(path)).toBe(0o640);
    await withUmask(0o022, () => writeFileAtomic(path, 'y', { mode: 0o600, folderMode: 0o700 }));
    expect(modeOf(path)).toBe(0o600);
    // Folders get their mode when created, less the umask (as mkdir's): 0750 under 077 is 0700.
    expect(modeOf(join(dir, 'kept'))).toBe(0o700);
    expect(modeOf(join(dir, 'kept', 'deep'))).toBe(0o700);
    const fresh = join(dir, 'private', 'f');
    await withUmask(0o022, () => writeFileAtomic(fresh, 'z', { mode: 0o600, folderMode: 0o700 }));
    expect(modeOf(join(dir, 'private'))).toBe(0o700);
  });

  it('leaves the old content and no temporary when the write fails', async () => {
    const dir = scratch();
    // A folder in the way: the temporary is written, then the rename over it fails.
    const path = join(dir, 'report.json');
    mkdirSync(path);
    writeFileSync(join(path, 'inside'), 'old');
    await expect(writeFileAtomic(path, 'new')).rejects.toMatchObject({
      code: expect.stringMatching(/EISDIR|ENOTEMPTY|EEXIST/),
    });
    expect(readdirSync(dir)).toEqual(['report.json']);
    expect(readFileSync(join(path, 'inside'), 'utf8')).toBe('old');

    // The same with the temporary in a folder of its own.
    const tmpDir = join(dir, '_tmp');
    await expect(writeFileAtomic(path, 'new', { tmpDir })).rejects.toThrow();
    expect(readdirSync(tmpDir)).toEqual([]);
  });

  it('writes in tmpDir, not beside the target', async () => {
    const dir = scratch();
    const tmpDir = join(dir, '_tmp');
    const path = join(dir, '_state', 'org.json');
    await writeFileAtomic(path, '{}', { tmpDir });
    expect(readFileSync(path, 'utf8')).toBe('{}');
    expect(readdirSync(join(dir, '_state'))).toEqual(['org.json']);
    expect(readdirSync(tmpDir)).toEqual([]);
  });

  it('leaves one whole version when many write at once, and readers never see a part', async () => {
    const dir = scratch();
    const path = join(dir, 'shared.bin');
    const size = 1 << 20;
    const versions = Array.from({ length: 12 }, (_, i) => Buffer.alloc(size, 65 + i));
    await writeFileAtomic(path, versions[0] as Buffer);
    let writing = true;
    const seen: string[] = [];
    const reader = (async () => {
      while (writing) {
        const bytes = await readFile(path).catch((error: NodeJS.ErrnoException) => error.code ?? 'error');
        if (typeof bytes === 'string') seen.push(bytes);
        else
          seen.push(
            bytes.length === size && bytes.every((b) => b === bytes[0]) ? 'whole' : `part of ${bytes.length}`,
          );
      }
    })();
    await Promise.all(versions.map((v) => writeFileAtomic(path, v))).finally(() => {
      writing = false;
    });
    await reader;
    expect(seen.filter((s) => s !== 'whole')).toEqual([]);
    expect(seen.length).toBeGreaterThan(0);
    const last = readFileSync(path);
    expect(last.length).toBe(size);
    expect(versions.some((v) => v.equals(last))).toBe(true);
    expect(readdirSync(dir)).toEqual(['shared.bin']);
  });
});

describe('copyFileAtomic', () => {
  it('copies the file whole with the mode asked for, whatever the umask', async () => {
    const dir = scratch();
    const from = join(dir, 'report.pdf');
    writeFileSync(from, Buffer.alloc(300_000, 7));
    const to = join(dir, 'out', 'report.pdf');
    await withUmask(0o077, () => copyFileAtomic(from, to, { mode: 0o644 }));
    expect(readFileSync(to).equals(readFileSync(from))).toBe(true);
    expect(modeOf(to)).toBe(0o644);
    expect(readdirSync(join(dir, 'out'))).toEqual(['report.pdf']);
  });

  it('leaves the old copy and no temporary when the source cannot be read', async () => {
    const dir = scratch();
    const to = join(dir, 'report.pdf');
    writeFileSync(to, 'old copy');
    await expect(copyFileAtomic(join(dir, 'missing.pdf'), to)).rejects.toMatchObject({ code: 'ENOENT' });
    // A folder opens, then fails on the first read: the temporary was created by then.
    mkdirSync(join(dir, 'a-folder'));
    await expect(copyFileAtomic(join(dir, 'a-folder'), to)).rejects.toMatchObject({ code: 'EISDIR' });
    expect(readFileSync(to, 'utf8')).toBe('old copy');
    expect(readdirSync(dir).sort()).toEqual(['a-folder', 'report.pdf']);
  });
});
