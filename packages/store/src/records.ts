/**
 * The store's records of what was done: files of JSON lines (one object each) beside the datasets,
 * appended and never rewritten, one per organization. Unlike the datasets they hold what no API
 * response gives back (the API cannot read credit limits; a failed sync leaves no data), so no
 * rebuild remakes them. {@link RECORD_FILES} is their contract: docs/store.md writes it down and
 * every line read is checked against it.
 *
 * An append is one write of whole lines, flushed to the disk before it returns: a crash loses at
 * most the lines of the write under way. A line cut short by a crash (the file does not end with a
 * line break) is skipped by readers and cut off by the next append. One writer at a time per file is
 * assumed: the commands that write them run one at a time per organization.
 */
import { mkdir, open, readFile, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { flushFolder } from '@orgreport/api-core/files';
import { damaged, insideStore } from './damage.ts';
import { DamagedStoreError } from './errors.ts';
import { StoreLayout } from './layout.ts';
import { openStore } from './store-file.ts';

/** What a field of a record holds: JS type and format. */
export type RecordFieldType = 'text' | 'day' | 'instant' | 'boolean' | 'number';

export interface RecordFieldSpec {
  name: string;
  type: RecordFieldType;
  /** May be `null`. */
  nullable?: boolean;
  /** May be left out. */
  optional?: boolean;
  doc: string;
}

export interface RecordFileSpec {
  /** Its name in {@link RECORD_FILES}. */
  name: 'syncRuns' | 'limits';
  /** Where it lives, as docs/store.md shows it. */
  path: string;
  doc: string;
  /** The file's mode when it is created. */
  mode: number;
  fields: readonly RecordFieldSpec[];
}

/** Every record file of a store, in the order docs/store.md lists them. */
export const RECORD_FILES = {
  syncRuns: {
    name: 'syncRuns',
    path: '_sync/org_id=<id>/runs.jsonl',
    doc: 'One line per `orgreport sync` of the organization, written when the run ends, failed or not (not `sync --rebuild`, which fetches nothing, nor the sync inside `monthly --store`). A run that failed before it knew the organization id is kept under the id the store knows for the configured organization name, else under that name made a slug (`org_id=<slug>`).',
    mode: 0o644,
    fields: [
      { name: 'at', type: 'instant', doc: 'when the run started (UTC)' },
      { name: 'day', type: 'day', doc: 'the UTC day of the run' },
      { name: 'ok', type: 'boolean', doc: 'whether the run stored every day it was asked for' },
      {
        name: 'through',
        type: 'day',
        nullable: true,
        doc: 'the last day the store holds after the run; null when it holds none',
      },
      {
        name: 'error',
        type: 'text',
        optional: true,
        doc: 'why the run failed (left out when it did not; secrets masked)',
      },
    ],
  },
  limits: {
    name: 'limits',
    path: '_limits/org_id=<id>/limits.jsonl',
    doc: 'One line per credit limit `orgreport limits apply` set and the API accepted (not the refused ones, nothing of a dry run): the API cannot read limits back. Personal data: created with mode 0600.',
    mode: 0o600,
    fields: [
      { name: 'day', type: 'day', doc: 'the UTC day of the run' },
      { name: 'at', type: 'instant', doc: 'when the API accepted it (UTC)' },
      { name: 'email', type: 'text', doc: "the user's e-mail as the file gave it" },
      { name: 'limit', type: 'number', doc: 'the limit set, in credits' },
    ],
  },
} as const satisfies Record<RecordFileSpec['name'], RecordFileSpec>;

const DAY = /^\d{4}-\d{2}-\d{2}$/;

function fits(type: RecordFieldType, value: unknown): boolean {
  switch (type) {
    case 'text':
      return typeof value === 'string';
    case 'day':
      return typeof value === 'string' && DAY.test(value);
    case 'instant':
      return typeof value === 'string' && !Number.isNaN(Date.parse(value));
    case 'boolean':
      return typeof value === 'boolean';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
  }
}

/** Why `value` is not a record of `spec`; null when it is one. */
function recordProblem(spec: RecordFileSpec, value: unknown): string | null {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return 'is not a JSON object';
  const record = value as Record<string, unknown>;
  for (const field of spec.fields) {
    const v = record[field.name];
    if (v === undefined && field.optional) continue;
    if (v === null && field.nullable) continue;
    if (!fits(field.type, v)) return `has no valid "${field.name}" (${field.type})`;
  }
  return null;
}

/** The remedy of a damaged record file: nothing remakes it. */
function recordRemedy(layout: StoreLayout, path: string, line?: number): string {
  const where = line === undefined ? '' : `mend or delete line ${line} of it, or `;
  return `its records are kept nowhere else, so no rebuild remakes them: ${where}move ${insideStore(layout, path)} aside to start a new one`;
}

/**
 * The layout of the store in `root` for records: created when missing (as a sync would), and used
 * even when its `_store.json` is damaged (a record of a failure is worth keeping then most).
 */
export async function recordLayout(root: string): Promise<StoreLayout> {
  try {
    return await openStore(root, { create: true });
  } catch (error) {
    if (error instanceof DamagedStoreError) return new StoreLayout(root);
    throw error;
  }
}

/** The offset just after the last line break of a file's bytes (0 when none). */
function wholeLinesEnd(bytes: Buffer): number {
  return bytes.lastIndexOf(0x0a) + 1;
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

/**
 * Appends `records` to the record file at `path` in one write, flushed to the disk (of a store in
 * object storage: added to its object by compare-and-swap, see `RemoteStore.appendRecords`).
 */
export async function appendRecords(
  spec: RecordFileSpec,
  path: string,
  records: ReadonlyArray<object>,
  layout?: StoreLayout,
): Promise<void> {
  if (records.length === 0) return;
  if (layout?.remote)
    return layout.remote.appendRecords(path, records.map((r) => `${JSON.stringify(r)}\n`).join(''));
  await mkdir(dirname(path), { recursive: true });
  const created = !(await exists(path));
  const handle = await open(path, 'a+', spec.mode);
  try {
    const { size } = await handle.stat();
    if (size > 0) {
      const last = Buffer.alloc(1);
      await handle.read(last, 0, 1, size - 1);
      // A line cut short by a crash: cut off, so that it does not run into the new lines.
      if (last[0] !== 0x0a) await handle.truncate(wholeLinesEnd(await readFile(path)));
    }
    await handle.write(records.map((r) => `${JSON.stringify(r)}\n`).join(''));
    await handle.sync();
  } finally {
    await handle.close();
  }
  if (created) await flushFolder(dirname(path));
}

/**
 * The records of the file at `path`, oldest first: none when it does not exist. A file that cannot
 * be read, or a whole line that is not a record of `spec`, is a {@link DamagedStoreError}.
 */
export async function readRecords<T>(layout: StoreLayout, spec: RecordFileSpec, path: string): Promise<T[]> {
  await layout.remote?.pullRecords(path);
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw damaged(layout, path, `cannot be read (${code})`, error, recordRemedy(layout, path));
  }
  // What follows the last line break is a line a crash cut short: not a record yet.
  const lines = bytes.subarray(0, wholeLinesEnd(bytes)).toString('utf8').split('\n');
  const out: T[] = [];
  for (const [index, line] of lines.entries()) {
    if (line.trim() === '') continue;
    let value: unknown;
    let problem: string | null;
    try {
      value = JSON.parse(line);
      problem = recordProblem(spec, value);
    } catch {
      problem = 'is not JSON';
    }
    if (problem) {
      throw damaged(
        layout,
        path,
        `line ${index + 1} ${problem}`,
        undefined,
        recordRemedy(layout, path, index + 1),
      );
    }
    out.push(value as T);
  }
  return out;
}
