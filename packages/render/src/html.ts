/**
 * Renders the report model to one self-contained HTML document: the layout and partials of the
 * template directories, their style sheets, embedded fonts and inline SVG charts.
 */
import type { ReportModel } from '@orgreport/metrics';
import { fontFaceCss } from './fonts.ts';
import { createReportEnvironment } from './handlebars-env.ts';
import { reportCharts } from './report-charts.ts';
import { reportView } from './report-view.ts';
import { readTemplateFile, resolveTemplateFiles } from './template-files.ts';

/** Options of {@link renderHtml}. */
export interface RenderHtmlOptions {
  /** User template directories; each overrides the built-in layout, partials and styles file by file. */
  templateDirs?: string[];
  /** Embed the Noto fonts as data: URLs (default true; the PDF needs them). */
  embedFonts?: boolean;
}

/** Renders the report model to an HTML document (a string). */
export async function renderHtml(model: ReportModel, options: RenderHtmlOptions = {}): Promise<string> {
  const files = resolveTemplateFiles(options.templateDirs ?? []);
  const styles = [...files.styles.values()].map(readTemplateFile).join('\n');
  const hb = createReportEnvironment({
    charts: reportCharts(model),
    fontFaces: options.embedFonts === false ? '' : fontFaceCss(),
    styles,
  });
  for (const [name, file] of files.partials) hb.registerPartial(name, readTemplateFile(file));
  const layout = hb.compile(readTemplateFile(files.layout), { strict: false, preventIndent: true });
  return layout(reportView(model));
}
