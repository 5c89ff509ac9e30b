/**
 * The ledger's form for runs on many machines at once (S3, Postgres). A delivery
 * is one record (its lines and, while an attempt is under way, the claim of the run sending it)
 * that changes only by compare-and-swap on the version read: created only when absent, replaced
 * only when unchanged since it was read. So of two runs that read the same state and claim the same
 * delivery, exactly one wins; the other reads it again and finds it held, sent, or to claim anew.
 * A claim names its run and lasts a lease: a claim whose lease ran out with no outcome recorded
 * belongs to a run that is gone, and the delivery is `unknown`, taken over by CAS like any other.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { LedgerError } from './errors.ts';
import {
  type DeliveryLedger,
  type DeliveryStatus,
  LEDGER_VERSION,
  type LedgerEntry,
  type LedgerEvent,
  LedgerIndex,
  type LedgerRecord,
  ledgerEntry,
} from './ledger-entries.ts';

/** The claim of the run sending a delivery right now. */
export interface DeliveryClaim {
  /** The run's id (random, one per opened ledger). */
  run: string;
  /** The machine it runs on (for people reading the ledger). */
  host: string;
  /** Until when the claim stands (ISO instant): past it, the run is taken to be gone. */
  until: string;
}

/** One delivery as a shared ledger keeps it. */
export interface DeliveryRecord {
  v: typeof LEDGER_VERSION;
  key: string;
  /** Its lines, oldest first (those a file ledger would hold). */
  lines: LedgerEntry[];
  /** Set while an attempt is under way. */
  claim?: DeliveryClaim;
}

/** A record and the version it was read at (an ETag, a row version). */
export interface VersionedRecord {
  record: DeliveryRecord;
  version: string;
}

/**
 * Where a shared ledger keeps its records: reads by key, a create only when absent, a replace only
 * over the version read. Either write resolves to the new version, or undefined when refused.
 */
export interface RecordStore {
  readonly location: string;
  read(keys: ReadonlyArray<string>): Promise<Map<string, VersionedRecord>>;
  create(key: string, record: DeliveryRecord): Promise<string | undefined>;
  replace(key: string, record: DeliveryRecord, version: string): Promise<string | undefined>;
  close(): Promise<void>;
}

export interface SharedLedgerOptions {
  /** The clock of the lines' `at`. */
  now: () => Date;
  /**
   * The clock of the claims' lease (default `now`): the time of the machines, which a lease is
   * measured in across them, even when the lines are dated by a report's fixed clock.
   */
  leaseClock?: () => Date;
  /** How long a claim stands without an outcome (default 10 minutes): longer than any send takes. */
  leaseMs?: number;
  /** This run's id (default: random) and machine (default: the host name). */
  run?: string;
  host?: string;
}

/** Checks a record read back from a store. */
export function checkRecord(value: unknown, where: string): DeliveryRecord {
  const record = value as DeliveryRecord;
  if (
    !record ||
    typeof record !== 'object' ||
    !Array.isArray(record.lines) ||
    typeof record.key !== 'string'
  ) {
    throw new LedgerError(`${where}: not a delivery record of the ledger`);
  }
  if (record.v !== LEDGER_VERSION) {
    throw new LedgerError(
      `${where}: a delivery record of version ${JSON.stringify(record.v)}; this version of @orgreport/deliver reads version ${LEDGER_VERSION}`,
    );
  }
  return record;
}

/** The same line: a line read back is compared by what identifies it, as a store may reorder its fields. */
const sameLine = (a: LedgerEntry | undefined, b: LedgerEntry) =>
  a !== undefined && a.key === b.key && a.state === b.state && a.attempt === b.attempt && a.at === b.at;

/** A ledger whose deliveries are records in a {@link RecordStore}, shared by runs on many machines. */
export class SharedLedger implements DeliveryLedger {
  readonly run: string;
  readonly host: string;
  readonly #store: RecordStore;
  readonly #now: () => Date;
  readonly #leaseClock: () => Date;
  readonly #leaseMs: number;
  /** What this run last read or wrote of each delivery; null: read, and absent. */
  readonly #known = new Map<string, VersionedRecord | null>();

