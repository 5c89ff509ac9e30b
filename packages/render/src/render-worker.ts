/**
 * The render thread's entry (see render-thread.ts): loads what its work needs as soon as the thread
 * starts (the page's modules, its first render rehearsed; ExcelJS's writer), then does each piece of
 * work it is sent, one answer per piece: the page first (the PDF waits for it), then the workbook.
 * Only the built-in sections and templates are rendered here: other packages' sections hold
 * functions, which cannot cross to a thread.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { ReportModel } from '@orgreport/metrics';

/** What the thread loads at its start. */
export interface RenderThreadData {
  page: boolean;
  workbook: boolean;
}

/** One model's work: its page laid out (fonts still to fill in), its workbook written to a file. */
export interface RenderRequest {
  id: number;
  model: ReportModel;
  page?: boolean;
  workbook?: string;
}

/** A piece of a request's work. */
export type RenderPart = 'page' | 'workbook';

/** How a piece went: done (with the page, for a page), or the error it failed with. */
export type RenderAnswer =
  | { id: number; part: RenderPart; ok: true; page?: string }
  | { id: number; part: RenderPart; ok: false; error: { name: string; message: string; stack?: string } };

const port = parentPort;
if (!port) throw new Error('the render worker runs in a worker thread');
const preload = workerData as RenderThreadData;

const workbookModules = () => import('./workbook/workbook.ts');
// Loaded now, while the parent reads the month (the rehearsal loads the page's modules); a failure
// is the work's to report, below. The pages go back without fonts (the asking thread fills them
// in), so their cut is not rehearsed here.
if (preload.page) {
  import('./internal/rehearsal.ts').then((r) => r.rehearsePage({ fonts: false })).catch(() => {});
}
if (preload.workbook) workbookModules().catch(() => {});

/** Runs `work` and answers for `part`, done or failed; resolves either way. */
async function piece(id: number, part: RenderPart, work: () => Promise<string | undefined>): Promise<void> {
  let answer: RenderAnswer;
  try {
    const page = await work();
    answer = { id, part, ok: true, ...(page !== undefined && { page }) };
  } catch (error) {
    const { name, message, stack } =
      error instanceof Error ? error : { name: 'Error', message: String(error), stack: undefined };
    answer = { id, part, ok: false, error: { name, message, ...(stack && { stack }) } };
  }
  port!.postMessage(answer);
}

async function serve(request: RenderRequest): Promise<void> {
  const { id, model } = request;
  if (request.page) await piece(id, 'page', async () => (await import('./html.ts')).renderHtmlPage(model));
  if (request.workbook !== undefined) {
    const file = request.workbook;
    await piece(id, 'workbook', async () => {
      await (await workbookModules()).writeWorkbook(model, file);
      return undefined;
    });
  }
}

// One request after the other: a request's pieces come in the order the PDF needs them.
let queue = Promise.resolve();
port.on('message', (request: RenderRequest) => {
  queue = queue.then(() => serve(request));
});
