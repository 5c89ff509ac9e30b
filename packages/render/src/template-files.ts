/**
 * Finds the report's template files: the built-in directory of `@orgreport/templates`, overridden
 * file by file by user template directories (later directories win). A directory holds `layout.hbs`,
 * `partials/*.hbs` and `styles/*.css`; a directory holding a `report/` folder is read from there.
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

/** The resolved set of template files: relative path -> absolute path of the winning file. */
export interface TemplateFiles {
  layout: string;
  /** Partial name (file name without `.hbs`) -> file. */
  partials: Map<string, string>;
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

/** Resolves the template files of the built-in directory overridden by `userDirs`, in order. */
export function resolveTemplateFiles(userDirs: ReadonlyArray<string> = []): TemplateFiles {
  const roots = [BUILTIN_REPORT_DIR, ...userDirs.map(reportRoot)];
  let layout = '';
  const partials = new Map<string, string>();
  const styles = new Map<string, string>();
  for (const root of roots) {
    if (existsSync(join(root, 'layout.hbs'))) layout = join(root, 'layout.hbs');
    for (const f of listDir(join(root, 'partials'), '.hbs'))
      partials.set(f.slice(0, -4), join(root, 'partials', f));
    for (const f of listDir(join(root, 'styles'), '.css')) styles.set(f, join(root, 'styles', f));
  }
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
