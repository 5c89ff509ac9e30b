/** Listing the store's folders (its writes go through `@orgreport/api-core/files`: aside, flushed, renamed over). */
import { readdir } from 'node:fs/promises';

/** Names of the entries of `dir` (none when it does not exist). */
export async function entries(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir)).sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}
