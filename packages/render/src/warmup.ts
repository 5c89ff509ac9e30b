/**
 * `@orgreport/render/warmup`: rendering made ready while the month is still being fetched or read:
 * the formats' modules (ECharts and Handlebars for the page, ExcelJS for the workbook: each a few
 * hundred milliseconds to load) and, when a PDF is due, Chromium (about half a second to start).
 * Whoever starts a warm-up closes it, whatever happens.
 *
 * When a PDF is due, the warm-up loads what the PDF needs first (Puppeteer, then the page's modules).
 * When a page is due (PDF or HTML), its first render is then rehearsed (see internal/rehearsal.ts).
 * When the caller asks for the render thread (see render-thread.ts), the warm-up starts it for the
 * workbook or the page that is due, and the thread loads their modules (and rehearses the page)
 * instead of this one, which then only reads the month and computes the model meanwhile.
 */
import type { PdfRenderer, PdfRendererOptions } from './pdf.ts';
import { type RenderThread, startRenderThread } from './render-thread.ts';

export interface RenderWarmup {
  /** Loads the modules of every format of the warm-up (those already loading are awaited, not reloaded). */
  modules(): Promise<void>;
  /** Chromium (started with the warm-up when a PDF was due); awaiting it rethrows a failed start. */
  pdf(): Promise<PdfRenderer>;
  /**
   * The render thread, for `renderDocuments`: started with the warm-up when its work was due (see
   * {@link WarmupOptions}), else on first call.
   */
  thread(): RenderThread;
  /** Closes Chromium if it was started, once the PDF is printed; the render thread goes on. */
  closePdf(): Promise<void>;
  /**
   * Closes Chromium and the render thread if they were started (safe to call more than once); no
   * Chromium starts after it.
   */
  close(): Promise<void>;
}

/** The modules of the page (the HTML file and the PDF's page). */
const pageModules = () => import('./html.ts');
/**
 * The page's modules, then its first render rehearsed (internal/rehearsal.ts): ECharts' code warmed
 * up, the templates made functions, harfbuzz loaded, while the month is read rather than after.
 */
const preparePage = () => import('./internal/rehearsal.ts').then((r) => r.rehearsePage());
/** The modules of the workbook. */
const workbookModules = () => import('./workbook/workbook.ts');

/** Options of {@link warmUpRendering} beside Chromium's. */
export interface WarmupOptions {
  /**
   * When a workbook is due, start the render thread at once (see render-thread.ts), for a caller that
   * hands {@link RenderWarmup.thread} to `renderDocuments`; otherwise ExcelJS loads on this thread.
   */
  workbookThread?: boolean;
  /**
   * When a page is due (PDF or HTML), lay it out on the render thread too: for a caller that hands the
   * thread to `renderDocuments` and renders the built-in sections and templates (others' cannot cross
   * to a thread). The page's modules then load and rehearse there, not on this thread.
   */
  pageThread?: boolean;
}

/** Starts loading the renderer for `formats`, and Chromium when they include a PDF. */
export function warmUpRendering(
  formats: ReadonlySet<string>,
  pdfOptions: PdfRendererOptions = {},
  options: WarmupOptions = {},
): RenderWarmup {
  let pdf: Promise<PdfRenderer> | undefined;
  let thread: RenderThread | undefined;
  let closed = false;
  const page = formats.has('pdf') || formats.has('html');
  const workbook = formats.has('xlsx');
  const threadedWorkbook = workbook && options.workbookThread === true;
  const threadedPage = page && options.pageThread === true;
  const warmup: RenderWarmup = {
    async modules() {
      await Promise.all([page && pageModules(), workbook && workbookModules()]);
    },
    pdf() {
      // Closed for good (a run stopping): a render still under way must not start another Chromium.
      if (closed) return Promise.reject(new Error('the renderer was closed'));
      // Puppeteer alone: Chromium starts while the page's modules load.
      pdf ??= import('./pdf.ts').then((p) => p.createPdfRenderer(pdfOptions));
      return pdf;
    },
    thread() {
      thread ??= startRenderThread({ page: threadedPage, workbook: threadedWorkbook });
      return thread;
    },
    async closePdf() {
      const started = pdf;
      pdf = undefined;
      const renderer = await started?.catch(() => undefined);
      await renderer?.close();
    },
    async close() {
      closed = true;
      const writer = thread;
      thread = undefined;
      await Promise.all([warmup.closePdf(), writer?.close()]);
    },
  };
  // Failures surface where the results are awaited, not as unhandled rejections now. With a PDF due,
  // the workbook's modules wait for their first use here: Chromium's start and the page come first.
  if (formats.has('pdf')) warmup.pdf().catch(() => {});
  if (page && !threadedPage) preparePage().catch(() => {});
  if (workbook && !threadedWorkbook && !formats.has('pdf')) workbookModules().catch(() => {});
  if (threadedPage || threadedWorkbook) warmup.thread();
  return warmup;
}
