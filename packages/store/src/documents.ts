/**
 * Documents other steps keep in a store in object storage, under a folder of their own beside the
 * datasets (the watch's `_watch/`): read with their version (the object's ETag) and replaced only
 * over the version read, so that two runs on two machines never lose each other's writes. A store
 * folder's documents are files its callers write themselves.
 */
import { StoreError } from './errors.ts';
import { isRemoteRoot, RemoteStore } from './remote.ts';

/** A document as read: its text and the version a write must name to replace it. */
export interface StoreDocument {
  text: string;
  version: string;
}

/** The store's own folders, out of reach of documents. */
const OWN = new Set(['_state', '_raw', '_sync', '_limits', '_ledger', '_locks', '_tmp']);

/**
 * The store in object storage at `root` that holds `key` (`_<folder>/...`: read anywhere beside
 * the datasets, written only outside the store's own folders).
 */
function holder(root: string, key: string, write: boolean): RemoteStore {
  if (!isRemoteRoot(root)) throw new StoreError(`${root} is not a store in object storage`);
  const [folder, ...rest] = key.split('/');
  const fits =
    folder !== undefined &&
    /^_[a-z]+$/.test(folder) &&
    !(write && OWN.has(folder)) &&
    rest.length > 0 &&
    rest.every((s) => s !== '' && s !== '.' && s !== '..');
  if (!fits) {
    throw new StoreError(
      `${key} is not a document of the store: _<folder>/..., written outside its own folders (${[...OWN].join(', ')})`,
    );
  }
  return RemoteStore.open(root);
}

/**
 * The document at `key` (records too: `_sync/...`) of the store in object storage at `root`, or undefined when there is none.
 *
 * @example
 * const state = await readStoreDocument('s3://acme/store/', '_watch/org_id=org_1/state.json');
 */
export async function readStoreDocument(root: string, key: string): Promise<StoreDocument | undefined> {
  return holder(root, key, false).readDocument(key);
}

/**
 * Writes the document at `key` only over `version` (undefined: only when there is none yet). Its
 * new version, or undefined when another writer came first (read it again to know what it wrote).
 *
 * @example
 * const version = await writeStoreDocument(root, key, text, read?.version);
 * if (version === undefined) throw new Error('another run wrote it first: run again');
 */
export async function writeStoreDocument(
  root: string,
  key: string,
  text: string,
  version: string | undefined,
): Promise<string | undefined> {
  return holder(root, key, true).writeDocument(key, text, version);
}
