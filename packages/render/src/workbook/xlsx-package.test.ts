import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, describe, expect, it } from 'vitest';
import { readWithOpenpyxl, records } from '../__fixtures__/openpyxl.ts';
import { quotePrefixTextFormats, tableRef, XlsxPackage } from './xlsx-package.ts';

const scratch = mkdtempSync(join(tmpdir(), 'render-xlsx-package-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('XlsxPackage', () => {
  it('adds tables, the quotePrefix of text-format cells, carriage returns and the company to the streaming writer', async () => {
    const file = join(scratch, 'package.xlsx');
    const xlsx = new XlsxPackage(file);
    xlsx.company = 'Acme & <Co>';
    const plain = xlsx.workbook.addWorksheet('Plain');
    plain.addRow(['a', 'b']).commit();
    plain.addRow(['=1+1', '\r=2']).commit();
    const linked = xlsx.workbook.addWorksheet('Linked');
    linked.addRow(['name', 'link']).commit();
    // A hyperlink makes ExcelJS write the sheet's relationships itself: the table's must join them.
    const row = linked.addRow(['x', { text: 'site', hyperlink: 'https://example.com/' }]);
    row.commit();
    xlsx.addTable(linked, { name: 'tbl_linked', columns: ['name', 'link'], rows: 1 });
    const text = xlsx.workbook.addWorksheet('Text');
    text.addRow(['value']).commit();
    const inert = text.addRow(['=SUM(1)']);
    inert.getCell(1).numFmt = '@'; // the text format
    inert.commit();
    text.addRow(['\r=CR']).commit();
    xlsx.addTable(text, { name: 'tbl_text', columns: ['value'], rows: 2 });
    await plain.commit();
    await xlsx.commit();

    const [p, l, t] = readWithOpenpyxl(file);
    expect(p!.tables).toEqual({});
    expect(l!.tables).toEqual({ tbl_linked: 'A1:B2' });
    expect(t!.tables).toEqual({ tbl_text: 'A1:A3' });
    const [sum, cr] = records(t!);
    expect(sum!.value).toMatchObject({ value: '=SUM(1)', type: 's', format: '@', quotePrefix: true });
    expect(cr!.value).toMatchObject({ value: '\r=CR', type: 's', quotePrefix: false });

    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile(file);
    expect(book.company).toBe('Acme & <Co>');
    expect(book.getWorksheet('Linked')!.getCell('B2').hyperlink).toBe('https://example.com/');
    const tables = book.getWorksheet('Text')!.getTables() as unknown as Array<{ table: { name: string } }>;
    expect(tables.map((x) => x.table.name)).toEqual(['tbl_text']);
  });

  it('spans an empty table over one empty row, as Excel does', () => {
    expect(tableRef({ name: 't', columns: ['a', 'b', 'c'], rows: 0 })).toBe('A1:C2');
    expect(tableRef({ name: 't', columns: ['a'], rows: 30 })).toBe('A1:A31');
  });

  it('marks only the cell formats in the text format', () => {
    const styles =
      '<cellStyleXfs count="1"><xf numFmtId="49" fontId="0"/></cellStyleXfs>' +
      '<cellXfs count="3"><xf numFmtId="0" fontId="0"/><xf numFmtId="49" fontId="1"/><xf numFmtId="490" fontId="0"/></cellXfs>';
    expect(quotePrefixTextFormats(styles)).toBe(
      '<cellStyleXfs count="1"><xf numFmtId="49" fontId="0"/></cellStyleXfs>' +
        '<cellXfs count="3"><xf numFmtId="0" fontId="0"/><xf numFmtId="49" quotePrefix="1" fontId="1"/><xf numFmtId="490" fontId="0"/></cellXfs>',
    );
  });
});
