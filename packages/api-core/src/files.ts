/**
 * Whole-or-nothing file writes: write aside, flush, rename over (atomic on one file system), so a
 * reader sees the old file or the new one, never a part, and a failed write leaves the old file and
 * no temporary behind. The store's files, its bucket cache, the `dir` destination and the watch's
 * kept files are all written through these.
 */
import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { chmod, mkdir, open, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';

/** How {@link writeFileAtomic} and {@link copyFileAtomic} write. */
export interface AtomicWriteOptions {
  /** The file's mode, exactly (set again after creation, since a umask may take bits); default 0o666 less the umask. */
  mode?: number;
  /** The mode of the target's folders when they are created (default 0o777 less the umask). */
  folderMode?: number;
  /**
   * Where the temporary is written (created when missing; on the target's file system, or the
   * rename fails). Default: beside the target, as a hidden file.
   */
  tmpDir?: string;
  /** Flush the file to the disk before it is renamed into place (default true; false for a cache). */
  flush?: boolean;
}

const unique = () => `${process.pid}-${randomBytes(6).toString('hex')}`;

/** A fresh path under `tmpDir` (created), unique to this process. */
export async function tempPath(tmpDir: string, suffix = ''): Promise<string> {
  await mkdir(tmpDir, { recursive: true });
  return join(tmpDir, `${unique()}${suffix}`);
}

/** Flushes a written file to the disk, so a rename never publishes a file whose bytes are not there yet. */
export async function flushFile(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Flushes a folder's entries (a file created or renamed in it) to the disk, where the platform allows it. */
export async function flushFolder(dir: string): Promise<void> {
  try {
    const handle = await open(dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Some platforms cannot open or flush a folder; the renames are still atomic.
  }
}

/** Moves `from` over `to` (parents created): readers see the old file or the new one, never a part. */
export async function publish(from: string, to: string, folderMode?: number): Promise<void> {
  await mkdir(dirname(to), { recursive: true, mode: folderMode });
  await rename(from, to);
}

/** Writes a temporary through `fill`, gives it its mode and flushes it, then renames it over `path`; removed on failure. */
async function replaceWith(
  path: string,
  options: AtomicWriteOptions,
  fill: (tmp: string) => Promise<void>,
): Promise<void> {
  let tmp: string;
  if (options.tmpDir) {
    tmp = await tempPath(options.tmpDir);
  } else {
    await mkdir(dirname(path), { recursive: true, mode: options.folderMode });
    // Hidden, and named for who left it should the process die before the rename.
    tmp = join(dirname(path), `.orgreport-${unique()}.part`);
  }
  try {
    await fill(tmp);
    if (options.mode !== undefined) await chmod(tmp, options.mode);
    if (options.flush ?? true) await flushFile(tmp);
    await publish(tmp, path, options.folderMode);
  } catch (error) {
    await rm(tmp, { force: true });
    throw error;
  }
}

/**
 * Writes `data` to `path` whole or not at all: into a temporary of its own (created, never an
 * existing file), flushed, renamed over `path`.
 *
 * @example
 * await writeFileAtomic('/srv/store/_watch/state.json', text, { mode: 0o600, folderMode: 0o700 });
 */
export async function writeFileAtomic(
  path: string,
  data: string | Uint8Array,
  options: AtomicWriteOptions = {},
): Promise<void> {
  await replaceWith(path, options, (tmp) => writeFile(tmp, data, { flag: 'wx', mode: options.mode }));
}

/** Copies the file `from` to `to` whole or not at all (streamed: a large file is never held in memory). */
export async function copyFileAtomic(
  from: string,
  to: string,
  options: AtomicWriteOptions = {},
): Promise<void> {
  await replaceWith(to, options, (tmp) =>
    pipeline(createReadStream(from), createWriteStream(tmp, { flags: 'wx', mode: options.mode })),
  );
}
