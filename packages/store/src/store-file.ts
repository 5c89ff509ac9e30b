/**
 * `_store.json`: what makes a folder a store. It names the schema version and the layout, and lists
 * every dataset's columns, so a reader without this package knows what the files hold.
 */
import { readFile, stat } from 'node:fs/promises';
import { StoreError } from './errors.ts';
import { writeFileAtomic } from './files.ts';
import { StoreLayout } from './layout.ts';
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

/**
 * Opens the store in `root`: checks `_store.json` and its schema version. With `create`, a missing
 * or empty folder becomes a store; without it, a folder that is not a store is an error.
 */
export async function openStore(root: string, options: { create?: boolean } = {}): Promise<StoreLayout> {
  const layout = new StoreLayout(root);
  let text: string | undefined;
  try {
    text = await readFile(layout.storeFile, 'utf8');
  } catch {
    text = undefined;
  }
  if (text === undefined) {
    if (!options.create) {
      throw new StoreError(
        (await isDirectory(root))
          ? `${root} is not a store (it has no ${'_store.json'}); create one with orgreport sync --store ${root}`
          : `the store folder ${root} does not exist; create it with orgreport sync --store ${root}`,
      );
    }
    await writeFileAtomic(layout.tmp, layout.storeFile, `${JSON.stringify(storeDescription(), null, 2)}\n`);
    return layout;
  }
  let json: { format?: unknown; schemaVersion?: unknown };
  try {
    json = JSON.parse(text);
  } catch {
    throw new StoreError(`${layout.storeFile} is not valid JSON: the store is damaged`);
  }
  if (json.format !== STORE_FORMAT)
    throw new StoreError(`${root} is not an orgreport store (${layout.storeFile})`);
  if (json.schemaVersion !== STORE_SCHEMA_VERSION) {
    throw new StoreError(
      `the store ${root} has schema version ${String(json.schemaVersion)}; this orgreport reads version ${STORE_SCHEMA_VERSION}`,
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
