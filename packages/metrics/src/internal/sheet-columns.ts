/**
 * Column helpers of the built-in sections' workbook sheets. Headers are the field names of
 * docs/metrics.md and the model, so a finance analyst can match them to the definitions.
 */
import type { ReportModel } from '../model.ts';
import type { SheetColumn, SheetColumnKind } from '../section.ts';

/** A column read straight from a field of the row, headed by the field's name. */
export function field<Row, K extends keyof Row & string>(
  key: K,
  kind: SheetColumnKind,
  header: string = key,
): SheetColumn<Row> {
  return { header, kind, value: (row) => row[key] };
}

/** The cost column of a sheet: only when the model has a price per credit. */
export function costColumn<Row>(model: ReportModel, credits: (row: Row) => number): SheetColumn<Row>[] {
  const price = model.pricing?.pricePerCredit ?? null;
  if (price === null) return [];
  return [{ header: 'cost', kind: 'currency', value: (row) => credits(row) * price }];
}
