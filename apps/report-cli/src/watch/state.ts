/**
 * The watch's state of an organization, `<store>/_watch/org_id=<id>/state.json`: which alerts were
 * sent (by key), the last control revision seen and the last day judged. Written whole through a
 * temporary file and a rename, readable by its owner only (0600: it names people whose alerts fired).
 */
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, open, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { WatchState } from '@orgreport/watch';
import { z } from 'zod';
import { CliError } from '../errors.ts';
import { orgFile, readIfPresent } from './inputs.ts';

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
  const text = await readIfPresent(path);
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

/** Writes the state whole (0600), replacing the old file only once the new one is on disk. */
export async function writeWatchState(store: string, state: WatchState): Promise<void> {
  await writePrivateFile(statePath(store, state.orgId), `${JSON.stringify(state, null, 2)}\n`);
}

/** Writes a file of the watch whole (0600, its folder 0700) through a temporary file and a rename. */
export async function writePrivateFile(path: string, text: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const tmp = `${path}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
  try {
    const handle = await open(tmp, 'wx', 0o600);
    try {
      await handle.writeFile(text);
      await handle.sync();
    } finally {
      await handle.close();
    }
    // The mode is set again in case a umask took bits off at creation (it never adds any).
    await chmod(tmp, 0o600);
    await rename(tmp, path);
  } catch (error) {
    await rm(tmp, { force: true });
    throw error;
  }
}
