/** File steps every write of the store is made of: write aside, flush, rename over (atomic on one file system). */
import { randomBytes } from 'node:crypto';
import { mkdir, open, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/** A fresh path under `tmpDir` (created), unique to this process. */
export async function tempPath(tmpDir: string, suffix = ''): Promise<string> {
  await mkdir(tmpDir, { recursive: true });
  return join(tmpDir, `${process.pid}-${randomBytes(6).toString('hex')}${suffix}`);
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

/** Moves `from` over `to` (parents created): readers see the old file or the new one, never a part. */
export async function publish(from: string, to: string): Promise<void> {
  await mkdir(dirname(to), { recursive: true });
  await rename(from, to);
}

/** Writes `text` to `path` through a temporary file in `tmpDir` and a rename. */
export async function writeFileAtomic(tmpDir: string, path: string, text: string): Promise<void> {
  const tmp = await tempPath(tmpDir);
  try {
    await writeFile(tmp, text);
    await flushFile(tmp);
    await publish(tmp, path);
  } catch (error) {
    await rm(tmp, { force: true });
    throw error;
  }
}

/** Names of the entries of `dir` (none when it does not exist). */
export async function entries(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir)).sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}
