/**
 * `@orgreport/render/warmup`: rendering made ready while the month is still being fetched: the renderer's modules (ECharts,
 * ExcelJS, Puppeteer: about a second to load) and, when a PDF is due, Chromium (about another second
 * to start). Started before the fetch, neither is on the run's critical path any more.
 * Whoever starts a warm-up closes it, whatever happens.
 */
import type { PdfRenderer, PdfRendererOptions } from './pdf.ts';

type RenderModule = typeof import('./index.ts');

export interface RenderWarmup {
  /** The renderer's module (loading since the warm-up started, when it was due). */
  render(): Promise<RenderModule>;
  /** Chromium (started with the warm-up when a PDF was due); awaiting it rethrows a failed start. */
  pdf(): Promise<PdfRenderer>;
  /** Closes Chromium if it was started (safe to call more than once). */
  close(): Promise<void>;
}

/** Starts loading the renderer for `formats`, and Chromium when they include a PDF. */
export function warmUpRendering(
  formats: ReadonlySet<string>,
  pdfOptions: PdfRendererOptions = {},
): RenderWarmup {
  let render: Promise<RenderModule> | undefined;
  let pdf: Promise<PdfRenderer> | undefined;
  const warmup: RenderWarmup = {
    render() {
      render ??= import('./index.ts');
      return render;
    },
    pdf() {
      pdf ??= warmup.render().then((r) => r.createPdfRenderer(pdfOptions));
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
  if (formats.has('pdf')) warmup.pdf().catch(() => {});
  else if (formats.has('html') || formats.has('xlsx')) warmup.render().catch(() => {});
  return warmup;
}
