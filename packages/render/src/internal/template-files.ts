/**
 * The one template resolver: finds the report's layout, partials and styles. A partial comes from
 * the first of: a user template directory's `partials/<name>.hbs` (later directories win), the
 * section's own partial, the built-in directory of `@orgreport/templates`; the layout and styles
 * from a user directory, else the built-in one. A directory holds `layout.hbs`, `partials/*.hbs` and
 * `styles/*.css`; a directory holding a `report/` folder is read from there.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { templatesDir } from '@orgreport/templates';

/** The built-in report template directory. */
export const BUILTIN_REPORT_DIR = join(templatesDir, 'report');

/**
 * Raised when a template directory or one of its files cannot be read or compiled; the message
 * names the path (and, for a template that does not compile, the parse error with its line).
 */
export class TemplateDirectoryError extends Error {
  override readonly name = 'TemplateDirectoryError';
  constructor(
    readonly path: string,
    reason: string,
    /** What `path` is: a directory (default) or one template file. */
    readonly kind: 'directory' | 'file' = 'directory',
  ) {
    super(`template ${kind} ${path}: ${reason}`);
  }
}

/** A partial as a section declares it: a file, or its source. */
export type PartialSource = { file: string } | { source: string };

/** The resolved set of template files: relative path -> absolute path of the winning file. */
export interface TemplateFiles {
  layout: string;
  /** Partial name (file name without `.hbs`, or section id) -> the winning file or source. */
  partials: Map<string, PartialSource>;
  /** Style file name -> file, applied in name order. */
  styles: Map<string, string>;
}

function listDir(dir: string, suffix: string): string[] {
  if (!existsSync(dir)) return [];
  try {
    return readdirSync(dir)
      .filter((f) => f.endsWith(suffix))
      .sort();
  } catch (error) {
    throw new TemplateDirectoryError(dir, `cannot be read (${(error as Error).message})`);
  }
}

function reportRoot(dir: string): string {
  const abs = resolve(dir);
  let stats: ReturnType<typeof statSync>;
  try {
    stats = statSync(abs);
  } catch {
    throw new TemplateDirectoryError(abs, 'does not exist');
  }
  if (!stats.isDirectory()) throw new TemplateDirectoryError(abs, 'is not a directory');
  try {
    readdirSync(abs);
  } catch (error) {
    throw new TemplateDirectoryError(abs, `cannot be read (${(error as Error).message})`);
  }
  const nested = join(abs, 'report');
  return existsSync(join(nested, 'layout.hbs')) || existsSync(join(nested, 'partials')) ? nested : abs;
}

/**
 * Resolves the template files of the built-in directory, the sections' own partials and `userDirs`,
 * each overriding the one before (user directories in order).
 */
export function resolveTemplateFiles(
  userDirs: ReadonlyArray<string> = [],
  sectionPartials: ReadonlyMap<string, PartialSource> = new Map(),
): TemplateFiles {
  let layout = '';
  const partials = new Map<string, PartialSource>();
  const styles = new Map<string, string>();
  const read = (root: string) => {
    if (existsSync(join(root, 'layout.hbs'))) layout = join(root, 'layout.hbs');
    for (const f of listDir(join(root, 'partials'), '.hbs'))
      partials.set(f.slice(0, -4), { file: join(root, 'partials', f) });
    for (const f of listDir(join(root, 'styles'), '.css')) styles.set(f, join(root, 'styles', f));
  };
  read(BUILTIN_REPORT_DIR);
  for (const [name, partial] of sectionPartials) partials.set(name, partial);
  for (const root of userDirs.map(reportRoot)) read(root);
  if (!layout) throw new TemplateDirectoryError(BUILTIN_REPORT_DIR, 'no layout.hbs found');
  return { layout, partials, styles: new Map([...styles].sort(([a], [b]) => a.localeCompare(b))) };
}

/** Reads a template file as UTF-8, naming the file when it cannot be read. */
export function readTemplateFile(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new TemplateDirectoryError(file, `cannot be read (${(error as Error).message})`, 'file');
  }
}
