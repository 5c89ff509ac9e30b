/**
 * The embedded engine: an in-memory DuckDB that stages rows from JS (appended in chunks), writes
 * and reads Parquet files, and hands results back as plain JS values. Every SQL text the store
 * builds quotes its literals through {@link sqlString}.
 */
import { createRequire } from 'node:module';
import type {
  DuckDBConnection,
  DuckDBInstance as DuckDBInstanceType,
  DuckDBType,
  DuckDBTypeId as DuckDBTypeIdType,
  DuckDBValue,
} from '@duckdb/node-api';
import { codedListItems } from '@orgreport/api-core';
import type { RowTable } from './rows.ts';
import type { ColumnSpec, ColumnType } from './schema.ts';
import { ColumnReader, copyItems } from './vectors.ts';

// DuckDB's API is CommonJS: required, not imported. An import has Node's loader scan its source and
// each module it re-exports for their names (about 80 ms more, and the scanner compiled several times
// on V8's threads, which a 2-core machine feels in everything else it runs meanwhile).
const {
  BOOLEAN,
  DOUBLE,
  DuckDBDataChunk,
  DuckDBInstance,
  DuckDBResultReader,
  DuckDBTypeId,
  INTEGER,
  LIST,
  listValue,
  VARCHAR,
} = createRequire(import.meta.url)('@duckdb/node-api') as typeof import('@duckdb/node-api');

/** Column types whose vector items are already the JS values the snapshot holds (number, boolean). */
const DIRECT_TYPES = new Set<DuckDBTypeIdType>([
  DuckDBTypeId.DOUBLE,
  DuckDBTypeId.INTEGER,
  DuckDBTypeId.BOOLEAN,
]);

/** DuckDB's vector size: a data chunk holds at most this many rows. */
const CHUNK_ROWS = 2048;

/** A SQL string literal. */
export function sqlString(value: string): string {
  return `'${value.replaceAll("'", "''")}'`;
}

