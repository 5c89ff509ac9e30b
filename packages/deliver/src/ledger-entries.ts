/**
 * The ledger's lines and what every ledger (a file, S3, Postgres) offers `deliverAll`: the entry
 * of each event, the index of what is known of each delivery, and the `DeliveryLedger` contract.
 */
import { LedgerError } from './errors.ts';

/** The version of the ledger's lines; a line of another version is refused, never misread. */
export const LEDGER_VERSION = 1;

/** What a line records: the send started, the receiver took it, or the attempt failed. */
export type LedgerState = 'sending' | 'sent' | 'failed';

/**
 * What the ledger says of a delivery: never seen (`new`), delivered (`sent`), last attempt failed
 * and nothing accepted (`failed`), or started with no outcome recorded (`unknown`: the process died
 * between starting the send and learning how it went), or, in a ledger shared by several runs at
 * once (S3, Postgres), being sent right now by another run whose claim has not run out (`held`).
 */
export type DeliveryStatus = 'new' | 'sent' | 'failed' | 'unknown' | 'held';

/** One line of the ledger. */
export interface LedgerEntry {
  /** The line's format version: 1. */
  v: 1;
  /** The delivery's key (see `deliveryKey`). */
  key: string;
  state: LedgerState;
  /** When the line was written (ISO instant, from the ledger's clock). */
  at: string;
  /** Who the delivery is for. */
  recipient: string;
  /** The target as it may be printed (never a token, password or signature). */
  target: string;
  /** The attempt this line belongs to, counted over every run (1 for the first). */
  attempt: number;
  /** The Message-ID the delivery goes out with, the same on every attempt. */
  messageId: string;
  /** The documents sent: file name -> sha256 (hex) of its bytes. */
  sha256: Record<string, string>;
  /** 'sent': the receiver's id of what it took (see `SentReceipt.id`). */
  id?: string;
  /** 'sent': where the documents can be found from now on (see `SentReceipt.location`). */
  location?: string;
  /** 'failed': what went wrong (no secret). */
  error?: string;
  /** The delivery's record fields (`month`, `scope`, `formats`, ...). */
  [field: string]: unknown;
}

/** The fields an append gives; the ledger adds `v` and `at`. */
export type LedgerEvent = Omit<LedgerEntry, 'v' | 'at'>;

/** Names a record field may not take: they are the entry's own. */
export const RESERVED_FIELDS: ReadonlySet<string> = new Set([
  'v',
  'key',
  'state',
  'at',
  'recipient',
  'target',
  'attempt',
  'messageId',
  'sha256',
  'id',
  'location',
  'error',
]);

const STATES: ReadonlySet<string> = new Set(['sending', 'sent', 'failed']);

/** What is known of one delivery: its last line, and its last 'sent' line if it ever had one. */
export interface LedgerRecord {
  last: LedgerEntry;
  lastSent?: LedgerEntry;
}

/** A torn last line: the start of a line whose write never completed (a crash mid-write). */
export interface TornLine {
  path: string;
  /** Its line number (1-based). */
  line: number;
  /** Its length in bytes. */
  bytes: number;
}

/** The state of every delivery of one or more ledger files: the last line per key, nothing more. */
export class LedgerIndex {
  readonly #records = new Map<string, LedgerRecord>();

  /** Takes one line into account (lines of one file in order; see {@link readLedgers} for several). */
  apply(entry: LedgerEntry): void {
    const known = this.#records.get(entry.key);
    const lastSent = entry.state === 'sent' ? entry : known?.lastSent;
    this.#records.set(entry.key, lastSent ? { last: entry, lastSent } : { last: entry });
  }

  /** What the ledger says of the delivery `key`. */
  status(key: string): DeliveryStatus {
    const record = this.#records.get(key);
    if (!record) return 'new';
    switch (record.last.state) {
      case 'sent':
        return 'sent';
      case 'sending':
        return 'unknown';
      default:
        // A resend that failed leaves the earlier delivery delivered.
        return record.lastSent ? 'sent' : 'failed';
    }
  }

  /** The last line and the last 'sent' line of `key`, if any. */
  get(key: string): LedgerRecord | undefined {
    return this.#records.get(key);
  }

