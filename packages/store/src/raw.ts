/**
 * The raw side of a store: every span a sync fetched, kept as the snapshot the fetch stage made
 * (secrets already redacted) in `_raw/org_id=<id>/<fetched-at>_<start>_<end>/`, its JSON files
 * gzip-compressed, with `sync.json` saying what the span held. Any dataset can be rebuilt from them
 * (`rebuildStore` replays them in order).
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { copyFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import type { DayRange, IsoDate, Snapshot } from '@orgreport/api-core';
import { publish, tempPath } from '@orgreport/api-core/files';
import { MANIFEST_FILE, readSnapshot, USER_DAYS_FILE, writeSnapshot } from '@orgreport/snapshot';
import { entries } from './files.ts';
import type { StoreLayout } from './layout.ts';
import { STORE_SCHEMA_VERSION } from './schema.ts';

export const SYNC_FILE = 'sync.json';

/** What one fetched span held. */
export interface SpanInfo {
  /** The days fetched. */
  range: DayRange;
  /** The organization users and readiness reports were fetched with it. */
  lists: boolean;
  /** The day (UTC) it was fetched: the `as_of` of its organization users. */
  asOf: IsoDate;
  /** A hook log was read with it (its events of the span are in the snapshot). */
  hookLog: boolean;
}

/** A span's `sync.json`: what it held, and the store version that wrote it. */
export interface RawSpanInfo extends SpanInfo {
  storeSchemaVersion: number;
  /** The organization's fingerprint salt at the fetch (a rebuild keeps it, so fingerprints stay comparable). */
  salt?: string;
}

/** A raw span on disk. */
export interface RawSpan {
  id: string;
  dir: string;
}

function rawId(snapshot: Snapshot, range: DayRange): string {
  const stamp = snapshot.manifest.fetchedAt.replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
  return `${stamp}_${range.start}_${range.end}`;
}

/** Keeps a fetched span's snapshot in the store's raw side; returns where. */
export async function writeRawSpan(
  layout: StoreLayout,
  orgId: string,
  snapshot: Snapshot,
  info: SpanInfo,
  salt?: string,
): Promise<RawSpan> {
  const draft = await tempPath(layout.tmp);
  try {
    await writeSnapshot(draft, snapshot);
    for (const name of await entries(draft)) {
      if (!name.endsWith('.json') || name === MANIFEST_FILE) continue;
      await pipeline(
        createReadStream(join(draft, name)),
        createGzip({ level: 9 }),
        createWriteStream(join(draft, `${name}.gz`)),
      );
      await rm(join(draft, name));
    }
    const full: RawSpanInfo = { storeSchemaVersion: STORE_SCHEMA_VERSION, ...info, ...(salt && { salt }) };
    await writeFile(join(draft, SYNC_FILE), `${JSON.stringify(full, null, 2)}\n`);
    const id = rawId(snapshot, info.range);
    const dir = join(layout.rawDir(orgId), id);
    await rm(dir, { recursive: true, force: true }); // the same span fetched at the same instant
    await publish(draft, dir);
    return { id, dir };
  } catch (error) {
    await rm(draft, { recursive: true, force: true });
    throw error;
  }
}

/** The raw spans of an organization, oldest fetch first. */
export async function listRawSpans(layout: StoreLayout, orgId: string): Promise<RawSpan[]> {
  const root = layout.rawDir(orgId);
  return (await entries(root)).map((id) => ({ id, dir: join(root, id) }));
}

/** Reads a raw span back: its snapshot (validated against its checksums) and what it held. */
export async function readRawSpan(
  layout: StoreLayout,
  span: RawSpan,
): Promise<{ snapshot: Snapshot; info: RawSpanInfo }> {
  const info = JSON.parse(await readFile(join(span.dir, SYNC_FILE), 'utf8')) as RawSpanInfo;
  const draft = await tempPath(layout.tmp);
  await mkdir(draft, { recursive: true });
  try {
    for (const name of await entries(span.dir)) {
      if (name.endsWith('.json.gz')) {
        await pipeline(
          createReadStream(join(span.dir, name)),
          createGunzip(),
          createWriteStream(join(draft, name.slice(0, -3))),
        );
      } else if (name === MANIFEST_FILE || name === USER_DAYS_FILE) {
        await copyFile(join(span.dir, name), join(draft, name));
      }
    }
    return { snapshot: await readSnapshot(draft), info };
  } finally {
    await rm(draft, { recursive: true, force: true });
  }
}
