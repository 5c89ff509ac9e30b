/**
 * Renders the report model to one self-contained HTML document: the layout and partials of the
 * template directories, their style sheets, embedded fonts and inline SVG charts.
 */
import { isBuiltinSection, type ReportModel, type ReportSection, resolveSections } from '@orgreport/metrics';
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
  /** The report's sections in order (default: the built-in ones); the layout renders their partials. */
  sections?: ReadonlyArray<ReportSection>;
}

/** A section as the layout renders it: the partial's name and the context it is rendered with. */
interface LaidOutSection {
  partial: string;
  context: unknown;
}

/** Renders the report model to an HTML document (a string). */
export async function renderHtml(model: ReportModel, options: RenderHtmlOptions = {}): Promise<string> {
  // Every file is read and parsed first, so a broken override is named before anything renders.
  const sections = resolveSections(options.sections);
  const templates = loadTemplates(options.templateDirs ?? [], sectionPartials(sections));
  const view = reportView(model);
  const laidOut: LaidOutSection[] = sections
    // The hook-log section appears only when a hook log was read.
    .filter((s) => s.id !== 'hook-events' || view.model.hookEvents)
    .map((s) =>
      isBuiltinSection(s)
        ? { partial: s.id, context: view }
        : {
            partial: s.id,
            context: { ...view, section: view.model.sections?.[s.id] ?? null, title: s.title },
          },
    );
  const hb = createReportEnvironment({
    // Chart labels come from the same display-safe model as the text (bidi controls stripped).
    charts: reportCharts(view.model),
    fontFaces: options.embedFonts === false ? '' : fontFaceCss(),
    styles: templates.styles,
  });
  for (const [name, t] of templates.partials)
    hb.registerPartial(name, hb.compile(t.program, COMPILE_OPTIONS));
  const layout = hb.compile(templates.layout.program, COMPILE_OPTIONS);
  return layout({ ...view, sections: laidOut });
}

/** The partials the sections bring themselves (built-in ones come with the templates). */
function sectionPartials(
  sections: ReadonlyArray<ReportSection>,
): Map<string, { file: string } | { source: string }> {
  return new Map(sections.filter((s) => s.partial !== undefined).map((s) => [s.id, s.partial!] as const));
}
