/**
 * The links of the manual and of the README, checked when the site is built. VitePress finds a link
 * to a page that does not exist; this also finds an anchor that is not on its page (a heading's id,
 * or an element's), a link or image to a file that is not there, and an anchor that works on the
 * site but not on GitHub (whose headings' ids differ for some punctuation), and names the page and
 * line. Pages read on GitHub link to the repository's files by relative paths; on the site, a link
 * to a package's README goes to its page under `packages/` (`source:` in its front matter), and a
 * link to another file of the repository to a copy of it served under `/_repo/`.
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, extname, join, relative, resolve, sep } from 'node:path';
import type { MarkdownRenderer as MarkdownIt } from 'vitepress';

type Token = ReturnType<MarkdownIt['parse']>[number];

interface PageLinks {
  /** The page's file (for a package README's page, the page under docs/packages/). */
  path: string;
  /** Where a relative link of the page starts from (a package README's folder for its page). */
  base: string;
  /** What problems name: the file and the line its text starts on. */
  file: string;
  lineOffset: number;
  /** Whether the page is part of the site (the README is checked, not built). */
  onSite: boolean;
  ids: Set<string>;
  /** The id of each heading on the site and on GitHub. */
  headings: Array<{ id: string; github: string }>;
  links: Array<{ href: string; line: number }>;
}

interface Env {
  path?: string;
  realPath?: string;
  frontmatter?: { source?: unknown };
}

export interface LinkCheckOptions {
  /** The repository and the manual's folder (VitePress's srcDir). */
  repo: string;
  docs: string;
  /** Pages whose text is a package's README: the README's path -> the page's. */
  mirrors: Map<string, string>;
}

const EXTERNAL = /^([a-z][a-z0-9+.-]*:|\/\/)/i;
/** Served copies of repository files, beside the site's pages. */
export const REPO_FILES = '/_repo/';

/**
 * The pages under `docs/packages/` that include a README, by the README's absolute path: each
 * declares it as `source:` in its front matter.
 */
export function readMirrors(repo: string, docs: string): Map<string, string> {
  const folder = join(docs, 'packages');
  const mirrors = new Map<string, string>();
  if (!existsSync(folder)) return mirrors;
  for (const name of readdirSync(folder).filter((f) => f.endsWith('.md'))) {
    const source = /^source:\s*(\S+)\s*$/m.exec(readFileSync(join(folder, name), 'utf8'))?.[1];
    if (source) mirrors.set(resolve(repo, source), join(folder, name));
  }
  return mirrors;
}

/** Records the links and ids of every page the renderer renders, and points links at the site's files. */
export class LinkChecker {
  readonly pages = new Map<string, PageLinks>();
  /** Repository files that pages link to, copied into the site under {@link REPO_FILES}. */
  readonly served = new Set<string>();
  private md?: MarkdownIt;

  constructor(private readonly options: LinkCheckOptions) {}

  /** The markdown-it plugin: install it last (in VitePress's `markdown.config`). */
  plugin = (md: MarkdownIt): void => {
    this.md = md;
    const parse = md.parse.bind(md);
    // The source with its front matter, which the front matter plugin strips before parsing.
    md.parse = (src: string, env: Env & { source?: string }) => {
      env.source ??= src;
      return parse(src, env);
    };
    md.core.ruler.push('orgreport_links', (state) => {
      this.record(state.tokens, state.env as Env & { source?: string });
    });
    const linkOpen = md.renderer.rules.link_open;
    md.renderer.rules.link_open = (tokens, idx, options, env: Env, self) => {
      const token = tokens[idx]!;
      const href = token.attrGet('href');
      if (href !== null) token.attrSet('href', this.siteHref(href, env));
      return linkOpen ? linkOpen(tokens, idx, options, env, self) : self.renderToken(tokens, idx, options);
    };
  };

