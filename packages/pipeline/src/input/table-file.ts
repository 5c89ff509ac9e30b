/**
 * Tables people hand the tool (credit limits, a people directory): a CSV, or a spreadsheet through
 * the renderer's workbook reader, as a header and numbered rows of text. Row numbers are where a
 * person finds the row: the CSV line or the spreadsheet row, the header being 1.
 */
import { readFile } from 'node:fs/promises';
import { parse } from 'csv-parse/sync';
import { UsageError } from '../errors.ts';

export interface TableFile {
  header: string[];
  rows: Array<{ row: number; cells: Array<string | number | boolean | null> }>;
}

/** Parses CSV text (a BOM, blank lines and ragged rows allowed; cells trimmed). */
export function parseCsvTable(text: string, source: string): TableFile {
  let records: Array<{ record: string[]; info: { lines: number } }>;
  try {
    records = parse(text, {
      bom: true,
      skip_empty_lines: true,
      relax_column_count: true,
      trim: true,
      info: true,
    }) as unknown as typeof records;
  } catch (error) {
    throw new UsageError(`${source}: not a readable CSV file (${(error as Error).message})`);
  }
  return {
    header: records[0]?.record ?? [],
    rows: records.slice(1).map(({ record, info }) => ({ row: info.lines, cells: record })),
  };
}

/** Reads a `.csv` or `.xlsx` table file; `shown` names it in messages. */
export async function readTableFile(path: string, shown: string): Promise<TableFile> {
  if (/\.xlsx$/i.test(path)) {
    const { readWorkbookTable } = await import('@orgreport/render');
    try {
      return await readWorkbookTable(path);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      throw new UsageError(
        `${shown}: ${code === 'ENOENT' ? 'cannot be read (ENOENT)' : `not a readable workbook (${(error as Error).message})`}`,
      );
    }
  }
  const text = await readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) => {
    throw new UsageError(`${shown}: cannot be read (${error.code})`);
  });
  return parseCsvTable(text, shown);
}
