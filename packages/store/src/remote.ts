/**
 * A store in object storage (`s3://bucket/prefix/`): the same Hive layout of Parquet files as a
 * folder, read and written through a local cache (a temporary folder) that the rest of the package
 * works on as on any store folder.
 *
 * S3 has no rename, so a partition is never replaced in place: each version is an object of its own
 * named by its content (`<dataset>/org_id=<id>/month=<M>/part-<sha256, 16 hex>.parquet`), and the
 * organization's state (`_state/org_id=<id>.json`) lists, beside the days held, the object of every
 * partition with its sha256 and size (`files`). A sync commits by writing that state with If-Match
 * on the ETag it read (If-None-Match: * for a new organization): the new partitions become visible
 * all at once, or not at all, and a reader, which follows the state, never sees half a sync. A
 * commit refused because another sync committed first is applied again on top of that one (its
 * partitions read, the span's rows merged again), so no sync loses another's days. Once committed,
 * the objects it replaced are removed, so each partition folder holds one file for engines that
 * read the folders (Athena, Spark, Trino, DuckDB).
 *
 * Readers fetch only the partitions they read, each checked against the sha256 the state names.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeFileAtomic } from '@orgreport/api-core/files';
import { type ObjectStore, ObjectStoreError, openObjectStore, parseObjectUrl } from '@orgreport/object-store';
import { DamagedStoreError, StoreError } from './errors.ts';
import { hiveValue, PART_FILE } from './hive.ts';
import { objectStorageSettings } from './object-storage.ts';

/** A partition as the state lists it: its object, its sha256 and size. */
export interface RemoteFile {
  key: string;
  sha256: string;
  bytes: number;
}

/** Partition objects by the path a store folder has them at (`user_days/org_id=o/month=2026-10/part-0.parquet`). */
export type RemoteFiles = Record<string, RemoteFile>;

/** True for a store root that is an object-storage URL. */
export function isRemoteRoot(root: string): boolean {
  return /^s3:\/\//i.test(root);
}

let cacheRoot: string | undefined;
/** This process's cache folder, removed when it exits. */
function processCache(): string {
  if (!cacheRoot) {
    const dir = mkdtempSync(join(tmpdir(), 'orgreport-store-cache-'));
    cacheRoot = dir;
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  }
  return cacheRoot;
}

const sha256Of = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** Writes `bytes` to the cache at `path` whole, through a file beside it (not flushed: a cache, gone at exit). */
function writeWhole(path: string, bytes: Buffer | string): Promise<void> {
  return writeFileAtomic(path, bytes, { flush: false });
}

/** Every file under `dir`, as paths relative to it (`/`-separated). */
async function walk(dir: string, prefix = ''): Promise<string[]> {
  let names: string[];
  try {
    names = (await readdir(dir, { withFileTypes: true })).map((d) =>
      d.isDirectory() ? `${d.name}/` : d.name,
    );
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const name of names.sort()) {
    if (name.endsWith('/')) out.push(...(await walk(join(dir, name), `${prefix}${name}`)));
    else out.push(`${prefix}${name}`);
  }
  return out;
}

const remotes = new Map<string, RemoteStore>();

/** A store in object storage and its local cache. */
export class RemoteStore {
  /** The state's ETag and partitions of each organization, as last read or committed. */
  readonly #states = new Map<string, { etag: string | undefined; files: RemoteFiles }>();
  /** Raw-response files already in the bucket (read or written by this process). */
  readonly #rawKnown = new Set<string>();

  private constructor(
    readonly url: string,
    readonly objects: ObjectStore,
    /** The cache: a store folder holding what was read and what is being written. */
    readonly cache: string,
  ) {}

  /** The remote store at `url` (one per URL and settings in a process, its cache kept). */
  static open(url: string): RemoteStore {
    let location: ReturnType<typeof parseObjectUrl>;
    try {
      location = parseObjectUrl(url);
    } catch (error) {
      throw new StoreError(`--store ${url}: ${(error as Error).message}`, { cause: error });
    }
    const settings = objectStorageSettings();
    const id = sha256Of(Buffer.from(JSON.stringify([location.url, settings]))).slice(0, 16);
    let remote = remotes.get(id);
    if (!remote) {
      remote = new RemoteStore(
        location.url,
        openObjectStore(location.url, { settings }),
        join(processCache(), id),
      );
      remotes.set(id, remote);
    }
    return remote;
  }