  /** Every key the ledger knows, in the order first seen. */
  keys(): IterableIterator<string> {
    return this.#records.keys();
  }

  /** How many deliveries it knows. */
  get size(): number {
    return this.#records.size;
  }

  /** How many deliveries are in each status. */
  counts(): Record<Exclude<DeliveryStatus, 'new' | 'held'>, number> {
    const counts = { sent: 0, failed: 0, unknown: 0 };
    for (const key of this.#records.keys()) counts[this.status(key) as keyof typeof counts]++;
    return counts;
  }

  /** Takes the record of another index's key (used to merge files; the later `at` wins). */
  merge(record: LedgerRecord): void {
    const known = this.#records.get(record.last.key);
    if (!known) {
      this.#records.set(record.last.key, record);
      return;
    }
    const later = (a: LedgerEntry | undefined, b: LedgerEntry | undefined) =>
      !a ? b : !b ? a : Date.parse(b.at) >= Date.parse(a.at) ? b : a;
    const last = later(known.last, record.last)!;
    const lastSent = later(known.lastSent, record.lastSent);
    this.#records.set(last.key, lastSent ? { last, lastSent } : { last });
  }
}

/** Checks that a parsed line is a ledger entry of this version. */
export function checkEntry(value: unknown, where: string): LedgerEntry {
  const entry = value as LedgerEntry;
  if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) {
    throw new LedgerError(`${where}: not a ledger entry`);
  }
  if (entry.v !== LEDGER_VERSION) {
    throw new LedgerError(
      `${where}: a ledger entry of version ${JSON.stringify(entry.v)}; this version of @orgreport/deliver reads version ${LEDGER_VERSION}`,
    );
  }
  if (
    typeof entry.key !== 'string' ||
    !STATES.has(entry.state) ||
    typeof entry.at !== 'string' ||
    typeof entry.attempt !== 'number'
  ) {
    throw new LedgerError(`${where}: not a ledger entry (key, state, at and attempt are required)`);
  }
  return entry;
}

/**
 * The line of an event at `at`: `v` and `at` added, the fields in their order, the record fields
 * checked (a reserved name is a {@link LedgerError}). Every backend writes its lines through it.
 */
export function ledgerEntry(event: LedgerEvent, at: string): LedgerEntry {
  const { key, state, recipient, target, attempt, messageId, sha256, id, location, error, ...record } = event;
  for (const name of Object.keys(record)) {
    if (RESERVED_FIELDS.has(name)) throw new LedgerError(`a record field may not be named ${name}`);
  }
  const entry = checkEntry(
    {
      v: LEDGER_VERSION,
      key,
      state,
      at,
      recipient,
      target,
      attempt,
      messageId,
      sha256,
      ...(id === undefined ? {} : { id }),
      ...(location === undefined ? {} : { location }),
      ...(error === undefined ? {} : { error }),
      ...record,
    },
    'a new ledger line',
  );
  return entry;
}

/**
 * What `deliverAll` needs of a ledger, whatever keeps it (a file, S3, Postgres): the state of each
 * delivery, a claim before each attempt, and its outcome after.
 */
export interface DeliveryLedger {
  /** Where it is, as it may be printed (never a password). */
  readonly location: string;
  /** Reads what the ledger holds of these deliveries, so that `status` and `get` know them. */
  load(keys: ReadonlyArray<string>): Promise<void>;
  /** What the ledger says of the delivery `key` (as last read or written by this run). */
  status(key: string): DeliveryStatus;
  /** The last line and the last 'sent' line of `key`, if any. */
  get(key: string): LedgerRecord | undefined;
  /**
   * Claims the delivery for one attempt by writing its 'sending' line, only if the delivery is as
   * this run last read it. Undefined when it changed meanwhile (another run claimed or sent it): it
   * has been read again, and the caller decides anew from `status`.
   */
  claim(event: LedgerEvent): Promise<LedgerEntry | undefined>;
  /** Records an attempt's outcome ('sent' or 'failed'); resolves once it is durable. */
  append(event: LedgerEvent): Promise<LedgerEntry>;
  close(): Promise<void>;
}