/** A SQL identifier. */
export function sqlName(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** How a column is staged from JS values: its staging type and the expression that gives the stored type. */
const STAGING: Record<ColumnType, { type: DuckDBType; stored: (c: string) => string }> = {
  VARCHAR: { type: VARCHAR, stored: (c) => c },
  DOUBLE: { type: DOUBLE, stored: (c) => c },
  BIGINT: { type: DOUBLE, stored: (c) => `CAST(${c} AS BIGINT)` },
  INTEGER: { type: INTEGER, stored: (c) => c },
  BOOLEAN: { type: BOOLEAN, stored: (c) => c },
  DATE: { type: VARCHAR, stored: (c) => `CAST(${c} AS DATE)` },
  // Unix milliseconds in, a UTC instant out.
  TIMESTAMPTZ: { type: DOUBLE, stored: (c) => `make_timestamptz(CAST(round(${c} * 1000) AS BIGINT))` },
  'VARCHAR[]': { type: LIST(VARCHAR), stored: (c) => c },
};

/** The value of a stored column as the JS value the snapshot holds (an expression). */
function readValue(column: ColumnSpec): string {
  const c = sqlName(column.name);
  switch (column.type) {
    case 'DATE':
      return `strftime(${c}, '%Y-%m-%d')`;
    case 'TIMESTAMPTZ':
      return `CAST(epoch_ms(${c}) AS DOUBLE)`;
    case 'BIGINT':
      return `CAST(${c} AS DOUBLE)`;
    default:
      return c;
  }
}

/** The expression that reads a stored column back as the JS value the snapshot holds. */
export function readExpression(column: ColumnSpec): string {
  return `${readValue(column)} AS ${sqlName(column.name)}`;
}

/** The expression that turns a staged column into its stored type. */
export function storedExpression(column: ColumnSpec): string {
  return `${STAGING[column.type].stored(sqlName(column.name))} AS ${sqlName(column.name)}`;
}

/** A JS value of a column as the appender takes it. */
function stagedValue(type: ColumnType, value: unknown): DuckDBValue {
  if (value === null || value === undefined) return null;
  switch (type) {
    case 'VARCHAR[]':
      return listValue((value as unknown[]).map((v) => (v === null || v === undefined ? null : String(v))));
    case 'VARCHAR':
    case 'DATE':
      return typeof value === 'string' ? value : String(value);
    case 'BOOLEAN':
      return Boolean(value);
    default:
      return typeof value === 'number' ? value : Number(value);
  }
}

/** Codes as the values they stand for (`values[code]`; null stays null). */
function decoded(codes: ArrayLike<unknown> = [], values: readonly unknown[]): unknown[] {
  const out: unknown[] = new Array(codes.length);
  for (let i = 0; i < codes.length; i++) {
    const k = codes[i] as number | null;
    out[i] = k === null ? null : values[k];
  }
  return out;
}

/**
 * Sets `target[name]` to `make()` when it is first read (or to what is first written). A report
 * that works on the codes never reads the decoded text: at 100k users' two months, seven arrays of
 * 2M values it would hold. `this` is the object read through, which may hold a copy of the property.
 */
function lazily(target: Record<string, unknown>, name: string, make: () => unknown): void {
  const settle = (on: object, value: unknown) => {
    Object.defineProperty(on, name, { value, enumerable: true, writable: true, configurable: true });
    return value;
  };
  Object.defineProperty(target, name, {
    enumerable: true,
    configurable: true,
    get(this: object) {
      return settle(this, make());
    },
    set(this: object, value: unknown) {
      settle(this, value);
    },
  });
}

/** Days since 1970-01-01 as their text (`YYYY-MM-DD`), made once per distinct day. */
function isoDays(days: ArrayLike<unknown> = []): unknown[] {
  const text = new Map<number, string>();
  const out: unknown[] = new Array(days.length);
  for (let i = 0; i < days.length; i++) {
    const d = days[i] as number | null;
    if (d === null) {
      out[i] = null;
      continue;
    }
    let t = text.get(d);
    if (t === undefined) {
      t = new Date(d * 86_400_000).toISOString().slice(0, 10);
      text.set(d, t);
    }
    out[i] = t;
  }
  return out;
}

/**
 * What {@link Engine.encodedColumns} read: the columns as JS values, and for each text, list or date
 * column the codes they were made from: per row an index into `values` (a list's items joined by
 * U+0001, '' for none), or for a date the days since 1970-01-01 (`values` empty); null for null.
 */
export interface EncodedColumns {
  columns: Record<string, ArrayLike<unknown>>;
  codes: Record<string, { codes: ArrayLike<number | null>; values: readonly string[] }>;
}

/** Names of the tables and types engines make (one count for the process: connections share a database). */
let names = 0;

/** An open in-memory DuckDB with one connection. */
export class Engine {
  private constructor(
    private readonly instance: DuckDBInstanceType,
    readonly connection: DuckDBConnection,
    /** False for an engine of {@link connect}, whose database another engine closes. */
    private readonly ownsInstance = true,
  ) {}

  /** Opens an engine; instants are read and written in UTC. */
  static async open(): Promise<Engine> {
    const instance = await DuckDBInstance.create(':memory:');
    const connection = await instance.connect();
    await connection.run("SET TimeZone = 'UTC'");
    return new Engine(instance, connection);
  }

  /**
   * Another connection to the same database, for queries that run beside this engine's (a
   * connection runs one query at a time). Close it before this engine.
   */
  async connect(): Promise<Engine> {
    const connection = await this.instance.connect();
    await connection.run("SET TimeZone = 'UTC'");
    return new Engine(this.instance, connection, false);
  }

  async run(sql: string): Promise<void> {
    await this.connection.run(sql);
  }

  /**
   * The result of `sql` as one array per column, keyed by column name. Numbers and booleans are
   * read straight off DuckDB's vectors (see vectors.ts); other types go through the converter.
   * The result is streamed, chunk by chunk: a materialized one is a second copy of every row in
   * the engine while the columns are built (at 100k users' two months, 2M user-day rows, the
   * read's peak RSS was 1.7 GB with it). `rows`, when the caller knows the count, sizes the
   * columns once, as typed arrays while a column has no null (see {@link ColumnReader}).
   */
  async columns(sql: string, rows?: number): Promise<Record<string, ArrayLike<unknown>>> {
    const result = await this.connection.stream(sql);
    const names = result.columnNames();
    if (!result.columnTypes().every((t) => DIRECT_TYPES.has(t.typeId))) {
      const reader = new DuckDBResultReader(result);
      await reader.readAll();
      return reader.getColumnsObjectJS() as Record<string, ArrayLike<unknown>>;
    }
    // With a count, each column is read into a typed array (see ColumnReader); without, grown.
    const readers = rows === undefined ? null : names.map(() => new ColumnReader(rows));
    const grown: unknown[][] | null = readers ? null : names.map(() => []);
    let offset = 0;
    for (
      let chunk = await result.fetchChunk();
      chunk && chunk.rowCount > 0;
      chunk = await result.fetchChunk()
    ) {
      const count = chunk.rowCount;
      for (let c = 0; c < names.length; c++) {
        if (readers) readers[c]!.append(chunk.getColumnVector(c), count);
        else copyItems(chunk.getColumnVector(c), grown![c]!, offset, count);
      }
      offset += count;
    }
    if (rows !== undefined && offset !== rows) throw new Error(`expected ${rows} rows, read ${offset}`);
    return Object.fromEntries(names.map((n, c) => [n, readers ? readers[c]!.values() : grown![c]!]));
  }

  /**
   * The rows of `from` (a relation: `read_parquet(...) WHERE ...`) as one array per column of
   * `columns`, in `order`. Text and lists travel as integer codes, so a string is made in JS once
   * per distinct value, not once per row: what makes reading a month's user-day rows fast. Each
   * such column gets an ENUM type of its distinct values in order (a code then sorts as its value
   * does), the rows come with `enum_code` of their value, and one last query gives the types'
   * values. Dates travel as days since 1970-01-01, their text made once per distinct day. (On a
   * 10k-user month, about half the engine's time of joining each column with a dictionary table.)
   */
  async encodedColumns(columns: readonly ColumnSpec[], from: string, order: string): Promise<EncodedColumns> {
    const coded = columns.filter((c) => c.type === 'VARCHAR' || c.type === 'VARCHAR[]');
    const enumOf = new Map(coded.map((c) => [c, `codes_${++names}`]));
    // A list is coded as its items joined by chr(1).
    const text = (c: ColumnSpec) =>
      c.type === 'VARCHAR[]' ? `array_to_string(${sqlName(c.name)}, chr(1))` : sqlName(c.name);
    // The types stay until the engine closes its in-memory database (their names are never reused):
    // dropping each one is a catalog change the read would wait for.
    for (const [c, type] of enumOf) {
      await this.run(
        `CREATE TYPE ${type} AS ENUM (SELECT v FROM (SELECT DISTINCT ${text(c)} AS v FROM ${from}) WHERE v IS NOT NULL ORDER BY v)`,
      );
    }
    // A number column whose every value is a whole number within 32 bits (counts: tool calls,
    // sessions, ...) travels as INTEGER: half the bytes of a double to copy and to hold.
    const numbers = columns.filter((c) => c.type === 'DOUBLE' || c.type === 'BIGINT');
    const whole = (c: string) => `bool_and(${c} IS NULL OR (${c} = trunc(${c}) AND abs(${c}) <= 2147483647))`;
    const [counted] = await this.rows(
      `SELECT ${['count(*) AS n', ...numbers.map((c, i) => `${whole(sqlName(c.name))} AS w${i}`)].join(', ')} FROM ${from}`,
    );
    const wholeNumbers = new Set(numbers.filter((_, i) => counted?.[`w${i}`] === true));
    const expression = (c: ColumnSpec) => {
      const name = sqlName(c.name);
      const type = enumOf.get(c);
      if (type) return `CAST(enum_code(CAST(${text(c)} AS ${type})) AS INTEGER) AS ${name}`;
      if (c.type === 'DATE') return `CAST(${name} - DATE '1970-01-01' AS INTEGER) AS ${name}`;
      if (wholeNumbers.has(c)) return `CAST(${name} AS INTEGER) AS ${name}`;
      return readExpression(c);
    };
    // `order` names columns, which here are codes and day numbers: they sort as their values do.
    const out = await this.columns(
      `SELECT ${columns.map(expression).join(', ')} FROM ${from} ORDER BY ${order}`,
      Number(counted?.n ?? 0),
    );
    const codes: EncodedColumns['codes'] = {};
    for (const c of columns.filter((c) => c.type === 'DATE')) {
      codes[c.name] = { codes: out[c.name] as ArrayLike<number | null>, values: [] };
      const days = out[c.name];
      lazily(out, c.name, () => isoDays(days));
    }
    if (coded.length === 0) return { columns: out, codes };
    const dictionaries = await this.enumValues(coded.map((c) => enumOf.get(c)!));
    coded.forEach((c, i) => {
      const values = dictionaries[i]!;
      codes[c.name] = { codes: out[c.name] as ArrayLike<number | null>, values };
      // A list was joined with chr(1); an empty one is the empty string.
      const items = c.type === 'VARCHAR[]' ? values.map(codedListItems) : values;
      const rowCodes = out[c.name];
      lazily(out, c.name, () => decoded(rowCodes, items));
    });
    return { columns: out, codes };
  }

  /**
   * The rows of `from` (a relation: `read_parquet(...) WHERE ...`), in `order`, as row objects
   * over `columns`: for a list of mostly distinct text (ten thousand users' ids, e-mails, names).
   * The rows come as one string, rows joined by chr(0) and fields by chr(2) (a value prefixed
   * with chr(1), a null as nothing), split in JS: the converter's string per value costs about
   * four times as much. Integers travel as text too. Columns of other types, or a value holding
   * chr(0) or chr(2) (the split then gives too many pieces), have the rows read through the
   * converter instead.
   */
  async textRows(
    columns: readonly ColumnSpec[],
    from: string,
    order: string,
  ): Promise<Array<Record<string, unknown>>> {
    const converted = () =>
      this.rows(`SELECT ${columns.map(readExpression).join(', ')} FROM ${from} ORDER BY ${order}`);
    if (!columns.every((c) => c.type === 'VARCHAR' || c.type === 'DATE' || c.type === 'INTEGER')) {
      return converted();
    }
    const fields = columns.map((c) => `coalesce(chr(1) || CAST(${readValue(c)} AS VARCHAR), '')`);
    const [joined] = await this.rows(
      `SELECT count(*) AS n, string_agg(concat_ws(chr(2), ${fields.join(', ')}), chr(0) ORDER BY ${order}) AS v FROM ${from}`,
    );
    const n = Number(joined?.n ?? 0);
    const lines = n === 0 ? [] : String(joined?.v).split('\0');
    if (lines.length !== n) return converted();
    const rows: Array<Record<string, unknown>> = new Array(n);
    for (let r = 0; r < n; r++) {
      const values = lines[r]!.split('\u0002');
      if (values.length !== columns.length) return converted();
      const row: Record<string, unknown> = {};
      columns.forEach((c, i) => {
        const v = values[i]!;
        row[c.name] = v === '' ? null : c.type === 'INTEGER' ? Number(v.slice(1)) : v.slice(1);
      });
      rows[r] = row;
    }
    return rows;
  }

  /**
   * The values of ENUM types, in order. Each type's values come as one string joined by chr(0),
   * split in JS: far cheaper than the converter's string per value (ten thousand e-mails). A type
   * with chr(0) in a value (the split then gives too many) is read as its list.
   */
  private async enumValues(types: readonly string[]): Promise<string[][]> {
    // Each type's list of values is made once (a CTE), then counted and joined.
    const [joined] = await this.rows(
      `WITH ranges AS (SELECT ${types.map((t, i) => `enum_range(NULL::${t}) AS r${i}`).join(', ')}) SELECT ${types.map((_, i) => `len(r${i}) AS n${i}, array_to_string(r${i}, chr(0)) AS v${i}`).join(', ')} FROM ranges`,
    );
    const out: string[][] = [];
    for (const [i, type] of types.entries()) {
      const count = Number(joined?.[`n${i}`] ?? 0);
      const values = count === 0 ? [] : String(joined?.[`v${i}`]).split('\0');
      if (values.length === count) out.push(values);
      else out.push(((await this.rows(`SELECT enum_range(NULL::${type}) AS v`))[0]?.v ?? []) as string[]);
    }
    return out;
  }

  /** The result of `sql` as row objects. */
  async rows(sql: string): Promise<Array<Record<string, unknown>>> {
    const reader = await this.connection.runAndReadAll(sql);
    return reader.getRowObjectsJS() as Array<Record<string, unknown>>;
  }

  /**
   * Appends `table`'s rows to a new table of the in-memory database (staging types, plus `__month`) and returns
   * its name. Values go in by chunks of 2,048 rows, never as one SQL text.
   */
  async stage(columns: readonly ColumnSpec[], table: RowTable): Promise<string> {
    const name = `staged_${++names}`;
    const specs = [...columns, { name: '__month', type: 'VARCHAR', doc: '' } as ColumnSpec];
    await this.connection.run(
      `CREATE TABLE ${name} (${specs.map((c) => `${sqlName(c.name)} ${STAGING[c.type].type.toString()}`).join(', ')})`,
    );
    const appender = await this.connection.createAppender(name);
    const types = specs.map((c) => STAGING[c.type].type);
    const source = specs.map((c) => (c.name === '__month' ? table.months : table.columns[c.name]!));
    for (let from = 0; from < table.length; from += CHUNK_ROWS) {
      const to = Math.min(table.length, from + CHUNK_ROWS);
      const chunk = DuckDBDataChunk.create(types, to - from);
      chunk.setColumns(
        source.map((values, i) => {
          const type = specs[i]!.type;
          const out: DuckDBValue[] = new Array(to - from);
          for (let r = from; r < to; r++) out[r - from] = stagedValue(type, values[r]);
          return out;
        }),
      );
      appender.appendDataChunk(chunk);
    }
    appender.closeSync();
    return name;
  }

  close(): void {
    this.connection.closeSync();
    if (this.ownsInstance) this.instance.closeSync();
  }
}
