/**
 * Output places checked before a run does any work: a run writes its files into a folder, and
 * replaces a snapshot folder whole (see atomic.ts), so it refuses a folder that is a file and a
 * snapshot folder that holds something else, which the replacing would delete.
 */
import { readdir, stat } from 'node:fs/promises';
import { MANIFEST_FILE } from '@orgreport/snapshot';
import { UsageError } from '../errors.ts';

/** What is at `path`: nothing, a file or a folder. */
async function kindAt(path: string): Promise<'none' | 'file' | 'folder'> {
  const info = await stat(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return null;
    throw error;
  });
  if (!info) return 'none';
  return info.isDirectory() ? 'folder' : 'file';
}

/**
 * Refuses an output folder that is a file (`what` names it as the user gave it: `--out reports`).
 *
 * @example
 * await checkOutputFolder('/tmp/report.pdf', '--out /tmp/report.pdf') // UsageError: ... is a file, not a folder
 */
export async function checkOutputFolder(path: string, what: string): Promise<void> {
  if ((await kindAt(path)) === 'file') {
    throw new UsageError(`${what} is a file, not a folder: give the folder the report's files go to`);
  }
}

/**
 * Refuses a snapshot folder to write that is a file, or a folder with other files in it than a
 * snapshot's (no manifest.json): the new snapshot replaces the folder whole.
 */
export async function checkSnapshotFolder(path: string, what: string): Promise<void> {
  const kind = await kindAt(path);
  if (kind === 'file') {
    throw new UsageError(`${what} is a file, not a folder: a snapshot is a folder; give a new folder's path`);
  }
  if (kind === 'none') return;
  const entries = await readdir(path);
  if (entries.length > 0 && !entries.includes(MANIFEST_FILE)) {
    throw new UsageError(
      `${what} holds files that are not a snapshot (no ${MANIFEST_FILE}), and writing the snapshot would replace the folder whole: give a new folder, or an earlier snapshot's to replace it`,
    );
  }
}
