/**
 * `_store.json`: what makes a folder a store. It names the schema version and the layout, and lists
 * every dataset's columns, so a reader without this package knows what the files hold.
 */
import { stat } from 'node:fs/promises';
import { writeFileAtomic } from '@orgreport/api-core/files';
import { readJsonFile } from './damage.ts';
import { DamagedStoreError, StoreError } from './errors.ts';
import { STORE_FILE, StoreLayout } from './layout.ts';
import { isRemoteRoot, RemoteStore } from './remote.ts';
import { DATASETS, STORE_SCHEMA_VERSION } from './schema.ts';
import { type OrgState, readStates } from './state.ts';

export const STORE_FORMAT = 'orgreport-store';

/** The content of `_store.json` for this version. */
export function storeDescription(): Record<string, unknown> {
  return {
    format: STORE_FORMAT,
    schemaVersion: STORE_SCHEMA_VERSION,
    layout: '<dataset>/org_id=<id>/month=<YYYY-MM>/part-0.parquet',
    datasets: Object.fromEntries(
      DATASETS.map((d) => [
        d.name,
        { monthOf: d.monthOf, columns: d.columns.map((c) => ({ name: c.name, type: c.type })) },
      ]),
    ),
  };
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

export interface OpenStoreOptions {
  /** A missing or empty folder becomes a store. */
  create?: boolean;
  /**
   * A `_store.json` that cannot be read or is not JSON is written anew (it holds nothing but what
   * this version of the package describes): what the rebuild needs to mend it.
   */
  repair?: boolean;
}

/**
 * Opens the store in `root`: checks `_store.json` and its schema version. With `create`, a missing
 * or empty folder becomes a store; without it, a folder that is not a store is an error. A
 * `_store.json` that cannot be read or is not JSON is a {@link DamagedStoreError} (unless `repair`).
 */
export async function openStore(root: string, options: OpenStoreOptions = {}): Promise<StoreLayout> {
  if (isRemoteRoot(root)) return openRemoteStore(root, options);
  const layout = new StoreLayout(root);
  const write = () =>
    writeFileAtomic(layout.storeFile, `${JSON.stringify(storeDescription(), null, 2)}\n`, {
      tmpDir: layout.tmp,
    });
  if ((await exists(root)) && !(await isDirectory(root))) {
    throw new StoreError(`the store folder ${root} is a file, not a folder`);
  }
  let json: unknown;
  try {
    json = await readJsonFile(layout, layout.storeFile);
  } catch (error) {
    if (!(options.repair && error instanceof DamagedStoreError)) throw error;
    await write();
    return layout;
  }
  if (json === undefined) {
    if (!options.create) {
      throw new StoreError(
        (await isDirectory(root))
          ? `${root} is not a store (it has no ${STORE_FILE}); create one with orgreport sync --store ${root}`
          : `the store folder ${root} does not exist; create it with orgreport sync --store ${root}`,
      );
    }
    await write();
    return layout;
  }
  const { format, schemaVersion } = (json ?? {}) as { format?: unknown; schemaVersion?: unknown };
  if (format !== STORE_FORMAT)
    throw new StoreError(`${root} is not an orgreport store (${layout.storeFile})`);
  if (schemaVersion !== STORE_SCHEMA_VERSION) {
    throw new StoreError(
      `the store ${root} has schema version ${String(schemaVersion)}; this orgreport reads version ${STORE_SCHEMA_VERSION}`,
    );
  }
  return layout;
}

/**
 * A store in object storage: its `_store.json` read into the cache and checked as a folder's is;
 * with `create`, a prefix without one becomes a store (`_store.json` written if still absent).
 */
async function openRemoteStore(url: string, options: OpenStoreOptions): Promise<StoreLayout> {
  const remote = RemoteStore.open(url);
  const layout = new StoreLayout(remote.cache, remote);
  const write = () =>
    writeFileAtomic(layout.storeFile, `${JSON.stringify(storeDescription(), null, 2)}\n`, {
      tmpDir: layout.tmp,
    });
  if (!(await remote.pullStoreFile())) {
    if (!options.create) {
      throw new StoreError(
        `${url} is not a store (it has no ${STORE_FILE}); create one with orgreport sync --store ${url}`,
      );
    }
    await write();
    await remote.publishStoreFile();
    await remote.pullStoreFile();
  }
  const json = await readJsonFile(layout, layout.storeFile);
  const { format, schemaVersion } = (json ?? {}) as { format?: unknown; schemaVersion?: unknown };
  if (format !== STORE_FORMAT) throw new StoreError(`${url} is not an orgreport store (${url}${STORE_FILE})`);
  if (schemaVersion !== STORE_SCHEMA_VERSION) {
    throw new StoreError(
      `the store ${url} has schema version ${String(schemaVersion)}; this orgreport reads version ${STORE_SCHEMA_VERSION}`,
    );
  }
  return layout;
}

/**
 * The organizations a store holds, with the name of their last sync and the days held.
 *
 * @example
 * for (const org of await listOrganizations('/srv/store')) console.log(org.orgId, org.name);
 */
export async function listOrganizations(
  root: string,
): Promise<Array<{ orgId: string; name: string; days: OrgState['days'] }>> {
  const states = await readStates(await openStore(root));
  return states.map((s) => ({ orgId: s.orgId, name: s.organizationName, days: s.days }));
}
