/**
 * The delivery ledger: an append-only JSON-lines file, one line per event of a delivery ('sending'
 * before the send, 'sent' or 'failed' after it). Each line is written with one `write` and made
 * durable with `fdatasync` before the send goes on, so after a crash the file holds whole lines
 * (and at most a torn last one, ignored and reported) and says for every delivery what to do next:
 * nothing ('sent'), try again ('failed'), or decide ('unknown': started, outcome never recorded).
 */
import { createReadStream } from 'node:fs';
import { type FileHandle, mkdir, open } from 'node:fs/promises';
import { dirname } from 'node:path';
import { type HeldLock, takeFileLock } from '@orgreport/api-core/file-lock';
import { LedgerError, LedgerLockedError } from './errors.ts';
import {
  checkEntry,
  type DeliveryLedger,
  type DeliveryStatus,
  type LedgerEntry,
  type LedgerEvent,
  LedgerIndex,
  type LedgerRecord,
  ledgerEntry,
  type TornLine,
} from './ledger-entries.ts';

/** What reading a ledger file found. */
export interface LedgerFileReport {
  path: string;
  /** Whole lines read. */
  lines: number;
  /** The torn last line, when there is one (it is ignored). */
  torn?: TornLine;
  /** The bytes of the whole lines: where the next line goes. */
  wholeBytes: number;
}

/**
 * Reads a ledger file line by line into `index` (a missing file reads as empty). Memory holds one
 * chunk and the index (a ledger of 100k lines reads in about half a second). A damaged whole line
 * is a {@link LedgerError} (its line number named): skipping it could send a delivery twice.
 */
async function readLedgerFile(path: string, index: LedgerIndex): Promise<LedgerFileReport> {
  const report: LedgerFileReport = { path, lines: 0, wholeBytes: 0 };
  let carry: Buffer = Buffer.alloc(0);
  try {
    for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) {
      let buffer = carry.length > 0 ? Buffer.concat([carry, chunk as Buffer]) : (chunk as Buffer);
      let start = 0;
      for (let nl = buffer.indexOf(10, start); nl >= 0; nl = buffer.indexOf(10, start)) {
        report.lines++;
        const text = buffer.toString('utf8', start, nl);
        report.wholeBytes += nl + 1 - start;
        start = nl + 1;
        if (text.trim() === '') continue;
        const where = `${path} line ${report.lines}`;
        let parsed: unknown;
        try {
          parsed = JSON.parse(text);
        } catch {
          throw new LedgerError(`${where}: not JSON; the ledger is damaged (fix or remove that line)`);
        }
        index.apply(checkEntry(parsed, where));
      }
      buffer = buffer.subarray(start);
      carry = Buffer.from(buffer);
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return report;
    throw error;
  }
  if (carry.length > 0) report.torn = { path, line: report.lines + 1, bytes: carry.length };
  return report;
}

/** Several ledger files read together. */
export interface LedgerReading {
  index: LedgerIndex;
  files: LedgerFileReport[];
  /** The torn last lines found (ignored). */
  torn: TornLine[];
}

/**
 * Reads several ledger files together for reporting (the parts written by `--shard K/N` jobs:
 * `ledger.part-1-of-4.jsonl`, ...), without taking their locks. A key found in several files takes
 * the line with the later `at`.
 */
export async function readLedgers(paths: ReadonlyArray<string>): Promise<LedgerReading> {
  const index = new LedgerIndex();
  const files: LedgerFileReport[] = [];
  for (const path of paths) {
    const part = new LedgerIndex();
    files.push(await readLedgerFile(path, part));
    for (const key of part.keys()) index.merge(part.get(key)!);
  }
  return { index, files, torn: files.flatMap((f) => (f.torn ? [f.torn] : [])) };
}

export interface OpenLedgerOptions {
  /** The clock of the lines' `at` (and of the lock). */
  now: () => Date;
  /**
   * The mode of a new ledger file and its lock (default 0o600, owner only: the ledger names every
   * recipient). A caller may relax it, e.g. 0o640. An existing file keeps its mode.
   */
  mode?: number;
  /**
   * Other ledger files whose deliveries count as this one's: the parts written by other `--shard`
   * splits, or the whole run's ledger beside a part. Read once on opening, without their locks; a
   * key found in several files takes the line with the later `at`. New lines go to this file only.
   */
  alsoRead?: ReadonlyArray<string>;
}

/**
 * A ledger open for writing by this process (it holds `<path>.lock` until {@link Ledger.close}).
 * Lines are appended one at a time, in the order `append` is called.
 */
export class Ledger implements DeliveryLedger {
  readonly #handle: FileHandle;
  readonly #lock: HeldLock;
  readonly #now: () => Date;
  readonly #index: LedgerIndex;
  #queue: Promise<unknown> = Promise.resolve();
  #broken: Error | undefined;
  #closed = false;

