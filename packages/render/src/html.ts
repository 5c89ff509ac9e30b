/**
 * Renders the report model to one self-contained HTML document: the layout lays out the report's
 * sections in order, each with its partial (see the template resolver), with the template
 * directories' style sheets, embedded fonts and inline SVG charts.
 */
import {
  type ReportModel,
  type ReportSection,
  resolveSections,
  sectionData,
  shortSections,
} from '@orgreport/metrics';
import { FONT_FACES_PLACEHOLDER, withFonts } from './fonts.ts';
import { createReportEnvironment, MARKUP, type TrustedMarkup } from './internal/handlebars-env.ts';
import { reportCharts } from './internal/report-charts.ts';
import { reportView } from './internal/report-view.ts';
import {
  type CompiledTemplate,
  type CompiledTemplates,
  loadTemplates,
  sectionPartials,
} from './internal/template-compile.ts';

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
  /** Shown as the organization's context in a scoped report (the layout labels it). */
  organizationContext: boolean;
  /** On screen only, left out of print (the full definitions behind a short report). */
  screenOnly: boolean;
  context: unknown;
}

/**
 * The sections a document lays out: the configured ones; else, for a scoped report, the short
 * report (the sections marked `short`) with the full definitions behind it on screen only (the PDF
 * ends with the one-page guide, the HTML keeps every definition); else every built-in section.
 */
export function pageSections(
  model: ReportModel,
  configured: ReadonlyArray<ReportSection> | undefined,
): Array<{ section: ReportSection; screenOnly: boolean }> {
  if (configured || !model.scope) {
    return resolveSections(configured).map((section) => ({ section, screenOnly: false }));
  }
  const short = shortSections(model).map((section) => ({ section, screenOnly: false }));
  const definitions = resolveSections(undefined).find((s) => s.id === 'definitions');
  return definitions ? [...short, { section: definitions, screenOnly: true }] : short;
}

/** Renders the report model to an HTML document (a string). */
export async function renderHtml(model: ReportModel, options: RenderHtmlOptions = {}): Promise<string> {
  const page = renderHtmlPage(model, options);
  return options.embedFonts === false ? withFonts(page, 'none') : withFonts(page, 'embedded');
}

/** Renders the page with a placeholder where its fonts go (see {@link withFonts}). */
export function renderHtmlPage(model: ReportModel, options: RenderHtmlOptions = {}): string {
  // Every file is read and compiled first, so a broken override is named before anything renders.
  const sections = resolveSections(options.sections);
  const templates = loadTemplates(options.templateDirs ?? [], sectionPartials(sections));
  const view = reportView(model);
  const laidOut: LaidOutSection[] = pageSections(model, options.sections).flatMap(
    ({ section: s, screenOnly }) => {
      const data = sectionData(view.model, s);
      // A section that computes figures and has none (no hook log, say) has nothing to show.
      if (s.compute && data === null) return [];
      // In a scoped report, a section of the organization's is labelled as its context.
      const organizationContext = view.model.scope?.organizationSections.includes(s.id) ?? false;
      return [
        {
          partial: s.id,
          organizationContext,
          screenOnly,
          context: { ...view, section: data, title: s.title },
        },
      ];
    },
  );
  const markup: TrustedMarkup = {
    // Chart labels come from the same display-safe model as the text (bidi controls stripped).
    charts: reportCharts(view.model),
    // The fonts are cut to the characters of the finished document, so they go in last.
    fontFaces: FONT_FACES_PLACEHOLDER,
    styles: templates.styles,
  };
  return compiledLayout(templates)({ ...view, sections: laidOut, [MARKUP]: markup });
}

/** Layouts made lately, by their templates' sources: hundreds of reports make the layout once. */
const layouts = new Map<string, HandlebarsTemplateDelegate>();
const LAYOUTS_KEPT = 8;

/**
 * The layout of `templates`, its partials registered, made into functions once per set of sources:
 * now rather than on first use, so that the warm-up can do it before the model is computed (see
 * {@link prepareLayout}). The templates come compiled to JavaScript (`precompile`: by the build for
 * the built-in ones, see internal/builtin-compiled.ts) and are made functions as Handlebars' own
 * compile does.
 */
function compiledLayout(templates: CompiledTemplates): HandlebarsTemplateDelegate {
  const key = JSON.stringify([
    templates.layout.source,
    [...templates.partials].map(([name, t]) => [name, t.source]),
  ]);
  const known = layouts.get(key);
  if (known) return known;
  const hb = createReportEnvironment();
  const templateOf = (t: CompiledTemplate) => hb.template(new Function(`return ${t.compiled}`)());
  for (const [name, t] of templates.partials) hb.registerPartial(name, templateOf(t));
  const layout = templateOf(templates.layout);
  if (layouts.size >= LAYOUTS_KEPT) layouts.delete(layouts.keys().next().value!);
  layouts.set(key, layout);
  return layout;
}

/**
 * Reads and compiles the templates a render of these options uses, ahead of the render (the
 * warm-up's rehearsal, internal/rehearsal.ts); the render then finds them compiled.
 */
export function prepareLayout(options: Pick<RenderHtmlOptions, 'templateDirs' | 'sections'> = {}): void {
  const sections = resolveSections(options.sections);
  compiledLayout(loadTemplates(options.templateDirs ?? [], sectionPartials(sections)));
}
