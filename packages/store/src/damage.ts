/**
 * Damage: a store file that cannot be read as what it should be becomes a {@link DamagedStoreError}
 * naming the file inside the store and what mends it, here and nowhere else. The readers run their
 * engine reads through {@link engineRead}; the JSON files are read through {@link readJsonFile}.
 */
import { open, readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { DamagedStoreError } from './errors.ts';
import { entries } from './files.ts';
import { footerProblem } from './footer.ts';
import type { StoreLayout } from './layout.ts';

/** The first and last four bytes of every Parquet file. */
const MAGIC = Buffer.from('PAR1');
/** Magic at both ends plus the footer's 4-byte length: a Parquet file is at least this long. */
const FRAME = 12;

/** The remedy of a damaged partition, state or `_store.json`: remake them from `_raw/`. */
export function rebuildRemedy(root: string): string {
  return `remake every dataset from the raw responses the store keeps: orgreport sync --store ${root} --rebuild`;
}

/**
 * What remakes a damaged dataset or state: the rebuild from `_raw/` (a store in object storage: the
 * sync of the months again, which rewrites their partitions and state).
 */
export function storeRemedy(layout: StoreLayout): string {
  return layout.remote
    ? `fetch the months again: orgreport sync --store ${layout.label} --refetch YYYY-MM`
    : rebuildRemedy(layout.root);
}

/** A path as the store names it: relative to its folder, `/`-separated. */
export function insideStore(layout: StoreLayout, path: string): string {
  return relative(layout.root, path).split(sep).join('/');
}

/** The error of a damaged file whose remedy is the rebuild. */
export function damaged(
  layout: StoreLayout,
  path: string,
  problem: string,
  cause?: unknown,
  remedy = storeRemedy(layout),
): DamagedStoreError {
  return new DamagedStoreError(
    { store: layout.label, file: insideStore(layout, path), problem, remedy },
    cause === undefined ? undefined : { cause },
  );
}

function errorCode(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? (error as Error).message;
}

/**
 * What is wrong with a Parquet file, read from its two ends (its magic bytes and its footer, a few
 * KiB whatever its size): null when it is framed as Parquet (magic at both ends, a footer that
 * fits in the file and walks as a whole `FileMetaData`) or does not exist. A file cut short loses
 * its footer, so a truncated, empty or foreign file is found here without the engine.
 */
export async function parquetProblem(path: string): Promise<string | null> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    return `cannot be read (${errorCode(error)})`;
  }
  try {
    const { size } = await handle.stat();
    if (size === 0) return 'is empty (0 bytes)';
    if (size < FRAME) return `is cut short (${size} bytes, too few for a Parquet file)`;
    const head = Buffer.alloc(4);
    const tail = Buffer.alloc(8);
    await handle.read(head, 0, 4, 0);
    await handle.read(tail, 0, 8, size - 8);
    if (!tail.subarray(4).equals(MAGIC)) {
      return head.equals(MAGIC)
        ? 'is cut short (its Parquet footer is missing)'
        : 'is not a Parquet file (no Parquet magic bytes at either end)';
    }
    if (!head.equals(MAGIC)) return 'is not a Parquet file (no Parquet magic bytes at its start)';
    const footer = tail.readUInt32LE(0);
    if (footer + FRAME > size)
      return `is damaged (its footer claims ${footer} bytes, more than the file holds)`;
    const bytes = Buffer.alloc(footer);
    await handle.read(bytes, 0, footer, size - 8 - footer);
    const problem = footerProblem(bytes);
    return problem ? `is damaged (its Parquet footer ${problem})` : null;
  } catch (error) {
    return `cannot be read (${errorCode(error)})`;
  } finally {
    await handle.close();
  }
}

/** The first of `files` that is damaged, as its error; null when all are framed as Parquet. */
export async function firstDamaged(
  layout: StoreLayout,
  files: readonly string[],
  cause?: unknown,
): Promise<DamagedStoreError | null> {
  for (const file of files) {
    const problem = await parquetProblem(file);
    if (problem) return damaged(layout, file, problem, cause);
  }
  return null;
}

/** The first line of an engine's message. */
function firstLine(error: unknown): string {
  return String((error as Error).message ?? error).split('\n')[0]!;
}

/**
 * Runs an engine read of `files`. When it fails, the files are looked at: one that is not framed
 * as Parquet, or one the engine's message names (damaged inside, say a page), makes the failure a
 * {@link DamagedStoreError}; any other failure is the engine's own.
 */
export async function engineRead<T>(
  layout: StoreLayout,
  files: readonly string[] | (() => Promise<readonly string[]>),
  read: () => Promise<T>,
): Promise<T> {
  try {
    return await read();
  } catch (error) {
    const list = typeof files === 'function' ? await files() : files;
    const found = await firstDamaged(layout, list, error);
    if (found) throw found;
    const message = String((error as Error).message ?? '');
    const named = list.find((f) => message.includes(`'${f}'`) || message.includes(`"${f}"`));
    if (named) throw damaged(layout, named, `cannot be read by the engine (${firstLine(error)})`, error);
    throw error;
  }
}

/**
 * A JSON file of the store (`_store.json`, a state file), parsed: undefined when it does not exist;
 * a {@link DamagedStoreError} when it cannot be read or is not JSON.
 */
export async function readJsonFile(
  layout: StoreLayout,
  path: string,
  remedy = storeRemedy(layout),
): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw damaged(layout, path, `cannot be read (${errorCode(error)})`, error, remedy);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw damaged(
      layout,
      path,
      text.length === 0 ? 'is empty (0 bytes)' : 'is not valid JSON',
      error,
      remedy,
    );
  }
}

/** Every partition file of the store, any dataset and organization (the folders not starting with `_`). */
export async function allPartitionFiles(layout: StoreLayout): Promise<string[]> {
  const out: string[] = [];
  for (const dataset of await entries(layout.root)) {
    if (dataset.startsWith('_') || dataset.startsWith('.') || !/^[a-z_]+$/.test(dataset)) continue;
    const datasetDir = layout.datasetDir(dataset);
    for (const org of await entries(datasetDir).catch(() => [])) {
      if (!org.startsWith('org_id=')) continue;
      for (const month of await entries(join(datasetDir, org)).catch(() => [])) {
        if (!month.startsWith('month=')) continue;
        const dir = join(datasetDir, org, month);
        for (const file of await entries(dir).catch(() => [])) {
          if (/^part-.*\.parquet$/.test(file)) out.push(join(dir, file));
        }
      }
    }
  }
  return out;
}
