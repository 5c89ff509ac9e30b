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

/**
 * The credit-cost column of a sheet (`credit_cost`: credits only, at the price per credit, in whole
 * cents): in every workbook, empty where no price is configured, so that workbooks stack.
 */
export function costColumn<Row>(model: ReportModel, credits: (row: Row) => number): SheetColumn<Row>[] {
  const price = model.pricing?.pricePerCredit ?? null;
  return [
    {
      header: 'credit_cost',
      kind: 'currency',
      value: (row) => (price === null ? null : Math.round(credits(row) * price * 100) / 100),
      emptyReason: 'no price per credit is configured',
    },
  ];
}
