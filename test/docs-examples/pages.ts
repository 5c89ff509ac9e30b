/**
 * The README and the pages of the manual, as files of the repository: `docs/**\/*.md` but the
 * generated API reference, with the package READMEs the manual includes (`docs/packages/*.md` name
 * their `source:`) read where they live.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/** Paths relative to `repo`, in a stable order: the README first. */
export function manualPages(repo: string): string[] {
  const docs = join(repo, 'docs');
  const pages = readdirSync(docs, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.md') && !/^(api|packages|\.vitepress)\//.test(f.split('\\').join('/')))
    .map((f) => `docs/${f}`);
  const included = readdirSync(join(docs, 'packages'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => /^source:\s*(\S+)$/m.exec(readFileSync(join(docs, 'packages', f), 'utf8'))?.[1])
    .filter((source): source is string => source !== undefined);
  return ['README.md', ...pages.sort(), ...included.sort()].map((p) => relative(repo, join(repo, p)));
}
