/**
 * Reading a table from a workbook someone else made (a limits file, a people directory): the header
 * row and the rows under it as plain values, whatever ExcelJS wraps them in.
 */
import ExcelJS from 'exceljs';

/** A cell as a plain value. */
export type PlainCell = number | string | boolean | null;

/** A sheet's table: its header (row 1) and each row under it with its row number. */
export interface WorkbookTable {
  sheet: string;
  header: string[];
  rows: Array<{ row: number; cells: PlainCell[] }>;
}

/** Unwraps ExcelJS cell values (formulas, rich text, hyperlinks, dates) to plain values. */
function plain(value: ExcelJS.CellValue): PlainCell {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number' || typeof value === 'string' || typeof value === 'boolean') return value;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object') {
    if ('result' in value) return plain((value as ExcelJS.CellFormulaValue).result as ExcelJS.CellValue);
    if ('richText' in value) return value.richText.map((t) => t.text).join('');
    if ('text' in value) return plain((value as ExcelJS.CellHyperlinkValue).text);
    if ('error' in value) return String(value.error);
  }
  return null;
}

/**
 * The table of the sheet `preferred` (else the first sheet) of the workbook `file`: row 1 is the
 * header; rows with no value at all are skipped.
 */
export async function readWorkbookTable(file: string, preferred?: string): Promise<WorkbookTable> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile(file);
  const sheet = (preferred && workbook.getWorksheet(preferred)) || workbook.worksheets[0];
  if (!sheet) throw new Error(`${file}: the workbook has no sheet`);
  const header: string[] = [];
  sheet.getRow(1).eachCell({ includeEmpty: true }, (cell, col) => {
    header[col - 1] = String(plain(cell.value) ?? '');
  });
  const rows: WorkbookTable['rows'] = [];
  sheet.eachRow((row, number) => {
    if (number === 1) return;
    const cells: PlainCell[] = [];
    row.eachCell({ includeEmpty: true }, (cell, col) => {
      cells[col - 1] = plain(cell.value);
    });
    if (cells.every((c) => c === null || c === '' || c === undefined)) return;
    rows.push({ row: number, cells: Array.from(cells, (c) => c ?? null) });
  });
  return { sheet: sheet.name, header: Array.from(header, (h) => h ?? ''), rows };
}
