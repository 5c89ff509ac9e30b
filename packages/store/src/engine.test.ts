import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Engine } from './engine.ts';
import type { ColumnSpec } from './schema.ts';

const COLUMNS: ColumnSpec[] = [
  { name: 'user_id', type: 'VARCHAR', doc: '' },
  { name: 'date', type: 'DATE', doc: '' },
  { name: 'n', type: 'DOUBLE', doc: '' },
  { name: 'k', type: 'INTEGER', doc: '' },
  { name: 'langs', type: 'VARCHAR[]', doc: '' },
];

let engine: Engine;
beforeEach(async () => {
  engine = await Engine.open();
  await engine.run('CREATE TABLE t (user_id VARCHAR, date DATE, n DOUBLE, k INTEGER, langs VARCHAR[])');
});
afterEach(() => engine.close());

describe('Engine.encodedColumns', () => {
  it('gives every value back, nulls and all, in order', async () => {
    await engine.run(`INSERT INTO t VALUES
      ('b', DATE '2026-10-02', 1.5, 7, ['Go', 'Rust']),
      ('a', DATE '2026-10-01', NULL, NULL, []),
      ('b', DATE '2026-09-30', 2.25, -3, NULL),
      (NULL, NULL, 0, 0, ['Go']),
      ('a' || chr(0) || 'z', DATE '1999-12-31', -0.5, 1, ['Go', 'Rust'])`);
    const { columns: c } = await engine.encodedColumns(COLUMNS, 't WHERE true', 'user_id, date');
    expect(c).toEqual({
      user_id: ['a', 'a\u0000z', 'b', 'b', null],
      date: ['2026-10-01', '1999-12-31', '2026-09-30', '2026-10-02', null],
      n: [null, -0.5, 2.25, 1.5, 0],
      k: [null, 1, -3, 7, 0],
      langs: [[], ['Go', 'Rust'], null, ['Go', 'Rust'], ['Go']],
    });
  });

  it('reads the nulls of a column past its first 64 rows and past its first chunk', async () => {
    await engine.run(
      `INSERT INTO t SELECT 'u' || (i % 7), DATE '2026-01-01' + CAST(i % 300 AS INTEGER), CASE WHEN i % 5 = 0 THEN NULL ELSE i / 4 END, CASE WHEN i % 3 = 0 THEN NULL ELSE i END, NULL FROM range(5000) r(i)`,
    );
    const { columns: c } = await engine.encodedColumns(COLUMNS, 't WHERE true', 'k');
    const k = c.k as Array<number | null>;
    const n = c.n as Array<number | null>;
    expect(k.filter((v) => v === null)).toHaveLength(1667);
    const rows = k.map((v, i) => [v, n[i]] as const).filter(([v]) => v !== null);
    expect(rows.map(([v]) => v)).toEqual([...Array(5000).keys()].filter((i) => i % 3 !== 0));
    expect(rows.map(([, v]) => v)).toEqual(
      rows.map(([i]) => ((i as number) % 5 === 0 ? null : (i as number) / 4)),
    );
  });

  it('gives empty columns without rows', async () => {
    const { columns: c } = await engine.encodedColumns(COLUMNS, 't WHERE true', 'user_id');
    expect(c).toEqual({ user_id: [], date: [], n: [], k: [], langs: [] });
  });

  it('gives a number column without a null as a typed array, and one whose first null comes past a chunk as every value', async () => {
    // 5,000 rows: three chunks of DuckDB's 2,048. `n` has its only null in the third chunk.
    await engine.run(
      `INSERT INTO t SELECT 'u' || (i % 7), DATE '2026-01-01' + CAST(i % 300 AS INTEGER), CASE WHEN i = 4500 THEN NULL ELSE i / 4 END, i, ['Go'] FROM range(5000) r(i)`,
    );
    const { columns: c } = await engine.encodedColumns(COLUMNS, 't WHERE true', 'k');
    expect(c.k).toBeInstanceOf(Int32Array);
    expect(Array.from(c.k!)).toEqual([...Array(5000).keys()]);
    expect(Array.isArray(c.n)).toBe(true);
    expect(Array.from(c.n!)).toEqual([...Array(5000).keys()].map((i) => (i === 4500 ? null : i / 4)));
  });

  it('gives a number column of whole numbers within 32 bits as an Int32Array, any other as it is', async () => {
    const spec: ColumnSpec[] = ['counts', 'fractions', 'large', 'negative'].map((name) => ({
      name,
      type: 'DOUBLE',
      doc: '',
    }));
    await engine.run('CREATE TABLE d (counts DOUBLE, fractions DOUBLE, large DOUBLE, negative DOUBLE)');
    await engine.run(
      'INSERT INTO d VALUES (0, 0, 0, -2147483647), (3, 1.5, 2147483648, -5), (NULL, 2, 1, NULL), (7, 3, 2, 0)',
    );
    const { columns: c } = await engine.encodedColumns(spec, 'd WHERE true', 'counts');
    // counts and negative have a null: JS arrays; read again without the null row, typed.
    expect(c.counts).toEqual([0, 3, 7, null]);
    const { columns: whole } = await engine.encodedColumns(spec, 'd WHERE counts IS NOT NULL', 'counts');
    expect(whole.counts).toBeInstanceOf(Int32Array);
    expect(Array.from(whole.counts!)).toEqual([0, 3, 7]);
    expect(whole.negative).toBeInstanceOf(Int32Array);
    expect(Array.from(whole.negative!)).toEqual([-2147483647, -5, 0]);
    expect(whole.fractions).toBeInstanceOf(Float64Array);
    expect(Array.from(whole.fractions!)).toEqual([0, 1.5, 3]);
    expect(whole.large).toBeInstanceOf(Float64Array);
    expect(Array.from(whole.large!)).toEqual([0, 2147483648, 2]);
  });

  it('gives the codes the text, list and date columns were made from', async () => {
    await engine.run(`INSERT INTO t VALUES
      ('b', DATE '2026-10-02', 1, 1, ['Go', 'Rust']),
      ('a', DATE '1970-01-03', 2, 2, []),
      ('b', NULL, 3, 3, NULL),
      (NULL, DATE '2026-10-01', 4, 4, ['Go'])`);
    const { columns, codes } = await engine.encodedColumns(COLUMNS, 't WHERE true', 'k');
    for (const name of ['user_id', 'langs']) {
      const { codes: rowCodes, values } = codes[name]!;
      const joined = Array.from(rowCodes, (k) => (k === null ? null : values[k]));
      const back = Array.from(columns[name]!, (v) => (Array.isArray(v) ? v.join('\u0001') : v));
      expect(joined).toEqual(back);
    }
    expect(codes.user_id!.values).toEqual(['a', 'b']);
    expect(Array.from(codes.date!.codes)).toEqual([20_728, 2, null, 20_727]);
  });
});

