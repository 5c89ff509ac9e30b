/**
 * The ledger in Postgres: one row per delivery in `orgreport_ledger` (its record as jsonb and a
 * version counted up by each write), created with INSERT ... ON CONFLICT DO NOTHING and replaced
 * with UPDATE ... WHERE version = the version read; the schema's version in
 * `orgreport_ledger_schema`. A run reads its deliveries' rows with one query.
 */
import { scrubText } from '@orgreport/api-core/redact';
import { LedgerConfigError, LedgerError } from '../errors.ts';
import {
  checkRecord,
  type DeliveryRecord,
  type RecordStore,
  type VersionedRecord,
} from '../shared-ledger.ts';

/** The version of the ledger's tables; a database of another is refused, never misread. */
export const POSTGRES_SCHEMA_VERSION = 1;

type Sql = import('postgres').Sql;

/** Errors of the connection, after which a statement is sent again (postgres.js reconnects). */
const CONNECTION_CODES = new Set(['ECONNRESET', 'EPIPE', 'CONNECTION_CLOSED', 'CONNECTION_ENDED', '57P01']);

/**
 * A ledger's URL as it may be printed: a Postgres URL as `postgres://host:port/db` (no user, no
 * password), any other as it is.
 */
export function printableLedgerUrl(url: string): string {
  if (!/^postgres(ql)?:\/\//i.test(url)) return url;
  try {
    const u = new URL(url);
    return `postgres://${u.hostname}${u.port ? `:${u.port}` : ''}${u.pathname}`;
  } catch {
    return 'postgres://(unreadable URL)';
  }
}

class PostgresRecords implements RecordStore {
  constructor(
    private readonly sql: Sql,
    readonly location: string,
    private readonly explain: (error: unknown) => unknown,
  ) {}

  /** A statement, sent again after a dropped connection (its writes are compare-and-swap: safe to repeat). */
  async #run<T>(statement: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await statement();
      } catch (error) {
        if (attempt < 4 && CONNECTION_CODES.has((error as { code?: string }).code ?? '')) continue;
        throw this.explain(error);
      }
    }
  }

  async read(keys: ReadonlyArray<string>): Promise<Map<string, VersionedRecord>> {
    const rows = await this.#run(
      () =>
        this.sql<Array<{ key: string; record: unknown; version: string }>>`
          SELECT key, record, version::text AS version FROM orgreport_ledger WHERE key = ANY(${keys as string[]})`,
    );
    return new Map(
      rows.map((r) => [
        r.key,
        { record: checkRecord(r.record, `${this.location} delivery ${r.key}`), version: r.version },
      ]),
    );
  }

  async create(key: string, record: DeliveryRecord): Promise<string | undefined> {
    const rows = await this.#run(
      () =>
        this.sql<Array<{ version: string }>>`
          INSERT INTO orgreport_ledger (key, record, version) VALUES (${key}, ${this.sql.json(record as never)}, 1)
          ON CONFLICT (key) DO NOTHING RETURNING version::text AS version`,
    );
    return rows[0]?.version;
  }

  async replace(key: string, record: DeliveryRecord, version: string): Promise<string | undefined> {
    const rows = await this.#run(
      () =>
        this.sql<Array<{ version: string }>>`
          UPDATE orgreport_ledger SET record = ${this.sql.json(record as never)}, version = version + 1
          WHERE key = ${key} AND version = ${version}::bigint RETURNING version::text AS version`,
    );
    return rows[0]?.version;
  }

  async close(): Promise<void> {
    await this.sql.end({ timeout: 5 });
  }
}

/**
 * The ledger's records in the database of `url`: connects and checks, before anything is sent, that
 * the server answers, takes the credentials, and holds the tables of this version (creating them on
 * first use). The URL's password is never in a message.
 */
export async function postgresRecords(url: string): Promise<RecordStore> {
  const printable = printableLedgerUrl(url);
  let password = '';
  try {
    password = decodeURIComponent(new URL(url).password);
  } catch {
    throw new LedgerConfigError(
      `the ledger's Postgres URL cannot be read: write postgres://USER:PASSWORD@HOST:PORT/DATABASE`,
    );
  }
  const explain = (error: unknown): unknown => {
    if (error instanceof LedgerError) return error;
    const e = error as { code?: string; message?: string };
    const said = scrubText(`${e.code ? `${e.code}: ` : ''}${e.message ?? String(error)}`, [password]);
    if (e.code === '28P01' || e.code === '28000') {
      return new LedgerConfigError(
        `the ledger's Postgres ${printable} refused the credentials: check the user and password of the ledger's URL (${said})`,
      );
    }
    if (e.code === '3D000') {
      return new LedgerConfigError(
        `the ledger's database does not exist: create it, or correct the URL (${said})`,
      );
    }
    if (e.code === '42501') {
      return new LedgerConfigError(
        `the ledger's Postgres user may not create or write the ledger's tables: grant it CREATE and SELECT, INSERT, UPDATE on them (${said})`,
      );
    }
    if (e.code === 'ECONNREFUSED' || e.code === 'ENOTFOUND' || e.code === 'CONNECT_TIMEOUT') {
      return new LedgerError(
        `could not connect to the ledger's Postgres ${printable} (${said}): check that it runs and the URL's host and port`,
      );
    }
    return new LedgerError(`the ledger's Postgres ${printable} failed: ${said}`);
  };
  const { default: postgres } = await import('postgres');
  const sql = postgres(url, {
    max: 4,
    connect_timeout: 10,
    onnotice: () => {},
    connection: { application_name: 'orgreport' },
  });
  try {
    await sql.begin(async (tx) => {
      // One run creates the tables; the others wait for it, then find them.
      await tx`SELECT pg_advisory_xact_lock(hashtext('orgreport_ledger'))`;
      await tx`CREATE TABLE IF NOT EXISTS orgreport_ledger_schema (version integer NOT NULL)`;
      const found = await tx<Array<{ version: number }>>`SELECT version FROM orgreport_ledger_schema`;
      if (found.length === 0) {
        await tx`INSERT INTO orgreport_ledger_schema (version) VALUES (${POSTGRES_SCHEMA_VERSION})`;
      } else if (found.some((r) => r.version !== POSTGRES_SCHEMA_VERSION)) {
        throw new LedgerConfigError(
          `the ledger's Postgres ${printable} holds tables of schema version ${found.map((r) => r.version).join(', ')}; this orgreport uses version ${POSTGRES_SCHEMA_VERSION} (use the orgreport that made them, or another database)`,
        );
      }
      await tx`CREATE TABLE IF NOT EXISTS orgreport_ledger (
        key text PRIMARY KEY,
        record jsonb NOT NULL,
        version bigint NOT NULL
      )`;
    });
  } catch (error) {
    await sql.end({ timeout: 1 }).catch(() => {});
    throw explain(error);
  }
  return new PostgresRecords(sql, printable, explain);
}
