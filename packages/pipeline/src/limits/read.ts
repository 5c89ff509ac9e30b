/** Reading a credit-limits file (`.csv`, `.json` or `.xlsx`) into checked rows. */
import { readFile } from 'node:fs/promises';
import { UsageError } from '../errors.ts';
import { checkLimitRows, type ParsedLimits, parseLimitsText } from './parse.ts';

/** Reads a limits file of any supported kind; spreadsheets go through the renderer's workbook reader. */
export async function readLimitsFile(path: string, shown: string): Promise<ParsedLimits> {
  if (/\.xlsx$/i.test(path)) {
    const { readLimitsWorkbook } = await import('@orgreport/render');
    let rows: Awaited<ReturnType<typeof readLimitsWorkbook>>;
    try {
      rows = await readLimitsWorkbook(path);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      throw new UsageError(
        `${shown}: ${code === 'ENOENT' ? 'cannot be read (ENOENT)' : `not a readable limits workbook (${(error as Error).message})`}`,
      );
    }
    return checkLimitRows(rows.map((r) => ({ row: r.row, email: r.email, limit: r.limit })));
  }
  const text = await readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) => {
    throw new UsageError(`${shown}: cannot be read (${error.code})`);
  });
  return parseLimitsText(text, shown);
}
