/**
 * The two sheets every workbook ends with, whatever its sections: `Rates`, the prices its money
 * columns are computed at (per credit, per seat, and their currency), and `Notes`, one row per note
 * on a sheet (`sheet`, `note`): what would otherwise be written under a table, where it would break
 * the table's rows. Both are tables that stack like the others.
 */
import type { ReportModel } from '@orgreport/metrics';
import type { WorkbookColumn } from './table-columns.ts';

/** Names of the writer's own sheets (their tables are `tbl_rates` and `tbl_notes`). */
export const RATES_SHEET = 'Rates';
export const NOTES_SHEET = 'Notes';

/** One price of the Rates sheet. */
export interface RateRow {
  rate: 'price_per_credit' | 'price_per_seat';
  price: number | null;
  currency: string | null;
  label: string;
}

/** One note of the Notes sheet: the sheet it is about, and what it says. */
export interface NoteRow {
  sheet: string;
  note: string;
}

/** Prices as small as a credit's (0.000004) shown in full, at least to the cent. */
const PRICE_FORMAT = '#,##0.00##########';

/**
 * The price of a seat for the month, where the model holds it: `pricing.pricePerSeat` when the
 * model carries it, else the chargeback section's (the option `pricePerSeat` reaches the model
 * only through it); null when neither has one.
 */
export function seatPrice(model: ReportModel): number | null {
  const pricing = model.pricing as { pricePerSeat?: unknown } | null;
  const chargeback = model.sections?.chargeback as { pricePerSeat?: unknown } | null | undefined;
  const price = pricing?.pricePerSeat ?? chargeback?.pricePerSeat;
  return typeof price === 'number' && Number.isFinite(price) ? price : null;
}

/**
 * The Rates sheet's rows: always both prices, empty where none is configured; `currency` is the one
 * the workbook's money columns are shown in.
 */
export function rateRows(model: ReportModel, pricePerCredit: number | null, currency: string): RateRow[] {
  const perSeat = seatPrice(model);
  return [
    {
      rate: 'price_per_credit',
      price: pricePerCredit,
      currency: pricePerCredit === null ? null : currency,
      label:
        "Price of one credit: the organization's credit cost is its credits x this price, to the cent; each row's is its share of that in whole cents (largest remainder), so the rows add up to the bill and one may differ by a cent from its own credits x price",
    },
    {
      rate: 'price_per_seat',
      price: perSeat,
      currency: perSeat === null ? null : currency,
      label:
        'Price of one seat for the month: the seat cost is seats x this price, shared out in whole cents as the credit cost is',
    },
  ];
}

export const RATE_COLUMNS: WorkbookColumn<RateRow>[] = [
  { header: 'rate', kind: 'text', value: (r) => r.rate },
  { header: 'price', kind: 'decimal', numFmt: PRICE_FORMAT, value: (r) => r.price },
  { header: 'currency', kind: 'text', value: (r) => r.currency },
  { header: 'label', kind: 'text', value: (r) => r.label },
];

export const NOTE_COLUMNS: WorkbookColumn<NoteRow>[] = [
  { header: 'sheet', kind: 'text', value: (r) => r.sheet },
  { header: 'note', kind: 'text', value: (r) => r.note },
];