  /** Renders a page that is not on the site (the README), so that its links are checked too. */
  checkFile(path: string): void {
    if (!this.md) throw new Error('the link checker is not installed in a markdown renderer');
    if (!this.pages.has(path)) this.md.render(readFileSync(path, 'utf8'), { path, realPath: path });
  }

  /** Every dead link and anchor: `file:line: problem`. */
  problems(): string[] {
    // A page outside the site that a link reaches with an anchor is read for its ids.
    for (const page of [...this.pages.values()]) {
      for (const link of page.links) {
        const target = this.target(page, link.href);
        if (target?.path.endsWith('.md') && target.anchor && existsSync(target.path))
          this.checkFile(target.path);
      }
    }
    const problems: string[] = [];
    for (const page of this.pages.values()) {
      for (const link of page.links) {
        const problem = this.problem(page, link.href);
        if (problem) problems.push(`${page.file}:${link.line + page.lineOffset}: ${problem}`);
      }
    }
    return [...new Set(problems)].sort();
  }

  /** Copies the files pages link to into the built site. */
  serve(outDir: string): void {
    for (const file of this.served) {
      const copy = join(outDir, REPO_FILES, relative(this.options.repo, file));
      mkdirSync(dirname(copy), { recursive: true });
      copyFileSync(file, copy);
    }
  }

  private record(tokens: Token[], env: Env & { source?: string }): void {
    const file = env.realPath ?? env.path;
    if (!file) return;
    const source = this.sourceOf(env);
    // Lines count from the page's own text: front matter and the text before an include come first.
    const frontMatter = /^---\r?\n[\s\S]*?\r?\n---\r?\n/.exec(env.source ?? '')?.[0] ?? '';
    // A package README's page: its lines are the README's, after what the page has before the include.
    const own = source ? readFileSync(file, 'utf8') : '';
    const before = own.slice(frontMatter.length).split('<!--@include:')[0]!;
    const page: PageLinks = {
      path: file,
      base: dirname(source ?? file),
      file: relative(this.options.repo, source ?? file),
      lineOffset: source ? -lineCount(before) : lineCount(frontMatter),
      onSite: file.startsWith(this.options.docs + sep),
      ids: new Set(),
      headings: [],
      links: [],
    };
    const githubSeen = new Map<string, number>();
    tokens.forEach((token, i) => {
      if (token.type === 'heading_open') {
        const id = token.attrGet('id');
        const slug = githubSlug(inlineText(tokens[i + 1]));
        const n = githubSeen.get(slug) ?? 0;
        githubSeen.set(slug, n + 1);
        if (id) page.headings.push({ id, github: n === 0 ? slug : `${slug}-${n}` });
      }
      if (token.type === 'html_block' || token.type === 'html_inline')
        this.recordHtml(page, token.content, token.map);
      if (token.type !== 'inline' || !token.children) return;
      let line = (token.map?.[0] ?? 0) + 1;
      for (const child of token.children) {
        if (child.type === 'softbreak' || child.type === 'hardbreak') line++;
        // A heading's own permalink (VitePress adds it) points at the heading's id by construction.
        if (child.type === 'link_open' && child.attrGet('class') !== 'header-anchor') {
          page.links.push({ href: child.attrGet('href') ?? '', line });
        }
        if (child.type === 'image') page.links.push({ href: child.attrGet('src') ?? '', line });
        if (child.type === 'html_inline') this.recordHtml(page, child.content, [line - 1, line]);
      }
    });
    for (const heading of page.headings) page.ids.add(heading.id);
    this.pages.set(file, page);
  }