  /** An object-storage error as the store's: what failed, and what to fix. */
  #error(error: unknown): unknown {
    if (!(error instanceof ObjectStoreError)) return error;
    return new StoreError(`the store ${this.url}: ${error.message}`, { cause: error });
  }

  async #get(key: string) {
    try {
      return await this.objects.get(key);
    } catch (error) {
      throw this.#error(error);
    }
  }

  async #put(key: string, body: Buffer | string, condition?: { ifAbsent: true } | { ifMatch: string }) {
    try {
      return await this.objects.put(key, body, condition);
    } catch (error) {
      throw this.#error(error);
    }
  }

  /**
   * Brings `_store.json` into the cache (false when the bucket has none). With `create`, a store
   * without one gets the cache's (the caller writes it there first): `publishStoreFile`.
   */
  async pullStoreFile(): Promise<boolean> {
    const found = await this.#get('_store.json');
    const path = join(this.cache, '_store.json');
    if (!found) {
      await rm(path, { force: true });
      return false;
    }
    await writeWhole(path, found.body);
    return true;
  }

  /** Writes the cache's `_store.json` to the bucket unless one is there already. */
  async publishStoreFile(): Promise<void> {
    await this.#put('_store.json', await readFile(join(this.cache, '_store.json')), { ifAbsent: true });
  }

  #stateKey(orgId: string): string {
    return `_state/org_id=${hiveValue(orgId)}.json`;
  }

  /** Reads an organization's state into the cache (removed there when the bucket has none). */
  async pullState(orgId: string): Promise<void> {
    const key = this.#stateKey(orgId);
    const found = await this.#get(key);
    const path = join(this.cache, key);
    if (!found) {
      this.#states.set(orgId, { etag: undefined, files: {} });
      await rm(path, { force: true });
      return;
    }
    let files: RemoteFiles = {};
    try {
      files = (JSON.parse(found.body.toString('utf8')) as { files?: RemoteFiles }).files ?? {};
    } catch {
      // The reader of the cached copy names the damage.
    }
    this.#states.set(orgId, { etag: found.etag, files });
    await writeWhole(path, found.body);
  }

  /** Reads every organization's state into the cache (one listing of `_state/`). */
  async pullStates(): Promise<void> {
    let listed: Array<{ key: string }>;
    try {
      listed = await this.objects.list('_state/');
    } catch (error) {
      throw this.#error(error);
    }
    const ids = listed
      .map((o) => /^_state\/org_id=(.+)\.json$/.exec(o.key)?.[1])
      .filter((id): id is string => id !== undefined)
      .map(decodeURIComponent);
    await rm(join(this.cache, '_state'), { recursive: true, force: true });
    for (const id of ids) await this.pullState(id);
  }

  /** The partitions the organization's state lists (read by `pullState`). */
  files(orgId: string): RemoteFiles {
    return this.#states.get(orgId)?.files ?? {};
  }

  /** The months of `dataset` the organization has partitions of, as its state lists them. */
  months(dataset: string, orgId: string): string[] {
    const prefix = `${dataset}/org_id=${hiveValue(orgId)}/month=`;
    return Object.keys(this.files(orgId))
      .filter((p) => p.startsWith(prefix))
      .map((p) => p.slice(prefix.length, prefix.length + 7))
      .sort();
  }

  /**
   * Makes the partitions at these cache paths present, as the state lists them: each fetched once
   * and checked against its sha256 (a cached copy that matches is kept). A path the state does not
   * list is left absent. A missing or damaged object is a {@link DamagedStoreError} naming it and
   * the command that remakes it.
   */
  async ensure(orgId: string, paths: ReadonlyArray<string>): Promise<void> {
    for (const path of paths) {
      const relative = path
        .slice(this.cache.length + 1)
        .split('\\')
        .join('/');
      const file = this.files(orgId)[relative];
      if (!file) continue;
      const cached = await readFile(path).catch(() => undefined);
      if (cached && sha256Of(cached) === file.sha256) continue;
      const found = await this.#get(file.key);
      const month = /month=(\d{4}-\d{2})/.exec(relative)?.[1] ?? '';
      const remedy = `fetch that month again: orgreport sync --store ${this.url} --refetch ${month}`;
      if (!found) {
        throw new DamagedStoreError({ store: this.url, file: file.key, problem: 'is missing', remedy });
      }
      if (sha256Of(found.body) !== file.sha256) {
        throw new DamagedStoreError({
          store: this.url,
          file: file.key,
          problem: `is damaged (its sha256 is not the ${file.sha256.slice(0, 16)}... the state names)`,
          remedy,
        });
      }
      await writeWhole(path, found.body);
    }
  }

  /** Makes every partition of every organization read present (for a query over everything). */
  async ensureAll(): Promise<void> {
    for (const orgId of this.#states.keys()) {
      await this.ensure(
        orgId,
        Object.keys(this.files(orgId)).map((p) => join(this.cache, p)),
      );
    }
  }

  /** Forgets a month's partitions of the organization (a refetch replaces them whole). */
  async dropMonth(orgId: string, month: string): Promise<void> {
    const state = this.#states.get(orgId);
    if (!state) return;
    for (const path of Object.keys(state.files)) {
      if (path.includes(`/org_id=${hiveValue(orgId)}/month=${month}/`)) {
        delete state.files[path];
        await rm(join(this.cache, path), { force: true });
      }
    }
  }

  /**
   * Commits the organization's cached partitions and raw responses with `state`: uploads every
   * partition whose bytes differ from the state's (named by its content), the new raw files, then
   * writes the state with If-Match on the ETag read. False when another commit came first (nothing
   * of this one is visible then: call {@link pullState} and apply again). Once committed, the
   * objects it replaced are removed.
   */
  async commit(orgId: string, state: object): Promise<boolean> {
    const known = this.#states.get(orgId) ?? { etag: undefined, files: {} };
    const files: RemoteFiles = { ...known.files };
    const uploaded: string[] = [];
    const org = `org_id=${hiveValue(orgId)}`;
    for (const dataset of await readdir(this.cache).catch(() => [] as string[])) {
      if (dataset.startsWith('_') || !/^[a-z_]+$/.test(dataset)) continue;
      for (const relative of await walk(join(this.cache, dataset, org))) {
        const match = /^month=(\d{4}-\d{2})\/part-0\.parquet$/.exec(relative);
        if (!match) continue;
        const path = `${dataset}/${org}/month=${match[1]}/${PART_FILE}`;
        const bytes = await readFile(join(this.cache, path));
        const sha256 = sha256Of(bytes);
        if (files[path]?.sha256 === sha256) continue;
        const key = `${dataset}/${org}/month=${match[1]}/part-${sha256.slice(0, 16)}.parquet`;
        await this.#put(key, bytes);
        uploaded.push(key);
        files[path] = { key, sha256, bytes: bytes.length };
      }
    }
    for (const relative of await walk(join(this.cache, '_raw', org))) {
      const key = `_raw/${org}/${relative}`;
      if (this.#rawKnown.has(key)) continue;
      await this.#put(key, await readFile(join(this.cache, key)));
      this.#rawKnown.add(key);
    }
    const body = `${JSON.stringify({ ...state, files }, null, 2)}\n`;
    const written = await this.#put(
      this.#stateKey(orgId),
      body,
      known.etag === undefined ? { ifAbsent: true } : { ifMatch: known.etag },
    );
    if (!written.written) {
      // Another commit came first: what this one uploaded and that one does not use goes.
      await this.pullState(orgId);
      const used = new Set(Object.values(this.files(orgId)).map((f) => f.key));
      for (const key of uploaded) if (!used.has(key)) await this.objects.delete(key).catch(() => {});
      return false;
    }
    this.#states.set(orgId, { etag: written.etag, files });
    await writeWhole(join(this.cache, this.#stateKey(orgId)), body);
    // The replaced versions go: each partition folder holds the committed file alone.
    const kept = new Set(Object.values(files).map((f) => f.key));
    for (const old of Object.values(known.files)) {
      if (!kept.has(old.key)) await this.objects.delete(old.key).catch(() => {});
    }
    return true;
  }

  /** A document another step keeps beside the datasets (`_watch/...`): its text and ETag, or undefined. */
  async readDocument(key: string): Promise<{ text: string; version: string } | undefined> {
    const found = await this.#get(key);
    return found && { text: found.body.toString('utf8'), version: found.etag };
  }

  /**
   * Writes a document only over the version read (undefined: only when there is none): S3's
   * If-Match and If-None-Match: *. Its new version, or undefined when another writer came first.
   */
  async writeDocument(key: string, text: string, version: string | undefined): Promise<string | undefined> {
    const written = await this.#put(
      key,
      text,
      version === undefined ? { ifAbsent: true } : { ifMatch: version },
    );
    return written.written ? written.etag : undefined;
  }

  /** Brings a record file (`_sync/...`, `_limits/...`) into the cache; absent there when the bucket has none. */
  async pullRecords(path: string): Promise<void> {
    const key = path
      .slice(this.cache.length + 1)
      .split('\\')
      .join('/');
    const found = await this.#get(key);
    if (found) await writeWhole(path, found.body);
    else await rm(path, { force: true });
  }

  /**
   * Appends whole lines to a record file in the bucket: read, added to, written with If-Match on
   * what was read (or created when absent), again from the read when another writer came first.
   */
  async appendRecords(path: string, lines: string): Promise<void> {
    const key = path
      .slice(this.cache.length + 1)
      .split('\\')
      .join('/');
    for (let tries = 0; tries < 20; tries++) {
      const found = await this.#get(key);
      let text = found ? found.body.toString('utf8') : '';
      // A line cut short is not a record: the next append cuts it off (as in a folder).
      if (text !== '' && !text.endsWith('\n')) text = text.slice(0, text.lastIndexOf('\n') + 1);
      const written = await this.#put(
        key,
        text + lines,
        found ? { ifMatch: found.etag } : { ifAbsent: true },
      );
      if (written.written) {
        await writeWhole(path, text + lines);
        return;
      }
    }
    throw new StoreError(`the store ${this.url}: ${key} kept changing while a record was added; run again`);
  }
}
