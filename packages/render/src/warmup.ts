/**
 * `@orgreport/render/warmup`: rendering made ready while the month is still being fetched or read:
 * the formats' modules (ECharts and Handlebars for the page, ExcelJS for the workbook: each a few
 * hundred milliseconds to load) and, when a PDF is due, Chromium (about half a second to start).
 * Whoever starts a warm-up closes it, whatever happens.
 *
 * When a PDF is due, the warm-up loads what the PDF needs first (Puppeteer, then the page's modules).
 * When a page is due (PDF or HTML), its first render is then rehearsed (see internal/rehearsal.ts).
 * When a workbook is due and the caller asks for its thread, the warm-up starts that thread, which
 * loads ExcelJS at once and later writes the workbook there, beside this one (see workbook/thread.ts).
 */
import type { PdfRenderer, PdfRendererOptions } from './pdf.ts';
import { startWorkbookThread, type WorkbookThread } from './workbook/thread.ts';

export interface RenderWarmup {
  /** Loads the modules of every format of the warm-up (those already loading are awaited, not reloaded). */
  modules(): Promise<void>;
  /** Chromium (started with the warm-up when a PDF was due); awaiting it rethrows a failed start. */
  pdf(): Promise<PdfRenderer>;
  /**
   * The workbook's thread, for `renderDocuments`: started with the warm-up when a workbook was due and
   * {@link WarmupOptions.workbookThread} set, else on first call.
   */
  workbook(): WorkbookThread;
  /** Closes Chromium if it was started, once the PDF is printed; the workbook's thread goes on. */
  closePdf(): Promise<void>;
  /** Closes Chromium and the workbook's thread if they were started (safe to call more than once). */
  close(): Promise<void>;
}

/** The modules of the page (the HTML file and the PDF's page). */
const pageModules = () => import('./html.ts');
/**
 * The page's modules, then its first render rehearsed (internal/rehearsal.ts): ECharts' code warmed
 * up, the built-in templates parsed, harfbuzz loaded, while the month is read rather than after.
 */
const preparePage = () =>
  pageModules().then(() => import('./internal/rehearsal.ts').then((r) => r.rehearsePage()));
/** The modules of the workbook. */
const workbookModules = () => import('./workbook/workbook.ts');

/** Options of {@link warmUpRendering} beside Chromium's. */
export interface WarmupOptions {
  /**
   * When a workbook is due, start its thread at once (see workbook/thread.ts), for a caller that hands
   * {@link RenderWarmup.workbook} to `renderDocuments`; otherwise ExcelJS loads on this thread.
   */
  workbookThread?: boolean;
}

/** Starts loading the renderer for `formats`, and Chromium when they include a PDF. */
export function warmUpRendering(
  formats: ReadonlySet<string>,
  pdfOptions: PdfRendererOptions = {},
  options: WarmupOptions = {},
): RenderWarmup {
  let pdf: Promise<PdfRenderer> | undefined;
  let thread: WorkbookThread | undefined;
  const page = formats.has('pdf') || formats.has('html');
  const workbook = formats.has('xlsx');
  const threaded = workbook && options.workbookThread === true;
  const warmup: RenderWarmup = {
    async modules() {
      await Promise.all([page && pageModules(), workbook && workbookModules()]);
    },
    pdf() {
      // Puppeteer alone: Chromium starts while the page's modules load.
      pdf ??= import('./pdf.ts').then((p) => p.createPdfRenderer(pdfOptions));
      return pdf;
    },
    workbook() {
      thread ??= startWorkbookThread();
      return thread;
    },
    async closePdf() {
      const started = pdf;
      pdf = undefined;
      const renderer = await started?.catch(() => undefined);
      await renderer?.close();
    },
    async close() {
      const writer = thread;
      thread = undefined;
      await Promise.all([warmup.closePdf(), writer?.close()]);
    },
  };
  // Failures surface where the results are awaited, not as unhandled rejections now.
  if (formats.has('pdf')) {
    warmup.pdf().catch(() => {});
    preparePage().catch(() => {});
  } else if (threaded) {
    if (page) preparePage().catch(() => {});
  } else {
    warmup.modules().catch(() => {});
    if (page) preparePage().catch(() => {});
  }
  if (threaded) warmup.workbook();
  return warmup;
}