  private recordHtml(page: PageLinks, html: string, map: [number, number] | null): void {
    const line = (map?.[0] ?? 0) + 1;
    for (const m of html.matchAll(/\s(id|name|href|src)="([^"]*)"/g)) {
      if (m[1] === 'id' || m[1] === 'name') page.ids.add(m[2]!);
      else page.links.push({ href: m[2]!, line });
    }
  }

  /** The package README a page includes, by its front matter. */
  private sourceOf(env: Env): string | undefined {
    const source = env.frontmatter?.source;
    return typeof source === 'string' ? resolve(this.options.repo, source) : undefined;
  }

  /** The file and anchor a link leads to; undefined for a link off the repository. */
  private target(page: PageLinks, href: string): { path: string; anchor: string } | undefined {
    if (EXTERNAL.test(href)) return undefined;
    const hash = href.indexOf('#');
    const path = decodeURIComponent(hash === -1 ? href : href.slice(0, hash));
    const anchor = hash === -1 ? '' : decodeURIComponent(href.slice(hash + 1));
    if (path === '') return { path: page.path, anchor };
    let file = path.startsWith('/') ? join(this.options.docs, path) : resolve(page.base, path);
    if (file.endsWith('.html')) file = `${file.slice(0, -'.html'.length)}.md`;
    if (existsSync(file) && statSync(file).isDirectory()) {
      file = ['README.md', 'index.md'].map((f) => join(file, f)).find((f) => existsSync(f)) ?? file;
    } else if (extname(file) === '' && !existsSync(file)) file = `${file}.md`;
    return { path: file, anchor };
  }

  private problem(page: PageLinks, href: string): string | undefined {
    if (href === '') return 'an empty link';
    const target = this.target(page, href);
    if (!target) return undefined;
    if (!existsSync(target.path))
      return `links to ${href}, which does not exist (${relative(this.options.repo, target.path)})`;
    const inSite = target.path.startsWith(this.options.docs + sep);
    if (page.onSite && !inSite && target.path.endsWith('.md') && !this.options.mirrors.has(target.path)) {
      return `links to ${href}, a page that is not part of the manual: include it under docs/packages/ (with source: in its front matter) or link a page of the manual`;
    }
    if (!target.anchor || !target.path.endsWith('.md')) return undefined;
    const linked =
      this.pages.get(this.options.mirrors.get(target.path) ?? target.path) ?? this.pages.get(target.path);
    if (!linked) return `links to ${href}, whose anchors cannot be read`;
    if (!linked.ids.has(target.anchor))
      return `links to ${href}, but #${target.anchor} is on no heading or element of that page`;
    const heading = linked.headings.find((h) => h.id === target.anchor);
    const generated = target.path.startsWith(join(this.options.docs, 'api') + sep);
    if (heading && heading.github !== heading.id && !generated) {
      return `links to ${href}: GitHub names that heading #${heading.github}, the site #${heading.id}; reword the heading so that both agree`;
    }
    return undefined;
  }

  /** Where a link of a page leads on the site. */
  private siteHref(href: string, env: Env): string {
    const file = env.realPath ?? env.path;
    if (!file || EXTERNAL.test(href) || href.startsWith('#') || href.startsWith('/')) return href;
    const hash = href.indexOf('#');
    const path = hash === -1 ? href : href.slice(0, hash);
    const anchor = hash === -1 ? '' : href.slice(hash);
    const target = resolve(dirname(this.sourceOf(env) ?? file), decodeURIComponent(path));
    const page = this.options.mirrors.get(target) ?? target;
    if (page.startsWith(this.options.docs + sep))
      return `${relative(dirname(file), page).split(sep).join('/')}${anchor}`;
    if (!existsSync(page) || statSync(page).isDirectory() || page.endsWith('.md')) return href;
    this.served.add(page);
    return `${REPO_FILES}${relative(this.options.repo, page).split(sep).join('/')}`;
  }
}

/** The text of a heading's inline token, as GitHub takes it for the heading's id. */
function inlineText(token: Token | undefined): string {
  return (token?.children ?? [])
    .map((c) =>
      c.type === 'text' || c.type === 'code_inline' ? c.content : c.type === 'softbreak' ? ' ' : '',
    )
    .join('');
}

/** GitHub's id of a heading: lower case, punctuation other than `-` and `_` removed, spaces as `-`. */
export function githubSlug(text: string): string {
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

const lineCount = (text: string) => (text === '' ? 0 : text.split('\n').length - 1);
