/**
 * The one way a report's documents are made, for `monthly`, `render`, `rollup` and every report of
 * `distribute`: the model as its reader may see it, rendered in each chosen format into the
 * caller's {@link OutputSet} (which commits them together), with progress per format. A template
 * folder the renderer cannot use is an input error (exit 2).
 */
import type { ReportModel, ReportSection } from '@orgreport/metrics';
import type { DocumentReader } from '@orgreport/render/documents';
import type { RenderWarmup } from '@orgreport/render/warmup';
import { UsageError } from '../errors.ts';
import type { OutputSet } from '../output/atomic.ts';
import { formatBytes, type Reporter } from '../reporter.ts';
import type { ReportFormat } from '../settings.ts';

export interface WriteReportOptions {
  formats: Iterable<ReportFormat>;
  /** Where the files go; the caller commits or aborts it. */
  outputs: OutputSet;
  /** The files' name before the extension (see `reportBaseName`). */
  baseName: string;
  /** A template folder overriding the built-in templates file by file. */
  templates?: string;
  /** The report's sections in order; undefined: the built-in ones (the short report for a scope). */
  sections?: ReadonlyArray<ReportSection>;
  /** Who reads the documents (privacy); default: every row. */
  reader?: DocumentReader;
  /** The renderer and Chromium, started by the caller. */
  warmup: RenderWarmup;
  /**
   * Lay the page out and write the workbook on the render thread, and free Chromium right after
   * the PDF: a run of one report does; a distribution, which prints reports side by side on this
   * thread through one Chromium, does not.
   */
  alone?: boolean;
  /** Progress of each format as a stage; none: debug lines only. */
  reporter?: Reporter;
}

/** The documents made: the model they show (protected for the reader), the file names, the warnings. */
export interface WrittenReport {
  model: ReportModel;
  /** The files' names inside the output set. */
  files: string[];
  warnings: string[];
}

/** Renders `model` into the output set (see the module's description). */
export async function writeReport(model: ReportModel, options: WriteReportOptions): Promise<WrittenReport> {
  const { outputs, baseName, warmup, reporter } = options;
  // JSON alone needs none of the renderer's heavy modules: the documents entry loads formats on use.
  const { renderDocuments } = await import('@orgreport/render/documents');
  const stages = new Map<string, ReturnType<Reporter['stage']>>();
  const files: string[] = [];
  try {
    const rendered = await renderDocuments(model, {
      formats: [...options.formats],
      ...(options.reader && { reader: options.reader }),
      file: (format) => {
        const name = `${baseName}.${format.extension}`;
        files.push(name);
        return outputs.file(name);
      },
      ...(options.templates && { templateDirs: [options.templates] }),
      ...(options.sections && { sections: options.sections }),
      pdfRenderer: () => warmup.pdf(),
      ...(options.alone && {
        renderThread: () => warmup.thread(),
        afterPdf: () => warmup.closePdf(), // frees Chromium's memory as soon as the PDF is printed
      }),
      ...(reporter && {
        onProgress: (event) => {
          if (event.phase === 'start') stages.set(event.format, reporter.stage(event.format));
          else stages.get(event.format)?.done(formatBytes(event.bytes));
        },
      }),
    });
    return { model: rendered.model, files, warnings: rendered.warnings };
  } catch (error) {
    const { TemplateDirectoryError } = await import('@orgreport/render/templates');
    if (error instanceof TemplateDirectoryError)
      throw new UsageError(`--templates: ${error.message}`, { cause: error });
    throw error;
  }
}
