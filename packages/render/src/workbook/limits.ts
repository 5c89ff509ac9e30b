/**
 * The credit-limits workbook finance fills in: a template listing each user with the month's credits
 * and an empty `limit` column (e-mails and names as they are, formula-like ones inert by their cell
 * style), and a reader returning the raw `email` and `limit` of each row (the CLI validates them).
 */
import { EXCEL_FORMATS } from '../format.ts';
import { cellText, keepInert } from './cell-values.ts';
import { readWorkbookTable } from './read-table.ts';
import { XlsxPackage } from './xlsx-package.ts';

/** One user of the limits template. */
export interface LimitsTemplateRow {
  email: string;
  name?: string | null;
  credits: number;
}

/** One data row read back from a limits workbook. */
export interface LimitsWorkbookRow {
  /** Row number in the sheet (the header is row 1), for error messages. */
  row: number;
  /** The `email` cell as text ('' when empty). */
  email: string;
  /** The `limit` cell's value as found: number, string, boolean, null when empty. */
  limit: number | string | boolean | null;
}

/** Name of the sheet holding the limits. */
export const LIMITS_SHEET = 'Limits';

/**
 * What the template's Instructions sheet says, line by line: how to fill the limit column, and that
 * an empty limit leaves the user as they are (`limits apply` sends nothing for them).
 */
export function limitsInstructions(month: string): string[] {
  return [
    `Credit limits for ${month}.`,
    'Fill in the limit column of the Limits sheet with a whole number of credits (0 or more) for each user whose limit you want to set.',
    'Leave the limit empty to leave that user as they are: orgreport limits apply sends nothing for them and counts them as left.',
    'The API cannot remove a limit once it is set: an empty limit keeps the user\u2019s current limit, or none if they never had one.',
    'Do not rename the sheet or its headers.',
  ];
}

/** Writes the limits template for `month` to `file`. */
export async function writeLimitsTemplate(
  rows: ReadonlyArray<LimitsTemplateRow>,
  file: string,
  options: { month: string },
): Promise<void> {
  const xlsx = new XlsxPackage(file);
  const { workbook } = xlsx;
  workbook.creator = 'orgreport';
  workbook.lastModifiedBy = 'orgreport';
  workbook.title = `orgreport — credit limits — ${options.month}`;
  const sheet = workbook.addWorksheet(LIMITS_SHEET, { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = [
    { header: 'email', key: 'email', width: 36 },
    { header: 'name', key: 'name', width: 28 },
    {
      header: `credits_${options.month.replace(/[^0-9-]/g, '')}`,
      key: 'credits',
      width: 18,
      style: { numFmt: EXCEL_FORMATS.integer },
    },
    { header: 'limit', key: 'limit', width: 14, style: { numFmt: EXCEL_FORMATS.integer } },
  ];
  sheet.getRow(1).font = { bold: true };
  sheet.getRow(1).commit();
  for (const r of rows) {
    const row = sheet.addRow({
      email: cellText(r.email),
      name: cellText(r.name),
      credits: r.credits,
      limit: null,
    });
    keepInert(row.getCell(1));
    keepInert(row.getCell(2));
    row.commit();
  }
  sheet.autoFilter = `A1:D${rows.length + 1}`;
  await sheet.commit();
  const notes = workbook.addWorksheet('Instructions');
  notes.getColumn(1).width = 100;
  for (const line of limitsInstructions(options.month)) notes.addRow([line]).commit();
  await notes.commit();
  await xlsx.commit();
}

/** Reads the `email` and `limit` columns of a limits workbook (sheet `Limits`, else the first sheet). */
export async function readLimitsWorkbook(file: string): Promise<LimitsWorkbookRow[]> {
  const table = await readWorkbookTable(file, LIMITS_SHEET);
  const header = table.header.map((h) => h.trim().toLowerCase());
  const emailCol = header.indexOf('email');
  const limitCol = header.indexOf('limit');
  if (emailCol < 0 || limitCol < 0) {
    throw new Error(`${file}: sheet "${table.sheet}" needs the header columns "email" and "limit" in row 1`);
  }
  return table.rows.flatMap(({ row, cells }) => {
    const email = cells[emailCol] ?? null;
    const limit = cells[limitCol] ?? null;
    if ((email === null || email === '') && limit === null) return [];
    return [{ row, email: email === null ? '' : String(email).trim(), limit }];
  });
}
