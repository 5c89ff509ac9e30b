/**
 * The ledger in a bucket: `<prefix>ledger.json` (what the prefix holds, and its version) and one
 * object per delivery, `<prefix>deliveries/<key>.json`, created with If-None-Match: * and replaced
 * with If-Match on the ETag read. A run reads the objects of its own deliveries (one request each,
 * several at once), never a listing.
 */
import {
  type ObjectStore,
  ObjectStoreError,
  type ObjectStoreOptions,
  openObjectStore,
} from '@orgreport/object-store';
import { LedgerConfigError, LedgerError } from '../errors.ts';
import { LEDGER_VERSION } from '../ledger-entries.ts';
import {
  checkRecord,
  type DeliveryRecord,
  type RecordStore,
  type VersionedRecord,
} from '../shared-ledger.ts';

/** The ledger's own object: its format and version. */
const MARKER = 'ledger.json';
const FORMAT = 'orgreport-ledger';
/** Objects read at once. */
const READS_AT_ONCE = 16;

/** An object-storage error as the ledger's: configuration to fix (exit 2), or a failure. */
function ledgerError(error: unknown): unknown {
  if (!(error instanceof ObjectStoreError)) return error;
  return error.kind === 'input'
    ? new LedgerConfigError(`the ledger: ${error.message}`, { cause: error })
    : new LedgerError(`the ledger: ${error.message}`, { cause: error });
}

class S3Records implements RecordStore {
  constructor(readonly objects: ObjectStore) {}

  get location(): string {
    return this.objects.location.url;
  }

  async read(keys: ReadonlyArray<string>): Promise<Map<string, VersionedRecord>> {
    const out = new Map<string, VersionedRecord>();
    let next = 0;
    const worker = async () => {
      while (next < keys.length) {
        const key = keys[next++]!;
        const object = await this.objects.get(`deliveries/${key}.json`);
        if (!object) continue;
        const where = `${this.location}deliveries/${key}.json`;
        let json: unknown;
        try {
          json = JSON.parse(object.body.toString('utf8'));
        } catch {
          throw new LedgerError(
            `${where}: not JSON; the ledger is damaged (remove the object to send that delivery again)`,
          );
        }
        out.set(key, { record: checkRecord(json, where), version: object.etag });
      }
    };
    try {
      await Promise.all(Array.from({ length: Math.min(READS_AT_ONCE, keys.length) }, worker));
    } catch (error) {
      throw ledgerError(error);
    }
    return out;
  }

  async create(key: string, record: DeliveryRecord): Promise<string | undefined> {
    return this.#put(key, record, { ifAbsent: true });
  }

  async replace(key: string, record: DeliveryRecord, version: string): Promise<string | undefined> {
    return this.#put(key, record, { ifMatch: version });
  }

  async #put(
    key: string,
    record: DeliveryRecord,
    condition: { ifAbsent: true } | { ifMatch: string },
  ): Promise<string | undefined> {
    try {
      const result = await this.objects.put(
        `deliveries/${key}.json`,
        `${JSON.stringify(record)}\n`,
        condition,
      );
      return result.written ? result.etag : undefined;
    } catch (error) {
      throw ledgerError(error);
    }
  }

  async close(): Promise<void> {
    this.objects.close();
  }
}

/**
 * The ledger's records under `url` (`s3://bucket/prefix/`): checks, before anything is sent, that
 * the bucket is there, the credentials work, and the prefix holds a ledger of this version (writing
 * its `ledger.json` on first use).
 */
export async function s3Records(
  url: string,
  options: Pick<ObjectStoreOptions, 'settings' | 'sleep'>,
): Promise<RecordStore & { objects: ObjectStore }> {
  let objects: ObjectStore;
  try {
    objects = openObjectStore(url, options);
  } catch (error) {
    throw ledgerError(error);
  }
  try {
    const marker = `${JSON.stringify({ format: FORMAT, version: LEDGER_VERSION })}\n`;
    let found = await objects.get(MARKER);
    if (!found) {
      await objects.put(MARKER, marker, { ifAbsent: true });
      found = await objects.get(MARKER);
    }
    let json: { format?: unknown; version?: unknown } = {};
    try {
      json = JSON.parse(found?.body.toString('utf8') ?? '{}');
    } catch {}
    if (json.format !== FORMAT) {
      throw new LedgerConfigError(
        `${objects.location.url}${MARKER} is not an orgreport ledger's: give the ledger a prefix of its own`,
      );
    }
    if (json.version !== LEDGER_VERSION) {
      throw new LedgerConfigError(
        `the ledger ${objects.location.url} is of version ${JSON.stringify(json.version)}; this orgreport reads version ${LEDGER_VERSION} (use the orgreport that wrote it, or another prefix)`,
      );
    }
  } catch (error) {
    objects.close();
    throw ledgerError(error);
  }
  return new S3Records(objects);
}
