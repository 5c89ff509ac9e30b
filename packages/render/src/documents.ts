/**
 * `@orgreport/render/documents`: one call from a report model to its documents. Formats are
 * registered by name (`json`, `html`, `pdf`, `xlsx` built in; {@link registerFormat} adds one); each
 * writes the file its caller names. The HTML is rendered once and shared by every format that needs
 * it (the HTML file and the PDF). A format's implementation loads only when it is asked for, so a
 * JSON-only run never loads ECharts, ExcelJS or Puppeteer.
 */
import { stat, writeFile } from 'node:fs/promises';
import {
  type Identity,
  OPEN_POLICY,
  type PrivacyPolicy,
  protectModel,
  type ReportModel,
  type ReportSection,
  resolveSections,
} from '@orgreport/metrics';
import type { PageFonts } from './fonts.ts';
import { writeJsonFile } from './json-file.ts';
import type { PdfRenderer } from './pdf.ts';
import type { RenderResults, RenderThread } from './render-thread.ts';

/** What a format's writer receives besides its file. */
export interface DocumentContext {
  model: ReportModel;
  options: RenderDocumentsOptions;
  /** The report's HTML with its fonts embedded (the HTML file), laid out on first use and then shared. */
  html(): Promise<string>;
  /** The same page naming the system's fonts instead of embedding them: what Chromium prints. */
  printHtml(): Promise<string>;
  /** Records a warning of the render (returned by {@link renderDocuments}). */
  warn(text: string): void;
  /** Tells the other formats they may start: the PDF's page is in Chromium, which prints on its own. */
  printing(): void;
}

/** A document format: its name, the extension of its file and how it is written. */
export interface DocumentFormat {
  name: string;
  extension: string;
  write(file: string, context: DocumentContext): Promise<void>;
  /**
   * Whether the format starts at once in this render rather than once the PDF's page is loaded in
   * Chromium (see below): its work runs on another thread (the workbook's), or fits in this thread's
   * wait for the page the render thread lays out (the JSON's).
   */
  startsAtOnce?(context: DocumentContext): boolean;
}

/** Who a document is for, as the privacy rules need it (see `protectModel` of `@orgreport/metrics`). */
export interface DocumentReader {
  policy: PrivacyPolicy;
  /** Everyone of the organization a document might name (`identitiesOf`); those the reader may not see are withheld. */
  people: ReadonlyArray<Identity>;
  /** People the reader may see besides their scope's (the reader themself). */
  reader?: ReadonlyArray<string>;
}

export interface RenderDocumentsOptions {
  /** The formats to write, by name; they are written in the order they were registered. */
  formats: ReadonlyArray<string>;
  /**
   * Who the documents are for: every format reads the model as `protectModel` leaves it for this
   * reader. Default: the organization report's named readers (every row, as the report always had).
   * A model already protected (its `privacy` set) is used as it is.
   */
  reader?: DocumentReader;
  /** The file each format's document goes to. */
  file: (format: DocumentFormat) => string;
  /** User template directories (see `renderHtml`). */
  templateDirs?: string[];
  /** The report's sections in order (default: the built-in ones). */
  sections?: ReadonlyArray<ReportSection>;
  /** Chromium for the PDF, when the caller started it; else one is started (and closed) here. */
  pdfRenderer?: () => Promise<PdfRenderer>;
  /**
   * A thread to write the workbook on and lay out the page on, when the caller started one (see
   * `warmUpRendering`); used for the built-in sections only (the functions of other packages'
   * sections cannot cross to a thread), and for the page with the built-in templates only. Without
   * one, they are done on this thread.
   */
  renderThread?: () => RenderThread;
  /** Called once the PDF is written, so the caller can free Chromium right away. */
  afterPdf?: () => Promise<void>;
  /** Progress: a format started, or its file is written (with its size). */
  onProgress?: (
    event: { format: string; phase: 'start' } | { format: string; phase: 'done'; bytes: number },
  ) => void;
}

/** URLs named in a warning at most, each cut to a readable length. */
const MAX_URLS_SHOWN = 3;
const MAX_URL_CHARS = 120;

/**
 * The warning for requests the PDF page tried and the renderer blocked (it allows `data:` URLs only):
 * the PDF was made without them, so a template refers to something outside the report.
 */
export function blockedRequestsWarning(urls: ReadonlyArray<string>): string {
  const shown = urls
    .slice(0, MAX_URLS_SHOWN)
    .map((u) => JSON.stringify(u.length > MAX_URL_CHARS ? `${u.slice(0, MAX_URL_CHARS)}...` : u));
  const more = urls.length > MAX_URLS_SHOWN ? ` and ${urls.length - MAX_URLS_SHOWN} more` : '';
  return `the PDF page tried ${urls.length} outside request(s), all blocked, so the PDF was made without them (check the templates): ${shown.join(', ')}${more}`;
}

const json: DocumentFormat = {
  name: 'json',
  extension: 'json',
  // Written while the render thread lays out the page, this thread being idle until then.
  startsAtOnce: (context) => threadWork.get(context)?.page !== undefined,
  write: (file, { model }) => writeJsonFile(file, model),
};

const html: DocumentFormat = {
  name: 'html',
  extension: 'html',
  write: async (file, context) => writeFile(file, await context.html()),
};

