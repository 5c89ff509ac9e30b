/**
 * Where everything lives in a store folder. The datasets follow the Hive layout that engines read:
 * `<store>/<dataset>/org_id=<id>/month=<YYYY-MM>/part-0.parquet`. Everything else starts with `_`,
 * which Spark, Hive and Trino skip: `_store.json` (schema version and columns), `_state/` (the days
 * each organization holds), `_raw/` (every sync's fetched snapshot, compressed), the records of what
 * was done (`_sync/`: every sync run; `_limits/`: every credit limit set), `_locks/`, `_tmp/`.
 */
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { entries } from './files.ts';
import { hiveValue, PART_FILE } from './hive.ts';
import type { RemoteStore } from './remote.ts';

export { hiveValue, PART_FILE } from './hive.ts';

export const STORE_FILE = '_store.json';

/** Paths of one store folder (for a store in object storage: of its local cache). */
export class StoreLayout {
  constructor(
    readonly root: string,
    /** The store in object storage this folder caches, if any. */
    readonly remote?: RemoteStore,
  ) {}

  /** The store as its user names it: the folder, or the `s3://` URL. */
  get label(): string {
    return this.remote?.url ?? this.root;
  }

  /** The months the organization has partitions of in `dataset` (of a remote store: as its state lists them). */
  async partitionMonths(dataset: string, orgId: string): Promise<string[]> {
    if (this.remote) return this.remote.months(dataset, orgId);
    return (await entries(this.orgDir(dataset, orgId)))
      .map((d) => /^month=(\d{4}-\d{2})$/.exec(d)?.[1])
      .filter((m): m is string => m !== undefined);
  }

  /** Of these partition files of the organization, those that exist (a remote store's fetched into the cache first). */
  async presentFiles(orgId: string, files: ReadonlyArray<string>): Promise<string[]> {
    await this.remote?.ensure(orgId, files);
    const present = await Promise.all(
      files.map((f) =>
        stat(f).then(
          () => true,
          () => false,
        ),
      ),
    );
    return files.filter((_, i) => present[i]);
  }

  get storeFile(): string {
    return join(this.root, STORE_FILE);
  }
  get tmp(): string {
    return join(this.root, '_tmp');
  }
  datasetDir(dataset: string): string {
    return join(this.root, dataset);
  }
  orgDir(dataset: string, orgId: string): string {
    return join(this.root, dataset, `org_id=${hiveValue(orgId)}`);
  }
  partitionDir(dataset: string, orgId: string, month: string): string {
    return join(this.orgDir(dataset, orgId), `month=${month}`);
  }
  partitionFile(dataset: string, orgId: string, month: string): string {
    return join(this.partitionDir(dataset, orgId, month), PART_FILE);
  }
  /** Every partition file of a dataset, as a glob DuckDB reads. */
  datasetGlob(dataset: string): string {
    return join(this.root, dataset, '*', '*', 'part-*.parquet');
  }
  stateFile(orgId: string): string {
    return join(this.root, '_state', `org_id=${hiveValue(orgId)}.json`);
  }
  lockFile(orgId: string): string {
    return join(this.root, '_locks', `org_id=${hiveValue(orgId)}.lock`);
  }
  rawDir(orgId: string): string {
    return join(this.root, '_raw', `org_id=${hiveValue(orgId)}`);
  }
  /** The JSON lines of an organization's sync runs. */
  syncRunsFile(orgId: string): string {
    return join(this.root, '_sync', `org_id=${hiveValue(orgId)}`, 'runs.jsonl');
  }
  /** The JSON lines of the credit limits set for an organization's users. */
  limitsFile(orgId: string): string {
    return join(this.root, '_limits', `org_id=${hiveValue(orgId)}`, 'limits.jsonl');
  }
}
