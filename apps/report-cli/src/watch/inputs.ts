/**
 * What the watch reads besides the store's datasets, each through one small function so that its
 * producer can change it alone: the credit limits `limits apply` recorded
 * (`<store>/_limits/org_id=<id>/limits.jsonl`, lines `{day, at, email, limit}`) and the sync runs
 * `sync` logged (`<store>/_sync/org_id=<id>/runs.jsonl`, lines `{at, day, ok, through, error?}`),
 * files of a store folder or objects of a store in a bucket.
 * A missing file is no record; a line that cannot be read is skipped with a warning (an append cut
 * short by a crash leaves one), never taken for a record.
 */
import { isIsoDate } from '@orgreport/api-core/dates';
import { hiveValue } from '@orgreport/store';
import type { LimitRecord, SyncRun } from '@orgreport/watch';
import { z } from 'zod';
import { CliError } from '../errors.ts';
import { keptName, readKept } from './kept-files.ts';

const day = z.string().refine(isIsoDate, 'expected a day as YYYY-MM-DD');

const limitLine = z.looseObject({
  day,
  at: z.string(),
  email: z.string().min(1),
  limit: z.number().nonnegative(),
});

const runLine = z.looseObject({
  at: z.string(),
  day,
  ok: z.boolean(),
  through: day.nullable().optional(),
  error: z.string().optional(),
});

/** The key under the store of an organization's file in one of the store's underscore folders. */
export function orgKey(folder: '_limits' | '_sync' | '_watch', orgId: string, name: string): string {
  return `${folder}/org_id=${hiveValue(orgId)}/${name}`;
}

/** The file of an organization under one of the store's underscore folders (in a bucket: its URL). */
export function orgFile(
  store: string,
  folder: '_limits' | '_sync' | '_watch',
  orgId: string,
  name: string,
): string {
  return keptName(store, orgKey(folder, orgId, name));
}

/** The valid lines of a JSON-lines file of the store (none when it does not exist). */
async function jsonLines<T>(
  store: string,
  key: string,
  schema: z.ZodType<T>,
  warn: (line: string) => void,
): Promise<T[]> {
  const path = keptName(store, key);
  const text = await readKept(store, key);
  if (text === undefined) return [];
  const out: T[] = [];
  text.split('\n').forEach((line, i) => {
    if (line.trim() === '') return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      warn(`${path}: line ${i + 1} is not JSON; skipped`);
      return;
    }
    const checked = schema.safeParse(parsed);
    if (checked.success) out.push(checked.data);
    else
      warn(
        `${path}: line ${i + 1}: ${checked.error.issues.map((x) => `${x.path.join('.')} ${x.message}`).join('; ')}; skipped`,
      );
  });
  return out;
}

/** The credit limits `limits apply` recorded for an organization. */
export async function readLimitRecords(
  store: string,
  orgId: string,
  warn: (line: string) => void,
): Promise<LimitRecord[]> {
  const rows = await jsonLines(store, orgKey('_limits', orgId, 'limits.jsonl'), limitLine, warn);
  return rows.map((r) => ({ day: r.day, at: r.at, email: r.email, limit: r.limit }));
}

/** The sync runs logged for an organization. */
export async function readSyncRuns(
  store: string,
  orgId: string,
  warn: (line: string) => void,
): Promise<SyncRun[]> {
  const rows = await jsonLines(store, orgKey('_sync', orgId, 'runs.jsonl'), runLine, warn);
  return rows.map((r) => ({
    at: r.at,
    day: r.day,
    ok: r.ok,
    ...(r.through !== undefined && { through: r.through }),
    ...(r.error !== undefined && { error: r.error }),
  }));
}