const pdf: DocumentFormat = {
  name: 'pdf',
  extension: 'pdf',
  async write(file, context) {
    const { model, options } = context;
    const page = await context.printHtml();
    const { reportTitle, periodLabel } = await import('./internal/report-view.ts');
    const own = options.pdfRenderer ? undefined : await (await import('./pdf.ts')).createPdfRenderer();
    const renderer = own ?? (await options.pdfRenderer!());
    try {
      const bytes = await renderer.render(
        page,
        {
          title: reportTitle(model),
          author: 'orgreport',
          headerText: `${model.organization.name}, ${periodLabel(model)}`,
          // Both halves of the header fit one line: the scope (or the report's kind) on the right.
          headerRight: model.scope ? model.scope.label : 'AI coding agent report',
          footerText: `generated ${model.generatedAt.slice(0, 10)} by orgreport`,
        },
        { onLoaded: () => context.printing() },
      );
      await writeFile(file, bytes);
      if (renderer.blockedRequests.length > 0) context.warn(blockedRequestsWarning(renderer.blockedRequests));
    } finally {
      await own?.close();
      await options.afterPdf?.();
    }
  },
};

/** What the render thread does in a render (the context's), if anything. */
const threadWork = new WeakMap<DocumentContext, RenderResults>();

const xlsx: DocumentFormat = {
  name: 'xlsx',
  extension: 'xlsx',
  startsAtOnce: (context) => threadWork.get(context)?.workbook !== undefined,
  async write(file, context) {
    const { model, options } = context;
    const onThread = threadWork.get(context)?.workbook;
    if (onThread) return onThread;
    const { writeWorkbook } = await import('./workbook/workbook.ts');
    await writeWorkbook(model, file, options.sections ? { sections: options.sections } : {});
  },
};

const registry = new Map<string, DocumentFormat>([json, html, pdf, xlsx].map((f) => [f.name, f]));

/** Adds (or replaces) a format, by its name. */
export function registerFormat(format: DocumentFormat): void {
  registry.set(format.name, format);
}

/** The registered formats' names, in registration order. */
export function documentFormats(): string[] {
  return [...registry.keys()];
}

/**
 * Writes the documents of `model` in the chosen formats; resolves to the warnings of the render.
 *
 * @example
 * await renderDocuments(model, { formats: ['pdf', 'xlsx'], file: (f) => `out/report.${f.extension}` });
 */
export async function renderDocuments(
  unprotected: ReportModel,
  options: RenderDocumentsOptions,
): Promise<{ warnings: string[]; model: ReportModel }> {
  // The one place every format passes through: no format reads the model before privacy applies.
  const model = protectFor(unprotected, options);
  const unknown = options.formats.filter((name) => !registry.has(name));
  if (unknown.length > 0) {
    throw new RangeError(
      `unknown format(s) ${unknown.join(', ')}: registered are ${documentFormats().join(', ')}`,
    );
  }
  const warnings: string[] = [];
  let printing = () => {};
  const printingStarted = new Promise<void>((resolve) => {
    printing = resolve;
  });
  const chosen = [...registry.values()].filter((format) => options.formats.includes(format.name));
  const files = new Map(chosen.map((format) => [format, options.file(format)]));
  // The render thread takes the page and the workbook of the built-in formats, sections and
  // templates, from one copy of the model, at once: this thread meanwhile writes the JSON, fills in
  // the page's fonts and drives Chromium.
  const thread = options.sections ? undefined : options.renderThread?.();
  const builtinPage = thread && !(options.templateDirs && options.templateDirs.length > 0);
  const work = thread?.render(model, {
    ...(builtinPage && (chosen.includes(pdf) || chosen.includes(html)) && { page: true }),
    ...(chosen.includes(xlsx) && { workbook: files.get(xlsx)! }),
  });
  // The page is laid out once; the HTML file embeds its fonts cut to its characters, the PDF names
  // the system's (the same glyphs, without cutting fonts on the way to Chromium).
  let page: Promise<string> | undefined;
  const laidOut = () => {
    page ??=
      work?.page ??
      import('./html.ts').then(({ renderHtmlPage }) =>
        renderHtmlPage(model, {
          templateDirs: options.templateDirs ?? [],
          ...(options.sections && { sections: options.sections }),
        }),
      );
    return page;
  };
  const withFonts = async (fonts: Exclude<PageFonts, 'none'>) =>
    (await import('./fonts.ts')).withFonts(await laidOut(), fonts);
  const context: DocumentContext = {
    model,
    options,
    html: () => withFonts('embedded'),
    printHtml: () => withFonts('local'),
    warn: (text) => warnings.push(text),
    printing,
  };
  if (work) threadWork.set(context, work);
  const pdfFirst = chosen.some((f) => f.name === 'pdf');
  // The formats are written side by side, the PDF first: the others start once its page is loaded in
  // Chromium (or the PDF failed), so that Chromium prints while this process writes them; started
  // earlier, their work would hold up the messages that lay the page out. A format whose work runs on
  // another thread (the workbook's), or fits in this thread's wait for the page laid out on the
  // render thread (the JSON's), starts at once. The first failure is the render's; the caller
  // discards the files.
  await Promise.all(
    chosen.map(async (format) => {
      if (pdfFirst && format.name !== 'pdf' && !format.startsAtOnce?.(context)) await printingStarted;
      const file = files.get(format)!;
      options.onProgress?.({ format: format.name, phase: 'start' });
      try {
        await format.write(file, context);
      } finally {
        if (format.name === 'pdf') printing();
      }
      options.onProgress?.({ format: format.name, phase: 'done', bytes: (await stat(file)).size });
    }),
  );
  return { warnings, model };
}

/**
 * The model as the options' reader may see it (see {@link RenderDocumentsOptions.reader}); the
 * message of a delivery is made from the same protected model.
 */
export function protectFor(
  model: ReportModel,
  options: Pick<RenderDocumentsOptions, 'reader' | 'sections'>,
): ReportModel {
  if (model.privacy) return model;
  const reader = options.reader ?? { policy: OPEN_POLICY, people: [] };
  return protectModel(model, {
    policy: reader.policy,
    sections: resolveSections(options.sections),
    people: reader.people,
    ...(reader.reader && { reader: reader.reader }),
  });
}