  /** Use {@link openLedger}. */
  private constructor(
    readonly path: string,
    handle: FileHandle,
    lock: HeldLock,
    now: () => Date,
    index: LedgerIndex,
    /** The torn last line found on opening (removed, so the next line starts on a line of its own). */
    readonly torn: TornLine | undefined,
  ) {
    this.#handle = handle;
    this.#lock = lock;
    this.#now = now;
    this.#index = index;
  }

  /** @internal */
  static async open(path: string, options: OpenLedgerOptions): Promise<Ledger> {
    if (typeof options?.now !== 'function') throw new TypeError('openLedger: now must be a function');
    const mode = options.mode ?? 0o600;
    await mkdir(dirname(path), { recursive: true });
    const lock = await takeFileLock(`${path}.lock`, {
      now: options.now,
      mode,
      inUse: (owner, lockPath) =>
        new LedgerLockedError(
          `the ledger ${path} is in use by process ${owner.pid} on ${owner.host} (since ${owner.since}); wait for it to finish, or remove ${lockPath} if that process is gone`,
        ),
      contended: (lockPath) =>
        new LedgerLockedError(
          `could not take the lock ${lockPath}: other processes keep taking it (if none runs, remove ${lockPath}.takeover)`,
        ),
    });
    let handle: FileHandle | undefined;
    try {
      const index = new LedgerIndex();
      const report = await readLedgerFile(path, index);
      const others = await readLedgers((options.alsoRead ?? []).filter((p) => p !== path));
      for (const key of others.index.keys()) index.merge(others.index.get(key)!);
      handle = await openForAppend(path, mode);
      if (report.torn) {
        // The torn line's write never completed, so nothing relied on it: cut it off.
        await handle.truncate(report.wholeBytes);
        await handle.datasync();
      }
      return new Ledger(path, handle, lock, options.now, index, report.torn);
    } catch (error) {
      await handle?.close();
      await lock.release();
      throw error;
    }
  }

  /** Where it is, as it may be printed. */
  get location(): string {
    return this.path;
  }

  /** Nothing to do: the file was read whole on opening. */
  async load(_keys: ReadonlyArray<string>): Promise<void> {}

  /** The 'sending' line of an attempt: one process holds the file's lock, so its claim always stands. */
  claim(event: LedgerEvent): Promise<LedgerEntry | undefined> {
    return this.append(event);
  }

  /** What the ledger says of the delivery `key`. */
  status(key: string): DeliveryStatus {
    return this.#index.status(key);
  }

  /** The last line and the last 'sent' line of `key`, if any. */
  get(key: string): LedgerRecord | undefined {
    return this.#index.get(key);
  }

  /** Every delivery it knows, by key. */
  get index(): LedgerIndex {
    return this.#index;
  }

  /**
   * Appends one line (one `write`, then `fdatasync`) and resolves once it is on disk. A failed
   * write leaves the ledger unusable: every later append fails too, as nothing after it could be
   * trusted.
   */
  append(event: LedgerEvent): Promise<LedgerEntry> {
    const run = this.#queue.then(() => this.#write(event));
    this.#queue = run.catch(() => {});
    return run;
  }

  async #write(event: LedgerEvent): Promise<LedgerEntry> {
    if (this.#closed) throw new LedgerError(`the ledger ${this.path} is closed`);
    if (this.#broken)
      throw new LedgerError(`the ledger ${this.path} failed earlier: ${this.#broken.message}`);
    const entry = ledgerEntry(event, this.#now().toISOString());
    const bytes = Buffer.from(`${JSON.stringify(entry)}\n`);
    try {
      let written = 0;
      while (written < bytes.length) {
        written += (await this.#handle.write(bytes, written)).bytesWritten;
      }
      await this.#handle.datasync();
    } catch (cause) {
      this.#broken = cause as Error;
      throw new LedgerError(`writing the ledger ${this.path} failed: ${(cause as Error).message}`, { cause });
    }
    this.#index.apply(entry);
    return entry;
  }

  /** Waits for pending lines, closes the file and releases the lock. */
  async close(): Promise<void> {
    if (this.#closed) return;
    await this.#queue;
    this.#closed = true;
    try {
      await this.#handle.close();
    } finally {
      await this.#lock.release();
    }
  }
}

/**
 * Opens (or creates, mode 0o600) the ledger at `path` for this process: takes `<path>.lock` (a lock
 * left by a dead process of this host is taken over; a live one is a `LedgerLockedError`), reads
 * every line, and cuts off a torn last line (reported as `ledger.torn`).
 */
export function openLedger(path: string, options: OpenLedgerOptions): Promise<Ledger> {
  return Ledger.open(path, options);
}

/** Opens `path` for appending; a file it creates gets exactly `mode` (whatever the umask) and is made durable in its folder. */
async function openForAppend(path: string, mode: number): Promise<FileHandle> {
  let handle: FileHandle;
  try {
    handle = await open(path, 'ax', mode);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return open(path, 'a');
    throw error;
  }
  try {
    await handle.chmod(mode);
    await handle.datasync();
    const folder = await open(dirname(path), 'r');
    try {
      await folder.sync();
    } finally {
      await folder.close();
    }
  } catch (error) {
    await handle.close();
    throw error;
  }
  return handle;
}
