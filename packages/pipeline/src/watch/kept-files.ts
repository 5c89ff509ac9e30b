/**
 * The files the watch keeps and reads beside the store's datasets (`_watch/`, `_sync/`, `_limits/`),
 * by their key under the store: in a store folder, files (written whole through a rename, 0600); in
 * a store in a bucket, objects, each written only over the version this run read (If-Match on its
 * ETag, If-None-Match: * when there was none), so that two watches on two machines never lose each
 * other's state. A bucket keeps no local copy: the run needs nothing but its temporary folder.
 *
 * A lost race is an error that says to run again, not a re-read and retry: the run that lost read
 * the state before the other's alerts were remembered, so what it found is stale; run again, it
 * starts from the other's state and its outbox, and the ledger sends nothing twice.
 */
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '@orgreport/api-core/files';
import { isRemoteRoot, readStoreDocument, writeStoreDocument } from '@orgreport/store';
import { CliError } from '../errors.ts';

/** A file's text; undefined when it does not exist, an error naming it when it cannot be read. */
async function readIfPresent(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    throw new CliError(`${path}: cannot be read (${code})`);
  }
}

/** The version of each object this process read or wrote (undefined: there was none), by its URL. */
const versions = new Map<string, string | undefined>();

/** A kept file as a person names it: its path in the store folder, or its `s3://` URL. */
export function keptName(store: string, key: string): string {
  return isRemoteRoot(store) ? `${store.replace(/\/?$/, '/')}${key}` : join(store, key);
}

/**
 * The text of the file at `key` of the store; undefined when there is none (in a bucket, an empty
 * object is none: see {@link writeKept}).
 */
export async function readKept(store: string, key: string): Promise<string | undefined> {
  if (!isRemoteRoot(store)) return readIfPresent(join(store, key));
  const found = await readStoreDocument(store, key);
  versions.set(keptName(store, key), found?.version);
  return found?.text === '' ? undefined : found?.text;
}

/**
 * Writes the file at `key` of the store whole; `null`: nothing to keep, the file removed (in a
 * bucket, emptied over the version read: S3 has no conditional delete everywhere). In a bucket, a
 * file changed since this run read it (or created, when it read none) is an error to run again.
 */
export async function writeKept(store: string, key: string, text: string | null): Promise<void> {
  if (!isRemoteRoot(store)) {
    if (text === null) await rm(join(store, key), { force: true });
    else await writePrivateFile(join(store, key), text);
    return;
  }
  const name = keptName(store, key);
  const version = versions.get(name);
  if (text === null && version === undefined) return;
  const written = await writeStoreDocument(store, key, text ?? '', version);
  if (written === undefined) {
    throw new CliError(
      `${name}: another watch of this store wrote it at the same time: run again (it starts from what that watch kept, and sends nothing twice)`,
    );
  }
  versions.set(name, written);
}

/** Writes a file of the watch whole (0600, its folder 0700) through a temporary file and a rename. */
export async function writePrivateFile(path: string, text: string): Promise<void> {
  await writeFileAtomic(path, text, { mode: 0o600, folderMode: 0o700 });
}