describe('Engine.textRows', () => {
  const USERS: ColumnSpec[] = [
    { name: 'position', type: 'INTEGER', doc: '' },
    { name: 'as_of', type: 'DATE', doc: '' },
    { name: 'email', type: 'VARCHAR', doc: '' },
  ];

  beforeEach(async () => {
    await engine.run('CREATE TABLE u (position INTEGER, as_of DATE, email VARCHAR)');
  });

  it('gives the rows in order, null and empty text apart', async () => {
    await engine.run(`INSERT INTO u VALUES
      (2, DATE '2026-11-02', ''), (0, DATE '2026-11-01', 'a@example.com'), (1, NULL, NULL), (3, DATE '2026-11-03', 'é ü')`);
    expect(await engine.textRows(USERS, 'u WHERE true', 'position')).toEqual([
      { position: 0, as_of: '2026-11-01', email: 'a@example.com' },
      { position: 1, as_of: null, email: null },
      { position: 2, as_of: '2026-11-02', email: '' },
      { position: 3, as_of: '2026-11-03', email: 'é ü' },
    ]);
  });

  it('reads text holding its separators too', async () => {
    await engine.run(`INSERT INTO u VALUES (1, NULL, 'b' || chr(0) || 'c'), (0, NULL, 'a')`);
    expect(await engine.textRows(USERS, 'u WHERE true', 'position')).toEqual([
      { position: 0, as_of: null, email: 'a' },
      { position: 1, as_of: null, email: 'b\u0000c' },
    ]);
    await engine.run(`UPDATE u SET email = 'd' || chr(2) || 'e' WHERE position = 1`);
    expect((await engine.textRows(USERS, 'u WHERE true', 'position'))[1]?.email).toBe('d\u0002e');
  });

  it('gives no rows of an empty relation', async () => {
    expect(await engine.textRows(USERS, 'u WHERE true', 'position')).toEqual([]);
  });
});
