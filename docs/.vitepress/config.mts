/**
 * The manual as a site (VitePress): `pnpm docs:dev` serves it, `pnpm docs:build` builds it into
 * `docs/.vitepress/dist/` after TypeDoc wrote the API reference into `docs/api/`. The pages and the
 * sidebar are here; what makes them a site, the link check included, is manual.ts.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { DefaultTheme } from 'vitepress';
import { manual } from './manual.ts';

const docs = fileURLToPath(new URL('..', import.meta.url)).replace(/\/$/, '');
const repo = fileURLToPath(new URL('../..', import.meta.url)).replace(/\/$/, '');

/** The API reference's pages, as TypeDoc listed them (none before `pnpm docs:api` ran). */
function apiPages(): DefaultTheme.SidebarItem[] {
  const file = `${docs}/api/typedoc-sidebar.json`;
  if (!existsSync(file)) return [];
  return JSON.parse(readFileSync(file, 'utf8')) as DefaultTheme.SidebarItem[];
}

const sidebar: DefaultTheme.SidebarItem[] = [
  {
    text: 'Using orgreport',
    items: [
      { text: 'Set-up', link: '/setup' },
      { text: 'The report', link: '/report' },
      { text: 'Commands', link: '/commands' },
      { text: 'Configuration', link: '/configuration' },
      { text: 'Store, sync and query', link: '/store-and-query' },
      { text: 'Distribution and privacy', link: '/distribution' },
      { text: 'Directory, teams and chargeback', link: '/directory' },
      { text: 'Destinations', link: '/destinations' },
      { text: 'Watch', link: '/watch' },
      { text: 'Several organizations', link: '/organizations' },
      { text: 'Deployment', link: '/deployment' },
    ],
  },
  {
    text: 'Reference',
    items: [
      { text: 'Metric definitions', link: '/metrics' },
      { text: 'The workbook', link: '/workbook' },
      { text: 'Sections and packages', link: '/sections' },
      { text: 'The store: layout and columns', link: '/store' },
      { text: 'Bad input', link: '/bad-input' },
      { text: 'Performance', link: '/performance' },
      { text: 'The organization API', link: '/org-api' },
      { text: 'Service notes', link: '/service-notes' },
      { text: 'Development', link: '/development' },
    ],
  },
  {
    text: 'Packages',
    collapsed: true,
    items: [
      { text: '@orgreport/api-core', link: '/packages/api-core' },
      { text: '@orgreport/snapshot', link: '/packages/snapshot' },
      { text: '@orgreport/emulator', link: '/packages/emulator' },
      { text: '@orgreport/metrics', link: '/packages/metrics' },
      { text: '@orgreport/render', link: '/packages/render' },
      { text: '@orgreport/deliver', link: '/packages/deliver' },
      { text: '@orgreport/object-store', link: '/packages/object-store' },
      { text: '@orgreport/watch', link: '/packages/watch' },
      { text: '@orgreport/pipeline', link: '/packages/pipeline' },
      { text: '@orgreport/cli', link: '/packages/cli' },
      { text: 'Examples', link: '/packages/examples' },
      { text: 'Example: an ntfy destination', link: '/packages/destination-ntfy' },
    ],
  },
  { text: 'API reference', link: '/api/', collapsed: true, items: apiPages() },
];

export default manual({
  repo,
  docs,
  sidebar,
  site: {
    title: 'orgreport',
    description: "Monthly reports from an AI coding-agent service's organization API: PDF, Excel and HTML.",
    lastUpdated: false,
    themeConfig: {
      nav: [
        { text: 'Manual', link: '/setup' },
        { text: 'API reference', link: '/api/' },
      ],
      outline: [2, 3],
      search: {
        provider: 'local',
        options: {
          // The API reference is searched by its own sidebar; indexing it would double the build's time.
          _render: (src, env, md) => (env.relativePath.startsWith('api/') ? '' : md.render(src, env)),
        },
      },
    },
    // The API reference's largest page makes a chunk of about 1 MB.
    vite: { build: { chunkSizeWarningLimit: 2048 } },
  },
});
