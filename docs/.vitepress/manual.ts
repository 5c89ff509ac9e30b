/**
 * What makes a VitePress site of this manual, apart from its pages and sidebar: inline code shown
 * as written, links between files as GitHub reads them, and a build that fails on a dead link or
 * anchor, of the pages, the README beside them and the sidebar (links.ts). `test/docs-build.test.ts`
 * builds small sites with it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type DefaultTheme, defineConfig, type UserConfig } from 'vitepress';
import { LinkChecker, REPO_FILES, readMirrors } from './links.ts';

export interface ManualOptions {
  /** The repository and its manual's folder. */
  repo: string;
  docs: string;
  sidebar: DefaultTheme.SidebarItem[];
  /** The rest of the site's settings. */
  site?: UserConfig<DefaultTheme.Config>;
}

export function manual(options: ManualOptions): UserConfig<DefaultTheme.Config> {
  const { repo, docs, sidebar, site = {} } = options;
  const links = new LinkChecker({ repo, docs, mirrors: readMirrors(repo, docs) });
  return defineConfig({
    ...site,
    // docs/README.md is the folder's page on GitHub and the site's home.
    rewrites: { 'README.md': 'index.md' },
    srcExclude: ['**/node_modules/**'],
    // links.ts checks every link, anchors included, and names the page and line.
    ignoreDeadLinks: true,
    markdown: {
      // Crontab lines have no grammar of their own; a shell's colours them well enough.
      languageAlias: { cron: 'sh' },
      config(md) {
        // Inline code is shown as written: `{{ ... }}` in it is text, not a Vue expression.
        const code = md.renderer.rules.code_inline!;
        md.renderer.rules.code_inline = (...args) => code(...args).replace(/^<code/, '<code v-pre');
        links.plugin(md);
      },
    },
    themeConfig: { ...site.themeConfig, sidebar },
    vite: {
      ...site.vite,
      plugins: [
        ...(site.vite?.plugins ?? []),
        {
          // `pnpm docs:dev` serves the repository files pages link to, as the build copies them.
          name: 'orgreport-repository-files',
          configureServer(server) {
            server.middlewares.use(REPO_FILES, (req, res, next) => {
              const file = join(repo, decodeURIComponent((req.url ?? '').split('?')[0] ?? ''));
              if (!links.served.has(file)) return next();
              res.setHeader('content-type', 'text/plain; charset=utf-8');
              res.end(readFileSync(file));
            });
          },
        },
      ],
    },
    async buildEnd(built) {
      if (existsSync(`${repo}/README.md`)) links.checkFile(`${repo}/README.md`);
      const pages = new Set(
        built.pages.map((p) => `/${(built.rewrites.map[p] ?? p).replace(/(index)?\.md$/, '')}`),
      );
      const sidebarProblems = sidebarLinks(sidebar)
        .filter((link) => !pages.has(link.replace(/(\.md|\.html|\/)$/, '')) && !pages.has(link))
        .map((link) => `docs/.vitepress/config.mts: the sidebar links to ${link}, which is no page`);
      const problems = [...links.problems(), ...sidebarProblems];
      if (problems.length > 0) {
        throw new Error(`${problems.length} dead link(s) or anchor(s):\n${problems.join('\n')}`);
      }
      links.serve(built.outDir);
    },
  });
}

function sidebarLinks(items: DefaultTheme.SidebarItem[]): string[] {
  return items.flatMap((item) => [...(item.link ? [item.link] : []), ...sidebarLinks(item.items ?? [])]);
}
