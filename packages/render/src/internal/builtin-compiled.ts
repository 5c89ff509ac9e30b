/**
 * The built-in templates compiled when the package is built (see precompile-entry.ts): Handlebars'
 * parser and compiler cost a report about a tenth of a second of CPU, on a thread that loads and
 * rehearses the page while the month is read. The table sits beside the built modules, keyed by the
 * SHA-256 of each template's source, so a source that differs (a user's override, an edited
 * template run from the sources) is simply not found and is compiled at run time. A table made by
 * another Handlebars or with other compile options is not used at all.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

/** The table's file name, beside the package's built modules. */
export const COMPILED_TABLE_FILE = 'precompiled-templates.json';

/** A template compiled: Handlebars' JavaScript of it (`precompile`) and the partials it refers to. */
export interface CompiledSource {
  compiled: string;
  partials: ReadonlySet<string>;
}

interface CompiledTable {
  /** What made the table: the Handlebars version and the compile options (see {@link compileStamp}). */
  stamp: string;
  templates: Record<string, { compiled: string; partials: string[] }>;
}

/** The key of a template's source in the table. */
export function sourceKey(source: string): string {
  return createHash('sha256').update(source).digest('hex');
}

/** The table's text for `sources` (each compiled by `compile`), made with `stamp`. */
export function compiledTableText(
  sources: Iterable<string>,
  compile: (source: string) => CompiledSource,
  stamp: string,
): string {
  const templates: CompiledTable['templates'] = {};
  for (const source of sources) {
    const { compiled, partials } = compile(source);
    templates[sourceKey(source)] = { compiled, partials: [...partials].sort() };
  }
  return `${JSON.stringify({ stamp, templates } satisfies CompiledTable)}\n`;
}

/**
 * The table in `file`, when it was made with `stamp`; empty when there is none (a run from the
 * sources), it cannot be read or parsed, or another stamp made it: the templates are then compiled
 * at run time, as they would be without it.
 */
export function readCompiledTable(file: URL | string, stamp: string): Map<string, CompiledSource> {
  let table: CompiledTable;
  try {
    table = JSON.parse(readFileSync(file, 'utf8')) as CompiledTable;
  } catch {
    return new Map();
  }
  if (table?.stamp !== stamp || typeof table.templates !== 'object' || table.templates === null) {
    return new Map();
  }
  return new Map(
    Object.entries(table.templates)
      .filter(([, t]) => typeof t?.compiled === 'string' && Array.isArray(t.partials))
      .map(([key, t]) => [key, { compiled: t.compiled, partials: new Set(t.partials) }]),
  );
}

let builtin: Map<string, CompiledSource> | undefined;

/** The built-in template of `source` as the build compiled it, if the build's table has it. */
export function builtinCompiled(source: string, stamp: string): CompiledSource | undefined {
  builtin ??= readCompiledTable(new URL(`./${COMPILED_TABLE_FILE}`, import.meta.url), stamp);
  return builtin.get(sourceKey(source));
}
