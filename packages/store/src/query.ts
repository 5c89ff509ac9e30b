/**
 * SQL over a store: every dataset is a view of the same name over its Parquet files (Hive
 * partitioning, so `org_id` and `month` are columns too), in an in-memory DuckDB.
 */
import { JsonDuckDBValueConverter, StatementType } from '@duckdb/node-api';
import { allPartitionFiles, engineRead } from './damage.ts';
import { Engine, sqlName, sqlString } from './engine.ts';
import { DamagedStoreError, StoreQueryError } from './errors.ts';
import { entries } from './files.ts';
import type { StoreLayout } from './layout.ts';
import { DATASETS, type DatasetSpec } from './schema.ts';
import { readStates } from './state.ts';
import { openStore } from './store-file.ts';

/** A query's result: column names and DuckDB types, rows of JSON values (dates and times as text). */
export interface QueryResult {
  columns: string[];
  types: string[];
  /** The rows, the first `maxRows` of them when the query gave more. */
  rows: unknown[][];
  /** How many rows the query gave (more than `rows` holds when they were cut at `maxRows`). */
  rowCount: number;
}

/** Options of {@link StoreQuery.run}. */
export interface StoreQueryOptions {
  /**
   * Rows kept at most; the others are counted, never converted or held (a `SELECT *` over a
   * 100,000-person store gives millions of rows). Default: every row.
   */
  maxRows?: number;
}

/** DuckDB's kinds of error that refuse a statement before it reads anything. */
const REFUSED = /^(Parser|Binder|Catalog) Error/;

/** Whether a dataset has at least one partition file, any organization. */
async function hasFiles(layout: StoreLayout, dataset: string): Promise<boolean> {
  for (const org of await entries(layout.datasetDir(dataset))) {
    for (const month of await entries(`${layout.datasetDir(dataset)}/${org}`)) {
      if (
        (await entries(`${layout.datasetDir(dataset)}/${org}/${month}`)).some((f) =>
          /^part-.*\.parquet$/.test(f),
        )
      )
        return true;
    }
  }
  return false;
}

/** The view of a dataset: its files, or an empty relation of the same columns when it has none yet. */
function viewSql(layout: StoreLayout, spec: DatasetSpec, withFiles: boolean): string {
  const name = sqlName(spec.name);
  if (withFiles) {
    return `CREATE VIEW ${name} AS SELECT * FROM read_parquet(${sqlString(layout.datasetGlob(spec.name))}, hive_partitioning = true, hive_types = {'org_id': VARCHAR, 'month': VARCHAR})`;
  }
  const columns = [
    ...spec.columns.map((c) => `CAST(NULL AS ${c.type}) AS ${sqlName(c.name)}`),
    'CAST(NULL AS VARCHAR) AS org_id',
    'CAST(NULL AS VARCHAR) AS month',
  ];
  return `CREATE VIEW ${name} AS SELECT ${columns.join(', ')} WHERE false`;
}

/** SQL over one store; `close` when done. */
export class StoreQuery {
  private constructor(
    private readonly engine: Engine,
    private readonly layout: StoreLayout,
  ) {}

  /**
   * Opens the store in `root` for queries (a folder that is not a store is a {@link StoreError}).
   *
   * @example
   * const q = await StoreQuery.open('/srv/store');
   * const { rows } = await q.run('SELECT month, sum(billable_tokens) FROM user_days GROUP BY ALL ORDER BY 1');
   * q.close();
   */
  static async open(root: string): Promise<StoreQuery> {
    const layout = await openStore(root);
    if (layout.remote) {
      // A query may read any partition: a store in object storage has them all fetched first.
      await readStates(layout);
      await layout.remote.ensureAll();
    }
    const engine = await Engine.open();
    try {
      // A view reads the footer of a file of its dataset when it is made.
      for (const spec of DATASETS) {
        await engineRead(
          layout,
          () => allPartitionFiles(layout),
          async () => engine.run(viewSql(layout, spec, await hasFiles(layout, spec.name))),
        );
      }
    } catch (error) {
      engine.close();
      throw error;
    }
    return new StoreQuery(engine, layout);
  }

  /**
   * Runs `sql`; DuckDB's refusals (syntax, unknown table or column) become {@link StoreQueryError},
   * a failure over a damaged partition a {@link DamagedStoreError}.
   */
  async run(sql: string, options: StoreQueryOptions = {}): Promise<QueryResult> {
    try {
      return await this.read(sql, options.maxRows ?? Number.POSITIVE_INFINITY);
    } catch (error) {
      if (error instanceof StoreQueryError) throw error;
      // The binding's wording of a statement it could not split, whose reason follows.
      const message = (error as Error).message.replace(/^Failed to extract statements: /, '');
      // The SQL itself was refused before any file was read: no file to look at.
      // Its message is DuckDB's whole (a cause would repeat it under the binding's wording).
      if (REFUSED.test(message)) throw new StoreQueryError(message);
      const found = await engineRead(
        this.layout,
        () => allPartitionFiles(this.layout),
        () => Promise.reject(error),
      ).catch((e: unknown) => e);
      if (found instanceof DamagedStoreError) throw found;
      throw new StoreQueryError(message, { cause: error });
    }
  }

  /**
   * The result of `sql`, read chunk by chunk: the first `maxRows` rows converted, the rest counted.
   * One statement that reads (a query, or its plan): a second one would be run unseen, and a
   * statement that writes (COPY ... TO a file, ATTACH, INSERT) is not what reading a store is.
   */
  private async read(sql: string, maxRows: number): Promise<QueryResult> {
    const statements = await this.engine.connection.extractStatements(sql);
    if (statements.count !== 1) {
      throw new StoreQueryError(
        statements.count === 0
          ? 'the SQL holds no statement: give a query, such as SELECT * FROM user_days LIMIT 5'
          : `the SQL holds ${statements.count} statements: give one query at a time`,
      );
    }
    const statement = await statements.prepare(0);
    if (
      statement.statementType !== StatementType.SELECT &&
      statement.statementType !== StatementType.EXPLAIN
    ) {
      throw new StoreQueryError(
        `only a query that reads runs here (SELECT, WITH, FROM, DESCRIBE, SHOW, SUMMARIZE, EXPLAIN): this statement is ${StatementType[statement.statementType] ?? 'another kind'}, which writes or changes something`,
      );
    }
    const result = await statement.stream();
    const types = result.columnTypes().map((t) => t.toString());
    // DuckDB hands 64- and 128-bit integers (counts, sums of integers) over as text; within the
    // safe range they are plain numbers.
    const wide = types.map((t) => /^(U?BIGINT|U?HUGEINT)$/.test(t));
    const rows: unknown[][] = [];
    let rowCount = 0;
    for (
      let chunk = await result.fetchChunk();
      chunk && chunk.rowCount > 0;
      chunk = await result.fetchChunk()
    ) {
      rowCount += chunk.rowCount;
      if (rows.length >= maxRows) continue;
      for (const row of chunk.convertRows(JsonDuckDBValueConverter)) {
        if (rows.length >= maxRows) break;
        rows.push(
          row.map((v, i) =>
            wide[i] && typeof v === 'string' && Number.isSafeInteger(Number(v)) ? Number(v) : v,
          ),
        );
      }
    }
    return { columns: result.columnNames(), types, rows, rowCount };
  }

  close(): void {
    this.engine.close();
  }
}
