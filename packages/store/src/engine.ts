/**
 * The embedded engine: an in-memory DuckDB that stages rows from JS (appended in chunks), writes
 * and reads Parquet files, and hands results back as plain JS values. Every SQL text the store
 * builds quotes its literals through {@link sqlString}.
 */
import {
  BOOLEAN,
  DOUBLE,
  type DuckDBConnection,
  DuckDBDataChunk,
  DuckDBInstance,
  DuckDBResultReader,
  type DuckDBType,
  DuckDBTypeId,
  type DuckDBValue,
  INTEGER,
  LIST,
  listValue,
  VARCHAR,
} from '@duckdb/node-api';
import type { RowTable } from './rows.ts';
import type { ColumnSpec, ColumnType } from './schema.ts';

/** Column types whose vector items are already the JS values the snapshot holds (number, boolean). */
const DIRECT_TYPES = new Set<DuckDBTypeId>([DuckDBTypeId.DOUBLE, DuckDBTypeId.INTEGER, DuckDBTypeId.BOOLEAN]);

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

/** The expression that reads a stored column back as the JS value the snapshot holds. */
export function readExpression(column: ColumnSpec): string {
  const c = sqlName(column.name);
  switch (column.type) {
    case 'DATE':
      return `strftime(${c}, '%Y-%m-%d') AS ${c}`;
    case 'TIMESTAMPTZ':
      return `CAST(epoch_ms(${c}) AS DOUBLE) AS ${c}`;
    case 'BIGINT':
      return `CAST(${c} AS DOUBLE) AS ${c}`;
    default:
      return c;
  }
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

/** An open in-memory DuckDB with one connection. */
export class Engine {
  #tables = 0;
  private constructor(
    private readonly instance: DuckDBInstance,
    readonly connection: DuckDBConnection,
  ) {}

  /** Opens an engine; instants are read and written in UTC. */
  static async open(): Promise<Engine> {
    const instance = await DuckDBInstance.create(':memory:');
    const connection = await instance.connect();
    await connection.run("SET TimeZone = 'UTC'");
    return new Engine(instance, connection);
  }

  async run(sql: string): Promise<void> {
    await this.connection.run(sql);
  }

  /**
   * The result of `sql` as one array per column, keyed by column name. Numbers and booleans are
   * read straight off DuckDB's vectors (on a month of user-day rows, about 40 % less time than
   * DuckDB's generic converter); other types go through the converter.
   */
  async columns(sql: string): Promise<Record<string, unknown[]>> {
    const result = await this.connection.run(sql);
    const names = result.columnNames();
    if (!result.columnTypes().every((t) => DIRECT_TYPES.has(t.typeId))) {
      const reader = new DuckDBResultReader(result);
      await reader.readAll();
      return reader.getColumnsObjectJS() as Record<string, unknown[]>;
    }
    // The result is materialized: its chunks are read synchronously, with no round trip each.
    const out: unknown[][] = names.map(() => new Array(result.rowCount));
    let offset = 0;
    for (let k = 0; k < result.chunkCount; k++) {
      const chunk = result.getChunk(k);
      const rows = chunk.rowCount;
      for (let c = 0; c < names.length; c++) {
        const vector = chunk.getColumnVector(c);
        const values = out[c]!;
        for (let r = 0; r < rows; r++) values[offset + r] = vector.getItem(r);
      }
      offset += rows;
    }
    return Object.fromEntries(names.map((n, c) => [n, out[c]!]));
  }

  /**
   * The rows of `from` (a relation: `read_parquet(...) WHERE ...`) as one array per column of
   * `columns`, in `order`. Text, dates and lists travel as integer codes into a dictionary of their
   * distinct values, so a string is made in JS once per distinct value, not once per row: what makes
   * reading a month's user-day rows fast. One query gives the rows with their codes (each column
   * joined with its dictionary), another the dictionaries; no table is stored and dropped in between
   * (on a 10k-user month, about 60 ms less than a stored table of the rows and one per dictionary).
   */
  async encodedColumns(
    columns: readonly ColumnSpec[],
    from: string,
    order: string,
  ): Promise<Record<string, unknown[]>> {
    const text = (c: ColumnSpec) => {
      const name = sqlName(c.name);
      if (c.type === 'DATE') return `strftime(${name}, '%Y-%m-%d')`;
      if (c.type === 'VARCHAR[]') return `array_to_string(${name}, chr(1))`;
      return name;
    };
    const coded = columns.filter((c) => c.type === 'VARCHAR' || c.type === 'DATE' || c.type === 'VARCHAR[]');
    const plain = columns.filter((c) => !coded.includes(c));
    const dict = (c: ColumnSpec) => sqlName(`d_${c.name}`);
    // The rows once (the relation read once), text as text; each dictionary numbers its column's
    // distinct values in their order.
    const rows = `WITH __rows AS MATERIALIZED (SELECT ${[
      ...plain.map(readExpression),
      ...coded.map((c) => `${text(c)} AS ${sqlName(c.name)}`),
    ].join(', ')} FROM ${from})`;
    const dictionaries = coded.map(
      (c) =>
        `${dict(c)} AS (SELECT v, CAST(row_number() OVER (ORDER BY v) - 1 AS INTEGER) AS k FROM (SELECT DISTINCT ${sqlName(c.name)} AS v FROM __rows WHERE ${sqlName(c.name)} IS NOT NULL))`,
    );
    // `order` names columns, which here are the codes of the coded ones: a code sorts as its value
    // does (the dictionaries are in order, and both put nulls last), so the rows come in `order`.
    const out = await this.columns(
      `${[rows, ...dictionaries].join(', ')} SELECT ${[
        ...plain.map((c) => `r.${sqlName(c.name)}`),
        ...coded.map((c) => `${dict(c)}.k AS ${sqlName(c.name)}`),
      ].join(', ')} FROM __rows AS r ${coded
        .map((c) => `LEFT JOIN ${dict(c)} ON r.${sqlName(c.name)} = ${dict(c)}.v`)
        .join(' ')} ORDER BY ${order}`,
    );
    if (coded.length === 0) return out;
    const lists = await this.columns(
      `${rows} SELECT ${coded
        .map(
          (c) =>
            `list(DISTINCT ${sqlName(c.name)} ORDER BY ${sqlName(c.name)}) FILTER (WHERE ${sqlName(c.name)} IS NOT NULL) AS ${sqlName(c.name)}`,
        )
        .join(', ')} FROM __rows`,
    );
    for (const c of coded) {
      const values = (lists[c.name]?.[0] as unknown[] | null | undefined) ?? [];
      // A list was joined with chr(1); an empty one is the empty string.
      const dictionary =
        c.type === 'VARCHAR[]' ? values.map((v) => (v === '' ? [] : String(v).split('\u0001'))) : values;
      const codes = out[c.name] ?? [];
      const decoded: unknown[] = new Array(codes.length);
      for (let i = 0; i < codes.length; i++) {
        const k = codes[i];
        decoded[i] = k === null || k === undefined ? null : dictionary[k as number];
      }
      out[c.name] = decoded;
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
    const name = `staged_${++this.#tables}`;
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
    this.instance.closeSync();
  }
}
