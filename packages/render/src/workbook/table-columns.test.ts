import type { SheetColumn } from '@orgreport/metrics';
import { describe, expect, it } from 'vitest';
import { makeFixtureModel } from '../__fixtures__/report-model.ts';
import { omittedNote, tableColumns } from './table-columns.ts';

type Row = { id: string; limit: number | null; note: string | null };
const columns: SheetColumn<Row>[] = [
  { header: 'id', kind: 'text', value: (r) => r.id },
  { header: 'limit', kind: 'integer', value: (r) => r.limit, emptyReason: 'no limits were given' },
  { header: 'note', kind: 'text', value: (r) => r.note },
  { header: 'org_id', kind: 'text', value: (r) => r.id },
];
const model = makeFixtureModel();

describe('tableColumns', () => {
  it('puts org_id and month first and leaves out columns without a value (NaN and "" are none)', () => {
    const rows: Row[] = [
      { id: 'a', limit: Number.NaN, note: '' },
      { id: 'b', limit: null, note: null },
    ];
    const { columns: kept, omitted } = tableColumns(model, columns, rows);
    expect(kept.map((c) => c.header)).toEqual(['org_id', 'month', 'id', 'org_id_2']);
    expect(kept.map((c) => c.value(rows[1]!))).toEqual([model.organization.id, model.period.month, 'b', 'b']);
    expect(omitted).toEqual([
      { header: 'limit', reason: 'no limits were given' },
      { header: 'note', reason: null },
    ]);
    expect(omittedNote(omitted)).toBe(
      'Columns left out, as no row has a value in them: limit (no limits were given); note.',
    );
  });

  it('keeps a column with one value, and every column of a table without rows', () => {
    const one = tableColumns(model, columns, [{ id: 'a', limit: 0, note: null }]);
    expect(one.columns.map((c) => c.header)).toEqual(['org_id', 'month', 'id', 'limit', 'org_id_2']);
    const none = tableColumns(model, columns, []);
    expect(none.columns).toHaveLength(6);
    expect(none.omitted).toEqual([]);
    expect(omittedNote([])).toBeNull();
  });
});
