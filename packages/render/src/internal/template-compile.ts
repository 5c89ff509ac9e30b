/**
 * Compiling template files with errors that name the file: a broken user override must say which
 * file and which line, not fail somewhere inside the render.
 */

import { BUILTIN_SECTIONS, type ReportSection } from '@orgreport/metrics';
import Handlebars from 'handlebars';
import { builtinCompiled, type CompiledSource } from './builtin-compiled.ts';
import {
  type PartialSource,
  readTemplateFile,
  resolveTemplateFiles,
  TemplateDirectoryError,
} from './template-files.ts';

type Program = ReturnType<typeof Handlebars.parse>;

/** Compile options of every report template (kept in one place so checking and rendering agree). */
const COMPILE_OPTIONS = { strict: false, preventIndent: true } as const;

/** What a compiled template depends on beside its source: Handlebars' version and the options. */
export const COMPILE_STAMP = `handlebars ${Handlebars.VERSION} ${JSON.stringify(COMPILE_OPTIONS)}`;

/** The first line of a Handlebars error (its message repeats the source excerpt on later lines). */
function reasonOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const [first, ...rest] = message.split('\n');
  // Parse errors read "Parse error on line 3:\n<excerpt>\n---^\nExpecting ..., got ...".
  const expecting = rest.find((l) => l.startsWith('Expecting'));
  return expecting ? `${first} ${expecting}` : (first ?? message);
}

/**
 * A template's source compiled to Handlebars' JavaScript (`precompile`), with the partials it refers
 * to; raises {@link TemplateDirectoryError} naming `file` (and the line) when it does not compile.
 */
export function compileTemplateSource(file: string, source: string): CompiledSource {
  try {
    const program = Handlebars.parse(source);
    const partials = referencedPartials(program);
    // The JavaScript source of the template (typed as the object it evaluates to).
    return { compiled: String(Handlebars.precompile(program, COMPILE_OPTIONS)), partials };
  } catch (error) {
    throw new TemplateDirectoryError(file, `does not compile: ${reasonOf(error)}`, 'file');
  }
}

/**
 * {@link compileTemplateSource}, once per source: a built-in template as the build compiled it,
 * another as compiled lately, else compiled now.
 */
function compileSource(file: string, source: string): CompiledSource {
  const known = compiled.get(source) ?? builtinCompiled(source, COMPILE_STAMP);
  if (known) return known;
  const made = compileTemplateSource(file, source);
  // The same templates render hundreds of reports in a distribution: each source is compiled once.
  if (compiled.size >= COMPILED_KEPT) compiled.delete(compiled.keys().next().value!);
  compiled.set(source, made);
  return made;
}

/** Templates compiled lately, by their source. */
const compiled = new Map<string, CompiledSource>();
const COMPILED_KEPT = 256;

/**
 * Partial names a template refers to with `{{> name}}` (dynamic partial names are skipped), but for
 * those it defines itself with `{{#*inline "name"}}`.
 */
function referencedPartials(program: Program): Set<string> {
  const names = new Set<string>();
  const inline = new Set<string>();
  const visit = (node: unknown): void => {
    if (node === null || typeof node !== 'object') return;
    if (Array.isArray(node)) {
      for (const n of node) visit(n);
      return;
    }
    const n = node as {
      type?: string;
      name?: { type?: string; original?: unknown };
      path?: { original?: unknown };
      params?: Array<{ type?: string; value?: unknown }>;
    };
    if (
      (n.type === 'PartialStatement' || n.type === 'PartialBlockStatement') &&
      n.name?.type === 'PathExpression' &&
      typeof n.name.original === 'string'
    ) {
      names.add(n.name.original);
    }
    const defined = n.params?.[0];
    if (
      n.type === 'DecoratorBlock' &&
      n.path?.original === 'inline' &&
      defined?.type === 'StringLiteral' &&
      typeof defined.value === 'string'
    ) {
      inline.add(defined.value);
    }
    for (const [key, value] of Object.entries(node)) if (key !== 'loc') visit(value);
  };
  visit(program);
  for (const name of inline) names.delete(name);
  return names;
}

/** A template file compiled: its path, its source and what Handlebars made of it. */
export interface CompiledTemplate extends CompiledSource {
  file: string;
  source: string;
}

/** The layout and partials of resolved template files, compiled, with every `{{> name}}` resolvable. */
export interface CompiledTemplates {
  layout: CompiledTemplate;
  partials: Map<string, CompiledTemplate>;
  /** The concatenated style sheets, in name order. */
  styles: string;
}

/**
 * Reads and compiles the files a render of `templateDirs` uses (with the sections' own partials),
 * raising {@link TemplateDirectoryError} naming the file for one that cannot be read, does not
 * compile or names a partial that does not exist.
 */
export function loadTemplates(
  templateDirs: ReadonlyArray<string>,
  sectionPartials: ReadonlyMap<string, PartialSource> = new Map(),
): CompiledTemplates {
  const files = resolveTemplateFiles(templateDirs, sectionPartials);
  const styles = [...files.styles.values()].map(readTemplateFile).join('\n');
  const compile = (file: string, source: string): CompiledTemplate => ({
    file,
    source,
    ...compileSource(file, source),
  });
  const layout = compile(files.layout, readTemplateFile(files.layout));
  const partials = new Map(
    [...files.partials].map(([name, partial]): [string, CompiledTemplate] =>
      'file' in partial
        ? [name, compile(partial.file, readTemplateFile(partial.file))]
        : [name, compile(`section ${name}`, partial.source)],
    ),
  );
  for (const t of [layout, ...partials.values()]) {
    for (const name of t.partials) {
      if (name !== '@partial-block' && !partials.has(name)) {
        throw new TemplateDirectoryError(
          t.file,
          `refers to partial "${name}", which no template directory or section has`,
          'file',
        );
      }
    }
  }
  return { layout, partials, styles };
}

/**
 * The partials a render registers: those of every built-in section (a template may refer to any of
 * them by id) and of the report's sections, which win.
 */
export function sectionPartials(sections: ReadonlyArray<ReportSection>): Map<string, PartialSource> {
  const all = [...BUILTIN_SECTIONS, ...sections];
  return new Map(all.filter((s) => s.partial !== undefined).map((s) => [s.id, s.partial!] as const));
}

/**
 * Checks the template directories a render would use: reads every file the render would read (the
 * winning layout, partials and styles, built-in, a section's own or overridden) and compiles each
 * Handlebars file, so a CLI can refuse a broken directory before fetching anything.
 *
 * @param sections the report's sections (default: the built-in ones), whose partials count too.
 * @throws TemplateDirectoryError naming the directory or the file (with the parse error and line).
 * @example
 * await validateTemplateDirs(['./my-templates']);
 */
export async function validateTemplateDirs(
  templateDirs: string[],
  sections: ReadonlyArray<ReportSection> = [],
): Promise<void> {
  loadTemplates(templateDirs, sectionPartials(sections));
}
