/**
 * A snapshot on disk: a directory with `manifest.json` (sha256 of every other file), one JSON file per
 * small dataset and the `/users` rows as gzip-compressed JSON lines (`user-days.jsonl.gz`), written and
 * read as streams so that no large dataset is ever one string. Reading validates everything and
 * names the file (and line) that is wrong.
 */
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import {
  activityDaySchema,
  controlChangeSchema,
  hookEventSchema,
  orgUserSchema,
  productivityDaySchema,
  readinessReportSchema,
  SNAPSHOT_FORMAT_VERSION,
  type Snapshot,
  type SnapshotManifest,
  tokensDaySchema,
  toolsDaySchema,
  type UserDayColumns,
  UserDayColumnsBuilder,
} from '@orgreport/api-core';
import { z } from 'zod';
import { userDayLines } from './user-day-lines.ts';

export const MANIFEST_FILE = 'manifest.json';
export const USER_DAYS_FILE = 'user-days.jsonl.gz';

/** The JSON file and row schema of each dataset other than the `/users` rows. */
const DATASETS = {
  tokens: { file: 'tokens.json', row: tokensDaySchema },
  tools: { file: 'tools.json', row: toolsDaySchema },
  activity: { file: 'activity.json', row: activityDaySchema },
  productivity: { file: 'productivity.json', row: productivityDaySchema },
  orgUsers: { file: 'org-users.json', row: orgUserSchema },
  readiness: { file: 'readiness.json', row: readinessReportSchema },
  controls: { file: 'controls.json', row: controlChangeSchema },
} as const;
type DatasetName = keyof typeof DATASETS;
const HOOK_EVENTS_FILE = 'hook-events.json';
const hookEventRowSchema = hookEventSchema.and(z.looseObject({ recorded_at: z.string().optional() }));

/** Raised for a snapshot directory that is missing, incomplete, altered or malformed (bad input). */
export class SnapshotError extends Error {
  override name = 'SnapshotError';
  constructor(dir: string, detail: string) {
    super(`snapshot ${dir}: ${detail}`);
  }
}

const periodSchema = z.looseObject({
  month: z.string().regex(/^\d{4}-\d{2}$/),
  start: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  end: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  days: z.number().int().positive(),
  partial: z.boolean(),
  clampedStart: z.boolean(),
  endsEarly: z.boolean(),
});
const manifestSchema = z.looseObject({
  formatVersion: z.literal(SNAPSHOT_FORMAT_VERSION),
  organization: z.looseObject({ id: z.string(), name: z.string() }),
  period: periodSchema,
  comparison: periodSchema.nullable(),
  fetchedRange: z.looseObject({ start: z.string(), end: z.string() }),
  fetchedAt: z.string(),
  toolVersion: z.string(),
  source: z.looseObject({
    baseUrl: z.string(),
    appUrl: z.string(),
    redirectedTo: z.array(z.string()).optional(),
  }),
  counts: z.record(z.string(), z.number()),
  demo: z.object({ users: z.number().int().positive(), today: z.string() }).optional(),
  checksums: z.record(z.string(), z.string().regex(/^[0-9a-f]{64}$/)),
  notes: z.array(z.string()),
  unknownFields: z.record(z.string(), z.array(z.string())).optional(),
  rowChecks: z
    .array(
      z.looseObject({
        dataset: z.string(),
        rule: z.enum(['negative', 'fractional', 'outside-range', 'future', 'duplicate']),
        rows: z.number().int().nonnegative(),
        action: z.enum(['excluded', 'kept']),
        examples: z.array(z.string()),
      }),
    )
    .optional(),
});

function sha256(data: string | Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

/** A pass-through stream that hashes what flows through it. */
function hashingTap(hash: ReturnType<typeof createHash>): Transform {
  return new Transform({
    transform(chunk, _encoding, callback) {
      hash.update(chunk);
      callback(null, chunk);
    },
  });
}

/** Counts of rows per dataset, as the manifest records them. */
export function snapshotCounts(snapshot: Snapshot): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const name of Object.keys(DATASETS) as DatasetName[]) counts[name] = snapshot[name].length;
  counts.userDays = snapshot.userDays.user_id.length;
  if (snapshot.hookEvents) counts.hookEvents = snapshot.hookEvents.length;
  return counts;
}

/**
 * Writes `snapshot` into `dir` (created) and returns the manifest written, with counts and checksums.
 * Secrets must already be redacted (fetchSnapshot does it).
 */