  constructor(store: RecordStore, options: SharedLedgerOptions) {
    if (typeof options?.now !== 'function') throw new TypeError('SharedLedger: now must be a function');
    this.#store = store;
    this.#now = options.now;
    this.#leaseClock = options.leaseClock ?? options.now;
    this.#leaseMs = options.leaseMs ?? 10 * 60_000;
    this.run = options.run ?? randomBytes(8).toString('hex');
    this.host = options.host ?? hostname();
  }

  get location(): string {
    return this.#store.location;
  }

  async load(keys: ReadonlyArray<string>): Promise<void> {
    const wanted = [...new Set(keys)].filter((k) => !this.#known.has(k));
    if (wanted.length === 0) return;
    const read = await this.#store.read(wanted);
    for (const key of wanted) this.#known.set(key, read.get(key) ?? null);
  }

  /** Reads `key` again, whatever this run knew of it. */
  async #reread(key: string): Promise<VersionedRecord | null> {
    this.#known.delete(key);
    await this.load([key]);
    return this.#known.get(key) ?? null;
  }

  get(key: string): LedgerRecord | undefined {
    const known = this.#known.get(key);
    if (!known) return undefined;
    const index = new LedgerIndex();
    for (const line of known.record.lines) index.apply(line);
    return index.get(key);
  }

  status(key: string): DeliveryStatus {
    const known = this.#known.get(key);
    if (!known) return 'new';
    const index = new LedgerIndex();
    for (const line of known.record.lines) index.apply(line);
    const status = index.status(key);
    const claim = known.record.claim;
    if (
      status === 'unknown' &&
      claim &&
      claim.run !== this.run &&
      Date.parse(claim.until) > this.#leaseClock().getTime()
    ) {
      return 'held';
    }
    return status;
  }

  async claim(event: LedgerEvent): Promise<LedgerEntry | undefined> {
    const entry = ledgerEntry(event, this.#now().toISOString());
    const claim: DeliveryClaim = {
      run: this.run,
      host: this.host,
      until: new Date(this.#leaseClock().getTime() + this.#leaseMs).toISOString(),
    };
    if (!this.#known.has(entry.key)) await this.load([entry.key]);
    const known = this.#known.get(entry.key) ?? null;
    const record: DeliveryRecord = {
      v: LEDGER_VERSION,
      key: entry.key,
      lines: [...(known?.record.lines ?? []), entry],
      claim,
    };
    if (await this.#write(record, known)) return entry;
    // Refused: another run changed it, or this run's own write landed before its answer was lost
    // (a retried request), which reads back as its own claim.
    const again = await this.#reread(entry.key);
    if (again?.record.claim?.run === this.run && sameLine(again.record.lines.at(-1), entry)) return entry;
    return undefined;
  }

  async append(event: LedgerEvent): Promise<LedgerEntry> {
    const entry = ledgerEntry(event, this.#now().toISOString());
    // An outcome is a fact: recorded whatever happened meanwhile, on the record as it now is.
    for (let tries = 0; tries < 20; tries++) {
      if (!this.#known.has(entry.key)) await this.load([entry.key]);
      const known = this.#known.get(entry.key) ?? null;
      if (known?.record.lines.some((l) => sameLine(l, entry))) return entry;
      const claim = known?.record.claim;
      const record: DeliveryRecord = {
        v: LEDGER_VERSION,
        key: entry.key,
        lines: [...(known?.record.lines ?? []), entry],
        // Another run's claim (it took this one over) stays; this run's ends with its outcome.
        ...(claim && claim.run !== this.run && { claim }),
      };
      if (await this.#write(record, known)) return entry;
      await this.#reread(entry.key);
    }
    throw new LedgerError(
      `the ledger ${this.location} kept changing while the outcome of delivery ${entry.key} was recorded`,
    );
  }

  /** Writes `record` over `known` (create when absent); true when it stands, the version kept. */
  async #write(record: DeliveryRecord, known: VersionedRecord | null): Promise<boolean> {
    const version = known
      ? await this.#store.replace(record.key, record, known.version)
      : await this.#store.create(record.key, record);
    if (version === undefined) return false;
    this.#known.set(record.key, { record, version });
    return true;
  }

  close(): Promise<void> {
    return this.#store.close();
  }
}
