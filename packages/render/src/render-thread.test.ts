import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, describe, expect, it } from 'vitest';
import { makeFixtureModel } from './__fixtures__/report-model.ts';
import { renderHtmlPage } from './html.ts';
import { startRenderThread } from './render-thread.ts';
import { writeWorkbook } from './workbook/workbook.ts';

const scratch = mkdtempSync(join(tmpdir(), 'render-xlsx-thread-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Every sheet's name, table names and cell values (with their number formats), read back by ExcelJS. */
async function contents(file: string): Promise<unknown> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.readFile(file);
  return {
    title: book.title,
    created: book.created,
    sheets: book.worksheets.map((sheet) => {
      const rows: unknown[] = [];
      sheet.eachRow({ includeEmpty: true }, (row) => {
        const cells: unknown[] = [];
        row.eachCell({ includeEmpty: true }, (cell) => cells.push([cell.value, cell.numFmt ?? null]));
        rows.push(cells);
      });
      const tables = (sheet as unknown as { tables?: Record<string, unknown> }).tables ?? {};
      return { name: sheet.name, tables: Object.keys(tables), rows };
    }),
  };
}

describe('the render thread', () => {
  it('writes the workbook writeWorkbook writes on this thread, one request after the other', async () => {
    const model = makeFixtureModel({ users: 40 });
    const here = join(scratch, 'here.xlsx');
    await writeWorkbook(model, here);
    const thread = startRenderThread();
    try {
      const [first, second] = [join(scratch, 'thread-1.xlsx'), join(scratch, 'thread-2.xlsx')];
      await Promise.all([thread.write(model, first), thread.write(model, second)]);
      const expected = await contents(here);
      expect((expected as { sheets: unknown[] }).sheets.length).toBeGreaterThan(10);
      expect(await contents(first)).toEqual(expected);
      expect(await contents(second)).toEqual(expected);
    } finally {
      await thread.close();
    }
  }, 60_000);

  it('lays out the page this thread lays out and writes the workbook, from one copy of the model', async () => {
    const model = makeFixtureModel({ users: 40 });
    const thread = startRenderThread({ page: true, workbook: false });
    try {
      const file = join(scratch, 'with-page.xlsx');
      const results = thread.render(model, { page: true, workbook: file });
      const [page] = await Promise.all([results.page, results.workbook]);
      expect(page).toBe(renderHtmlPage(model));
      expect(page).toContain(model.organization.name);
      expect(await contents(file)).toEqual(await contents(await writtenHere(file, model)));
      // Only what is asked for is done.
      expect(Object.keys(thread.render(model, { page: true }))).toEqual(['page']);
    } finally {
      await thread.close();
    }
  }, 60_000);

  it("rejects a write that fails with the writer's message, and writes the next one", async () => {
    const thread = startRenderThread();
    try {
      await expect(
        thread.write(makeFixtureModel(), join(scratch, 'no-such-folder', 'report.xlsx')),
      ).rejects.toThrow(/ENOENT.*no-such-folder/);
      const file = join(scratch, 'after-failure.xlsx');
      await thread.write(makeFixtureModel(), file);
      expect(await contents(file)).toEqual(await contents(await writtenHere(file)));
    } finally {
      await thread.close();
    }
  }, 60_000);

  it('refuses writes once closed', async () => {
    const thread = startRenderThread();
    await thread.close();
    await thread.close(); // a second close is harmless
    await expect(thread.write(makeFixtureModel(), join(scratch, 'closed.xlsx'))).rejects.toThrow(
      /render thread stopped/,
    );
  });
});

/** The same model's workbook written on this thread beside `file`. */
async function writtenHere(file: string, model = makeFixtureModel()): Promise<string> {
  const here = file.replace(/\.xlsx$/, '-here.xlsx');
  await writeWorkbook(model, here);
  return here;
}
