/**
 * Test helpers that look at a store folder from outside, without this package or DuckDB: its files,
 * their hashes, and its Parquet files read with hyparquet (an independent reader).
 */
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { asyncBufferFromFile, type FileMetaData, parquetMetadataAsync, parquetReadObjects } from 'hyparquet';
import { compressors } from 'hyparquet-compressors';

/** Every file under `root`, as `/`-separated paths relative to it, sorted. */
export async function listFiles(root: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) await walk(path);
      else out.push(relative(root, path).split(sep).join('/'));
    }
  };
  await walk(root);
  return out.sort();
}

/** sha256 of every file under `root` but those under the top-level folders of `skip`. */
export async function hashFiles(
  root: string,
  skip: readonly string[] = ['_locks'],
): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const path of await listFiles(root)) {
    if (skip.includes(path.split('/')[0]!)) continue;
    out.set(
      path,
      createHash('sha256')
        .update(await readFile(join(root, path)))
        .digest('hex'),
    );
  }
  return out;
}

/** Paths whose hash differs between two {@link hashFiles} results (added and removed ones too). */
export function changedFiles(before: Map<string, string>, after: Map<string, string>): string[] {
  const paths = new Set([...before.keys(), ...after.keys()]);
  return [...paths].filter((p) => before.get(p) !== after.get(p)).sort();
}

/** A dataset file of the Hive layout: `<dataset>/org_id=<id>/month=<YYYY-MM>/part-0.parquet`. */
export interface PartitionFile {
  dataset: string;
  orgId: string;
  month: string;
  path: string;
}

const PARTITION = /^([a-z_]+)\/org_id=([^/]+)\/month=(\d{4}-\d{2})\/part-0\.parquet$/;

/** Every dataset file of a store (the folders that do not start with `_`); throws on any other file there. */
export async function partitionFiles(root: string): Promise<PartitionFile[]> {
  const out: PartitionFile[] = [];
  for (const path of await listFiles(root)) {
    if (path.startsWith('_')) continue;
    const m = PARTITION.exec(path);
    if (!m) throw new Error(`${path} is not a partition file of the layout`);
    out.push({ dataset: m[1]!, orgId: decodeURIComponent(m[2]!), month: m[3]!, path: join(root, path) });
  }
  return out;
}

/** A value as JSON holds it: dates and instants as ISO text, 64-bit integers as numbers. */
function plain(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'bigint') return Number(value);
  if (Array.isArray(value)) return value.map(plain);
  return value;
}

/** A Parquet file read with hyparquet: its footer and its rows (plain values). */
export async function readParquet(
  path: string,
): Promise<{ metadata: FileMetaData; rows: Array<Record<string, unknown>> }> {
  const file = await asyncBufferFromFile(path);
  const metadata = await parquetMetadataAsync(file);
  const rows = await parquetReadObjects({ file, metadata, compressors });
  return {
    metadata,
    rows: rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, plain(v)]))),
  };
}

/**
 * Every row of `dataset` in a store (one organization's when `orgId` is given), read with hyparquet,
 * with `org_id` and `month` from the path, as JSON lines sorted.
 */
export async function datasetLines(root: string, dataset: string, orgId?: string): Promise<string[]> {
  const lines: string[] = [];
  for (const f of await partitionFiles(root)) {
    if (f.dataset !== dataset || (orgId !== undefined && f.orgId !== orgId)) continue;
    for (const row of (await readParquet(f.path)).rows) {
      lines.push(JSON.stringify({ ...row, org_id: f.orgId, month: f.month }));
    }
  }
  return lines.sort();
}

/**
 * Lines with each secret fingerprint (`[redacted:<8 hex>]`, salted per store) replaced by its rank of
 * first appearance: two stores of the same data compare equal while "the same secret, the same
 * mark" still has to hold inside each.
 */
export function sameFingerprints(lines: readonly string[]): string[] {
  const masked = lines.map((l) => ({ line: l, key: l.replace(/\[redacted:[0-9a-f]{8}\]/g, '[redacted:*]') }));
  masked.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const rank = new Map<string, number>();
  return masked.map(({ line }) =>
    line.replace(/\[redacted:([0-9a-f]{8})\]/g, (_, fp: string) => {
      if (!rank.has(fp)) rank.set(fp, rank.size);
      return `[redacted:#${rank.get(fp)}]`;
    }),
  );
}