export async function writeSnapshot(dir: string, snapshot: Snapshot): Promise<SnapshotManifest> {
  await mkdir(dir, { recursive: true });
  const checksums: Record<string, string> = {};
  const datasets: Array<[string, unknown[]]> = (Object.keys(DATASETS) as DatasetName[]).map((name) => [
    DATASETS[name].file,
    snapshot[name],
  ]);
  if (snapshot.hookEvents) datasets.push([HOOK_EVENTS_FILE, snapshot.hookEvents]);
  for (const [file, rows] of datasets) {
    const text = `${JSON.stringify(rows)}\n`;
    await writeFile(join(dir, file), text);
    checksums[file] = sha256(text);
  }
  const hash = createHash('sha256');
  await pipeline(
    Readable.from(userDayLines(snapshot.userDays)),
    createGzip({ level: 1 }),
    hashingTap(hash),
    createWriteStream(join(dir, USER_DAYS_FILE)),
  );
  checksums[USER_DAYS_FILE] = hash.digest('hex');
  const manifest: SnapshotManifest = {
    ...snapshot.manifest,
    counts: { ...snapshot.manifest.counts, ...snapshotCounts(snapshot) },
    checksums,
  };
  await writeFile(join(dir, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

async function fileChecksum(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

async function readManifest(dir: string): Promise<SnapshotManifest> {
  let text: string;
  try {
    text = await readFile(join(dir, MANIFEST_FILE), 'utf8');
  } catch {
    throw new SnapshotError(
      dir,
      `no ${MANIFEST_FILE}: not a snapshot directory (write one with orgreport fetch)`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new SnapshotError(dir, `${MANIFEST_FILE} is not valid JSON (${(error as Error).message})`);
  }
  const parsed = manifestSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new SnapshotError(dir, `${MANIFEST_FILE}: ${issue.path.join('.') || '(root)'}: ${issue.message}`);
  }
  return parsed.data as SnapshotManifest;
}

async function verifiedText(dir: string, file: string, manifest: SnapshotManifest): Promise<string> {
  const expected = manifest.checksums[file];
  if (!expected) throw new SnapshotError(dir, `${MANIFEST_FILE} has no checksum for ${file}`);
  let text: string;
  try {
    text = await readFile(join(dir, file), 'utf8');
  } catch {
    throw new SnapshotError(dir, `${file} is missing`);
  }
  if (sha256(text) !== expected)
    throw new SnapshotError(dir, `${file} does not match its checksum (altered or truncated)`);
  return text;
}

async function readDataset<T>(
  dir: string,
  file: string,
  row: z.ZodType<T>,
  manifest: SnapshotManifest,
): Promise<T[]> {
  const text = await verifiedText(dir, file, manifest);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new SnapshotError(dir, `${file} is not valid JSON (${(error as Error).message})`);
  }
  const parsed = z.array(row).safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new SnapshotError(dir, `${file}: ${issue.path.join('.') || '(root)'}: ${issue.message}`);
  }
  return parsed.data;
}

const userDayLineSchema = z.looseObject({
  user_id: z.string(),
  date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
});

async function readUserDays(dir: string, manifest: SnapshotManifest): Promise<UserDayColumns> {
  const path = join(dir, USER_DAYS_FILE);
  const expected = manifest.checksums[USER_DAYS_FILE];
  if (!expected) throw new SnapshotError(dir, `${MANIFEST_FILE} has no checksum for ${USER_DAYS_FILE}`);
  const actual = await fileChecksum(path).catch(() => {
    throw new SnapshotError(dir, `${USER_DAYS_FILE} is missing`);
  });
  if (actual !== expected) {
    throw new SnapshotError(dir, `${USER_DAYS_FILE} does not match its checksum (altered or truncated)`);
  }
  const builder = new UserDayColumnsBuilder();
  const lines = createInterface({ input: createReadStream(path).pipe(createGunzip()), crlfDelay: Infinity });
  let lineNo = 0;
  let batch: Array<Record<string, unknown>> = [];
  try {
    for await (const line of lines) {
      lineNo++;
      if (!line) continue;
      let row: unknown;
      try {
        row = JSON.parse(line);
      } catch {
        throw new SnapshotError(dir, `${USER_DAYS_FILE} line ${lineNo} is not valid JSON`);
      }
      const checked = userDayLineSchema.safeParse(row);
      if (!checked.success) {
        const issue = checked.error.issues[0]!;
        throw new SnapshotError(
          dir,
          `${USER_DAYS_FILE} line ${lineNo}: ${issue.path.join('.')}: ${issue.message}`,
        );
      }
      batch.push(checked.data);
      if (batch.length >= 5000) {
        builder.push(batch);
        batch = [];
      }
    }
  } catch (error) {
    if (error instanceof SnapshotError) throw error;
    throw new SnapshotError(dir, `${USER_DAYS_FILE} cannot be decompressed (${(error as Error).message})`);
  }
  builder.push(batch);
  return builder.columns;
}

/** Reads and validates a snapshot directory written by {@link writeSnapshot}. */
export async function readSnapshot(dir: string): Promise<Snapshot> {
  const manifest = await readManifest(dir);
  const [tokens, tools, activity, productivity, orgUsers, readiness, controls] = await Promise.all(
    (Object.keys(DATASETS) as DatasetName[]).map((name) =>
      readDataset(dir, DATASETS[name].file, DATASETS[name].row as z.ZodType<unknown>, manifest),
    ),
  );
  const snapshot: Snapshot = {
    manifest,
    tokens: tokens as Snapshot['tokens'],
    tools: tools as Snapshot['tools'],
    activity: activity as Snapshot['activity'],
    productivity: productivity as Snapshot['productivity'],
    orgUsers: orgUsers as Snapshot['orgUsers'],
    readiness: readiness as Snapshot['readiness'],
    controls: controls as Snapshot['controls'],
    userDays: await readUserDays(dir, manifest),
  };
  if (manifest.checksums[HOOK_EVENTS_FILE]) {
    snapshot.hookEvents = await readDataset(dir, HOOK_EVENTS_FILE, hookEventRowSchema, manifest);
  }
  for (const [name, count] of Object.entries(snapshotCounts(snapshot))) {
    if (manifest.counts[name] !== undefined && manifest.counts[name] !== count) {
      throw new SnapshotError(
        dir,
        `${name} has ${count} rows but the manifest counts ${manifest.counts[name]}`,
      );
    }
  }
  return snapshot;
}
