/**
 * Renders the report model to one self-contained HTML document: the layout and partials of the
 * template directories, their style sheets, embedded fonts and inline SVG charts.
 */
import type { ReportModel } from '@orgreport/metrics';
import { fontFaceCss } from './fonts.ts';
import { createReportEnvironment } from './handlebars-env.ts';
import { reportCharts } from './report-charts.ts';
import { reportView } from './report-view.ts';
import { COMPILE_OPTIONS, loadTemplates } from './template-compile.ts';

/** Options of {@link renderHtml}. */
export interface RenderHtmlOptions {
  /** User template directories; each overrides the built-in layout, partials and styles file by file. */
  templateDirs?: string[];
  /** Embed the Noto fonts as data: URLs (default true; the PDF needs them). */
  embedFonts?: boolean;
}

/** Renders the report model to an HTML document (a string). */
export async function renderHtml(model: ReportModel, options: RenderHtmlOptions = {}): Promise<string> {
  // Every file is read and parsed first, so a broken override is named before anything renders.
  const templates = loadTemplates(options.templateDirs ?? []);
  const view = reportView(model);
  const hb = createReportEnvironment({
    // Chart labels come from the same display-safe model as the text (bidi controls stripped).
    charts: reportCharts(view.model),
    fontFaces: options.embedFonts === false ? '' : fontFaceCss(),
    styles: templates.styles,
  });
  for (const [name, t] of templates.partials)
    hb.registerPartial(name, hb.compile(t.program, COMPILE_OPTIONS));
  const layout = hb.compile(templates.layout.program, COMPILE_OPTIONS);
  return layout(view);
}
