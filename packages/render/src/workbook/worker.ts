/**
 * The workbook thread's entry (see thread.ts): loads ExcelJS as soon as the thread starts, then writes
 * each workbook it is sent, one answer per request. Only the built-in sections' sheets are written
 * here: other packages' sections hold functions, which cannot cross to a thread.
 */
import { parentPort } from 'node:worker_threads';
import type { ReportModel } from '@orgreport/metrics';
import { writeWorkbook } from './workbook.ts';

/** A workbook to write. */
export interface WorkbookRequest {
  id: number;
  model: ReportModel;
  file: string;
}

/** How a request went: done, or the error it failed with. */
export type WorkbookAnswer =
  | { id: number; ok: true }
  | { id: number; ok: false; error: { name: string; message: string; stack?: string } };

const port = parentPort;
if (!port) throw new Error('the workbook worker runs in a worker thread');
port.on('message', (request: WorkbookRequest) => {
  writeWorkbook(request.model, request.file).then(
    () => port.postMessage({ id: request.id, ok: true } satisfies WorkbookAnswer),
    (error: unknown) => {
      const { name, message, stack } =
        error instanceof Error ? error : { name: 'Error', message: String(error), stack: undefined };
      port.postMessage({
        id: request.id,
        ok: false,
        error: { name, message, ...(stack && { stack }) },
      } satisfies WorkbookAnswer);
    },
  );
});
