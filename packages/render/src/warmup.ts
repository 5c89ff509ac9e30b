/**
 * `@orgreport/render/warmup`: rendering made ready while the month is still being fetched or read:
 * the formats' modules (ECharts and Handlebars for the page, ExcelJS for the workbook: each a few
 * hundred milliseconds to load) and, when a PDF is due, Chromium (about half a second to start).
 * Whoever starts a warm-up closes it, whatever happens.
 *
 * When a PDF is due, the warm-up loads what the PDF needs first (Puppeteer, then the page's modules)
 * and leaves the workbook's modules to load while Chromium prints: the page is what the run waits for.
 */
import type { PdfRenderer, PdfRendererOptions } from './pdf.ts';

export interface RenderWarmup {
  /** Loads the modules of every format of the warm-up (those already loading are awaited, not reloaded). */
  modules(): Promise<void>;
  /** Chromium (started with the warm-up when a PDF was due); awaiting it rethrows a failed start. */
  pdf(): Promise<PdfRenderer>;
  /** Closes Chromium if it was started (safe to call more than once). */
  close(): Promise<void>;
}

/** The modules of the page (the HTML file and the PDF's page). */
const pageModules = () => import('./html.ts');
/** The modules of the workbook. */
const workbookModules = () => import('./workbook/workbook.ts');

/** Starts loading the renderer for `formats`, and Chromium when they include a PDF. */
export function warmUpRendering(
  formats: ReadonlySet<string>,
  pdfOptions: PdfRendererOptions = {},
): RenderWarmup {
  let pdf: Promise<PdfRenderer> | undefined;
  const page = formats.has('pdf') || formats.has('html');
  const workbook = formats.has('xlsx');
  const warmup: RenderWarmup = {
    async modules() {
      await Promise.all([page && pageModules(), workbook && workbookModules()]);
    },
    pdf() {
      // Puppeteer alone: Chromium starts while the page's modules load.
      pdf ??= import('./pdf.ts').then((p) => p.createPdfRenderer(pdfOptions));
      return pdf;
    },
    async close() {
      const started = pdf;
      pdf = undefined;
      const renderer = await started?.catch(() => undefined);
      await renderer?.close();
    },
  };
  // Failures surface where the results are awaited, not as unhandled rejections now.
  if (formats.has('pdf')) {
    warmup.pdf().catch(() => {});
    pageModules().catch(() => {});
  } else {
    warmup.modules().catch(() => {});
  }
  return warmup;
}
