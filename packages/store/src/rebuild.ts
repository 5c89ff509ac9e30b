/**
 * `rebuildStore`: every dataset of an organization made again from the raw spans its syncs kept
 * (`_raw/`), without a request. For a store whose files were damaged or deleted, whose state is
 * unreadable, or that a new version of the store lays out differently.
 */
import { randomBytes } from 'node:crypto';
import { rename, rm } from 'node:fs/promises';
import type { Clock } from '@orgreport/api-core';
import { publish, tempPath } from '@orgreport/api-core/files';
import { applySpan, stateAfterSpan } from './apply.ts';
import { Engine } from './engine.ts';
import { StoreError } from './errors.ts';
import { entries } from './files.ts';
import { StoreLayout } from './layout.ts';
import { lockOrganization } from './lock.ts';
import { listRawSpans, readRawSpan } from './raw.ts';
import { isRemoteRoot } from './remote.ts';
import { DATASETS } from './schema.ts';
import { emptyState, type OrgState, readState, writeState } from './state.ts';
import { openStore } from './store-file.ts';

export interface RebuildOptions {
  /** The organization rebuilt; default every organization with raw spans. */
  orgId?: string;
  /** The clock of the lock. */
  now: Clock;
  onProgress?: (progress: { orgId: string; span: string; index: number; of: number }) => void;
}

export interface RebuildResult {
  orgId: string;
  /** Raw spans replayed. */
  spans: number;
}

/** The organization ids that have raw spans in the store. */
async function rawOrganizations(layout: StoreLayout): Promise<string[]> {
  return (await entries(`${layout.root}/_raw`))
    .map((dir) => /^org_id=(.+)$/.exec(dir)?.[1])
    .filter((id): id is string => id !== undefined)
    .map(decodeURIComponent);
}

/** The salt of the old state when it still reads (fingerprints of later syncs stay comparable). */
async function oldSalt(layout: StoreLayout, orgId: string): Promise<string | undefined> {
  try {
    return (await readState(layout, orgId))?.salt;
  } catch {
    return undefined;
  }
}

async function rebuildOrganization(
  layout: StoreLayout,
  orgId: string,
  options: RebuildOptions,
): Promise<RebuildResult> {
  const spans = await listRawSpans(layout, orgId);
  if (spans.length === 0) throw new StoreError(`the store keeps no raw data of organization ${orgId}`);
  const lock = await lockOrganization(layout, orgId, options.now);
  // Built aside in a scratch store on the same file system, then moved in dataset by dataset: a
  // rebuild killed before the moves leaves the store as it was.
  const scratch = new StoreLayout(await tempPath(layout.tmp));
  const engine = await Engine.open();
  try {
    let state: OrgState = emptyState(orgId);
    let salt = await oldSalt(layout, orgId);
    for (const [index, span] of spans.entries()) {
      options.onProgress?.({ orgId, span: span.id, index, of: spans.length });
      const { snapshot, info } = await readRawSpan(layout, span);
      await applySpan(engine, scratch, orgId, snapshot, info);
      state = stateAfterSpan(state, snapshot, info);
      salt = info.salt ?? salt;
    }
    state.salt = salt ?? randomBytes(16).toString('hex');
    for (const spec of DATASETS) {
      const old = await tempPath(layout.tmp);
      await rename(layout.orgDir(spec.name, orgId), old).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT') throw error;
      });
      if ((await entries(scratch.orgDir(spec.name, orgId))).length > 0) {
        await publish(scratch.orgDir(spec.name, orgId), layout.orgDir(spec.name, orgId));
      }
      await rm(old, { recursive: true, force: true });
    }
    await writeState(layout, state);
    return { orgId, spans: spans.length };
  } finally {
    engine.close();
    await rm(scratch.root, { recursive: true, force: true });
    await lock.release();
  }
}

/**
 * Rebuilds the datasets and state of one organization (or of every organization with raw spans)
 * from the raw spans in the store, in the order they were fetched.
 *
 * @example
 * await rebuildStore('/srv/store', { now: () => new Date() });
 */
export async function rebuildStore(root: string, options: RebuildOptions): Promise<RebuildResult[]> {
  if (isRemoteRoot(root)) {
    throw new StoreError(
      `${root} is in object storage: fetch damaged months again with orgreport sync --store ${root} --refetch YYYY-MM (a rebuild works on a folder)`,
    );
  }
  // A damaged `_store.json` is written anew: the rebuild is what a damaged store is told to run.
  const layout = await openStore(root, { repair: true });
  const orgIds = options.orgId ? [options.orgId] : await rawOrganizations(layout);
  if (orgIds.length === 0) throw new StoreError(`${root} keeps no raw data to rebuild from`);
  const results: RebuildResult[] = [];
  for (const orgId of orgIds) results.push(await rebuildOrganization(layout, orgId, options));
  return results;
}
