/**
 * The DuckDB reference of the compute floor: the user-day columns appended into an in-memory
 * DuckDB table (timed as "load"), then the aggregations of aggregations.ts for every span (timed
 * as "query", results read back into JS).
 */

import {
  DOUBLE,
  DuckDBDataChunk,
  DuckDBInstance,
  type DuckDBType,
  type DuckDBValue,
  VARCHAR,
} from '@duckdb/node-api';
import type { DayRange, UserDayColumns } from '@orgreport/api-core';
import {
  AGGREGATIONS,
  type Digests,
  digestOfRows,
  duckdbQueries,
  SUMMED_COLUMNS,
  sumDigests,
} from './aggregations.ts';

/** DuckDB's vector size: a data chunk holds at most this many rows. */
const CHUNK_ROWS = 2048;

const TEXT_COLUMNS = ['user_id', 'date', 'primary_model', 'delegation_level'] as const;

export interface DuckdbFloor {
  loadMs: number;
  queryMs: number;
  digests: Digests;
}

/** Runs the DuckDB reference on the columns for the spans. */
export async function duckdbFloor(columns: UserDayColumns, spans: readonly DayRange[]): Promise<DuckdbFloor> {
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  try {
    const names = [...TEXT_COLUMNS, ...SUMMED_COLUMNS];
    const types: DuckDBType[] = [...TEXT_COLUMNS.map(() => VARCHAR), ...SUMMED_COLUMNS.map(() => DOUBLE)];
    await connection.run(
      `CREATE TABLE user_days (${names.map((c, i) => `${c} ${i < TEXT_COLUMNS.length ? 'VARCHAR' : 'DOUBLE'}`).join(', ')})`,
    );
    const loadStarted = performance.now();
    const appender = await connection.createAppender('user_days');
    const n = columns.user_id.length;
    const source = names.map((c) => columns[c] as ReadonlyArray<DuckDBValue>);
    for (let from = 0; from < n; from += CHUNK_ROWS) {
      const to = Math.min(n, from + CHUNK_ROWS);
      const chunk = DuckDBDataChunk.create(types, to - from);
      chunk.setColumns(source.map((col) => col.slice(from, to)));
      appender.appendDataChunk(chunk);
    }
    appender.closeSync();
    const loadMs = performance.now() - loadStarted;

    const queryStarted = performance.now();
    const results: Array<Record<string, DuckDBValue[][]>> = [];
    for (const span of spans) {
      const queries = duckdbQueries(span);
      const out: Record<string, DuckDBValue[][]> = {};
      for (const name of AGGREGATIONS) out[name] = (await connection.runAndReadAll(queries[name])).getRows();
      results.push(out);
    }
    const queryMs = performance.now() - queryStarted;
    const digests = sumDigests(
      results.map((r) => Object.fromEntries(AGGREGATIONS.map((k) => [k, digestOfRows(r[k]!)])) as Digests),
    );
    return { loadMs, queryMs, digests };
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}
