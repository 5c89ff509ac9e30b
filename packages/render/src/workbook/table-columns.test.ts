import type { ReportModel, ReportScope, SheetColumn } from '@orgreport/metrics';
import { describe, expect, it } from 'vitest';
import { makeFixtureModel } from '../__fixtures__/report-model.ts';
import { emptyColumnsNote, scopeKey, tableColumns } from './table-columns.ts';

type Row = { id: string; limit: number | null; note: string | null };
const columns: SheetColumn<Row>[] = [
  { header: 'id', kind: 'text', value: (r) => r.id },
  { header: 'limit', kind: 'integer', value: (r) => r.limit, emptyReason: 'no limits were given' },
  { header: 'note', kind: 'text', value: (r) => r.note },
  { header: 'org_id', kind: 'text', value: (r) => r.id },
];
const model = makeFixtureModel();

/** The fixture model as the report of one scope. */
function scoped(kind: ReportScope['kind'], name: string): ReportModel {
  const scope: ReportScope = {
    kind,
    name,
    label: name,
    slug: name.toLowerCase(),
    people: 3,
    organizationSections: [],
    omittedSections: [],
    organizationOnly: [],
  };
  return { ...model, scope };
}

describe('tableColumns', () => {
  it('puts org_id, month (the first day of the month, shown yyyy-mm) and scope first and keeps every column', () => {
    const row: Row = { id: 'b', limit: null, note: null };
    const kept = tableColumns(model, columns);
    expect(kept.map((c) => c.header)).toEqual([
      'org_id',
      'month',
      'scope',
      'id',
      'limit',
      'note',
      'org_id_2',
    ]);
    expect(kept.map((c) => c.value(row))).toEqual([
      model.organization.id,
      '2026-03-01',
      'organization',
      'b',
      null,
      null,
      'b',
    ]);
    expect(kept.map((c) => c.kind).slice(0, 3)).toEqual(['text', 'date', 'text']);
    expect(kept[1]!.numFmt).toBe('yyyy-mm');
  });

  it("writes the scope's kind and name in the scope column of a scoped report, organization otherwise", () => {
    const row: Row = { id: 'b', limit: null, note: null };
    const scopeOf = (m: ReportModel) => tableColumns(m, columns)[2]!.value(row);
    expect(scopeOf(model)).toBe('organization');
    expect(scopeOf(scoped('cost-center', 'CC-300'))).toBe('cost-center:CC-300');
    expect(scopeKey(scoped('team', 'Platform'))).toBe('team:Platform');
    expect(scopeKey(scoped('manager', 'dana.lee@acme.test'))).toBe('manager:dana.lee@acme.test');
  });
});

describe('emptyColumnsNote', () => {
  it('names the columns without a value in any row, grouped by their reason', () => {
    const kept = tableColumns(model, columns);
    expect(emptyColumnsNote(kept, [true, true, true, true, false, false, true], 2)).toBe(
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
