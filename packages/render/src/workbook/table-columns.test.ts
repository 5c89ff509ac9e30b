import type { SheetColumn } from '@orgreport/metrics';
import { describe, expect, it } from 'vitest';
import { makeFixtureModel } from '../__fixtures__/report-model.ts';
import { emptyColumnsNote, tableColumns } from './table-columns.ts';

type Row = { id: string; limit: number | null; note: string | null };
const columns: SheetColumn<Row>[] = [
  { header: 'id', kind: 'text', value: (r) => r.id },
  { header: 'limit', kind: 'integer', value: (r) => r.limit, emptyReason: 'no limits were given' },
  { header: 'note', kind: 'text', value: (r) => r.note },
  { header: 'org_id', kind: 'text', value: (r) => r.id },
];
const model = makeFixtureModel();

describe('tableColumns', () => {
  it('puts org_id and month (the first day of the month, shown yyyy-mm) first and keeps every column', () => {
    const row: Row = { id: 'b', limit: null, note: null };
    const kept = tableColumns(model, columns);
    expect(kept.map((c) => c.header)).toEqual(['org_id', 'month', 'id', 'limit', 'note', 'org_id_2']);
    expect(kept.map((c) => c.value(row))).toEqual([
      model.organization.id,
      '2026-03-01',
      'b',
      null,
      null,
      'b',
    ]);
    expect(kept.map((c) => c.kind).slice(0, 2)).toEqual(['text', 'date']);
    expect(kept[1]!.numFmt).toBe('yyyy-mm');
  });
});

describe('emptyColumnsNote', () => {
  it('names the columns without a value in any row, grouped by their reason', () => {
    const kept = tableColumns(model, columns);
    expect(emptyColumnsNote(kept, [true, true, true, false, false, true], 2)).toBe(
      'No row has a value in: limit (no limits were given); note.',
    );
  });

  it('says nothing when every column has a value somewhere, or the table has no rows', () => {
    const kept = tableColumns(model, columns);
    expect(
      emptyColumnsNote(
        kept,
        kept.map(() => true),
        2,
      ),
    ).toBeNull();
    expect(
      emptyColumnsNote(
        kept,
        kept.map(() => false),
        0,
      ),
    ).toBeNull();
  });
});
