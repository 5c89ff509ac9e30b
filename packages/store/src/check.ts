/**
 * `checkStore`: every file of a store a reader depends on, looked at without reading a row:
 * `_store.json`, each organization's state, the records, and the two ends of every partition
 * (magic bytes and footer). For whoever must fail loudly on a damaged store before relying on it
 * (a watch, a scheduled check); on a store of 10,000 users and eleven months, about 0.1 s.
 */
import { join } from 'node:path';
import { allPartitionFiles, damaged, parquetProblem } from './damage.ts';
import { DamagedStoreError } from './errors.ts';
import { entries } from './files.ts';
import { StoreLayout } from './layout.ts';
import { RECORD_FILES, type RecordFileSpec, readRecords } from './records.ts';
import { readState } from './state.ts';
import { openStore } from './store-file.ts';

/** What {@link checkStore} found. */
export interface StoreCheck {
  /** Partition files whose ends were read. */
  partitions: number;
  /** Every damaged file, as the error a reader of it throws; empty when the store is whole. */
  damaged: DamagedStoreError[];
}

/** Partition files looked at side by side: the reads are small, the latency is the cost. */
const CONCURRENCY = 8;

/** `error` kept when it is damage; anything else thrown. */
function damageOnly(found: DamagedStoreError[]) {
  return (error: unknown) => {
    if (error instanceof DamagedStoreError) found.push(error);
    else throw error;
  };
}

/** The organization folders (`org_id=...`) under a top-level folder of the store. */
async function orgFolders(layout: StoreLayout, top: string): Promise<string[]> {
  return (await entries(join(layout.root, top))).filter((d) => d.startsWith('org_id='));
}

async function checkRecords(layout: StoreLayout, spec: RecordFileSpec, found: DamagedStoreError[]) {
  const [top, , file] = spec.path.split('/');
  for (const org of await orgFolders(layout, top!)) {
    await readRecords(layout, spec, join(layout.root, top!, org, file!)).catch(damageOnly(found));
  }
}

/**
 * Looks at every file of the store in `root` a reader depends on and reports the damaged ones
 * (a folder that is no store is a `StoreError`, as for every reader).
 *
 * @example
 * const { damaged } = await checkStore('/srv/store');
 * if (damaged.length > 0) throw damaged[0]; // names the file and `orgreport sync --store DIR --rebuild`
 */
export async function checkStore(root: string): Promise<StoreCheck> {
  const found: DamagedStoreError[] = [];
  const layout = await openStore(root).catch((error: unknown) => {
    damageOnly(found)(error);
    return new StoreLayout(root);
  });
  // A store in object storage: its states; its partitions are checked by sha256 as they are fetched.
  await layout.remote?.pullStates();
  for (const file of await entries(join(layout.root, '_state'))) {
    const id = /^org_id=(.+)\.json$/.exec(file)?.[1];
    if (id) await readState(layout, decodeURIComponent(id)).catch(damageOnly(found));
  }
  await checkRecords(layout, RECORD_FILES.syncRuns, found);
  await checkRecords(layout, RECORD_FILES.limits, found);
  const files = await allPartitionFiles(layout);
  let next = 0;
  const problems: Array<string | null> = new Array(files.length).fill(null);
  await Promise.all(
    Array.from({ length: Math.min(CONCURRENCY, files.length) }, async () => {
      while (next < files.length) {
        const i = next++;
        problems[i] = await parquetProblem(files[i]!);
      }
    }),
  );
  files.forEach((file, i) => {
    if (problems[i]) found.push(damaged(layout, file, problems[i]));
  });
  return { partitions: files.length, damaged: found };
}
