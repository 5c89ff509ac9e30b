/**
 * The watch's state of an organization, `<store>/_watch/org_id=<id>/state.json`: which alerts were
 * sent (by key), the last control revision seen and the last day judged. In a store folder, written
 * whole through a temporary file and a rename, readable by its owner only (0600: it names people
 * whose alerts fired); in a bucket, replaced only over the version read (kept-files.ts).
 */
import type { WatchState } from '@orgreport/watch';
import { z } from 'zod';
import { CliError } from '../errors.ts';
import { orgFile, orgKey } from './inputs.ts';
import { readKept, writeKept } from './kept-files.ts';

const stateSchema = z.strictObject({
  version: z.literal(1),
  orgId: z.string(),
  lastDay: z.string().nullable(),
  lastRevision: z.number().nullable(),
  fired: z.record(
    z.string(),
    z.strictObject({ day: z.string(), rule: z.enum(['security', 'budget', 'spike', 'stale']) }),
  ),
});

/** Where an organization's state lives. */
export const statePath = (store: string, orgId: string) => orgFile(store, '_watch', orgId, 'state.json');

/** The state of the last watch of `orgId`; null before the first. A damaged file is an error, not a fresh start. */
export async function readWatchState(store: string, orgId: string): Promise<WatchState | null> {
  const path = statePath(store, orgId);
  const text = await readKept(store, orgKey('_watch', orgId, 'state.json'));
  if (text === undefined) return null;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new CliError(
      `${path} is not valid JSON: move it away to start the watch afresh (every alert that still holds is then sent again)`,
    );
  }
  const parsed = stateSchema.safeParse(json);
  if (!parsed.success || parsed.data.orgId !== orgId) {
    throw new CliError(
      `${path} is not a watch state of organization ${orgId}: move it away to start the watch afresh (every alert that still holds is then sent again)`,
    );
  }
  return parsed.data;
}

/**
 * Writes the state whole (0600), replacing the old file only once the new one is on disk; in a
 * bucket, only over the version read (another watch's state in between is an error to run again).
 */
export async function writeWatchState(store: string, state: WatchState): Promise<void> {
  await writeKept(store, orgKey('_watch', state.orgId, 'state.json'), `${JSON.stringify(state, null, 2)}\n`);
}
