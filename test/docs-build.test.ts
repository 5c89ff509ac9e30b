/**
 * The manual's site build (docs/.vitepress/manual.ts, what `pnpm docs:build` runs) on two small
 * sites made here: one whose links all hold builds, a link to a package's README leading to the
 * page that includes it and a link to another file of the repository to a served copy; the same
 * site with dead links fails, naming each by page and line: a page that does not exist, an anchor
 * on no heading, an anchor GitHub spells another way, a dead anchor and a missing picture in the
 * README, a sidebar entry that is no page. (A missing picture of a page fails Vite's bundling.)
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const repo = fileURLToPath(new URL('..', import.meta.url));
const manualTs = join(repo, 'docs', '.vitepress', 'manual.ts');
const made: string[] = [];
afterAll(() => {
  for (const root of made) rmSync(root, { recursive: true, force: true });
});

/**
 * A repository with a README, a manual of three pages and a package, in a folder of its own inside
 * this one: the site's build resolves Vue from the repository's `node_modules`.
 */
function site(files: Record<string, string>): string {
  const root = mkdtempSync(join(repo, 'test', '.docs-site-'));
  made.push(root);
  const all: Record<string, string> = {
    'docs/.vitepress/config.mts': [
      'import { readFileSync } from "node:fs";',
      `import { manual } from ${JSON.stringify(manualTs)};`,
      'const root = new URL("../..", import.meta.url).pathname.replace(/\\/$/, "");',
      'export default manual({',
      '  repo: root,',
      '  docs: root + "/docs",',
      '  sidebar: JSON.parse(readFileSync(root + "/docs/.vitepress/sidebar.json", "utf8")),',
      '});',
      '',
    ].join('\n'),
    'docs/.vitepress/sidebar.json': JSON.stringify([
      { text: 'Page', link: '/page' },
      { text: 'Other', link: '/other' },
    ]),
    'docs/README.md': '# Home\n\nSee [the page](page.md).\n',
    'docs/packages/widget.md':
      '---\nsource: packages/widget/README.md\n---\n\n<!--@include: ../../packages/widget/README.md-->\n',
    'packages/widget/README.md':
      '# @acme/widget\n\nThe widget. Its settings: [Other](../../docs/other.md#settings).\n',
    'examples/plan.yaml': 'rules: []\n',
    'docs/other.md': '# Other\n\n## Settings\n\nNone.\n',
    ...files,
  };
  for (const [path, text] of Object.entries(all)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

function build(root: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(
      'pnpm',
      ['exec', 'vitepress', 'build', join(root, 'docs')],
      { cwd: repo, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) =>
        resolve({ code: error ? Number(error.code ?? 1) : 0, output: stdout + stderr }),
    );
  });
}

describe('the manual site build', () => {
  it('builds a site whose links hold, pointing links to files outside docs/ at the site', async () => {
    const root = site({
      'README.md': '# Repo\n\nThe [manual](docs/README.md), its [settings](docs/other.md#settings).\n',
      'docs/page.md': [
        '# Page',
        '',
        '## Usage',
        '',
        'The [widget](../packages/widget/README.md), its [plan](../examples/plan.yaml), [settings](other.md#settings), [usage](#usage).',
        '',
      ].join('\n'),
    });
    const { code, output } = await build(root);
    expect(code, output).toBe(0);
    const dist = join(root, 'docs', '.vitepress', 'dist');
    const page = readFileSync(join(dist, 'page.html'), 'utf8');
    expect(page).toContain('href="./packages/widget.html"');
    expect(page).toContain('href="/_repo/examples/plan.yaml"');
    expect(readFileSync(join(dist, '_repo', 'examples', 'plan.yaml'), 'utf8')).toBe('rules: []\n');
    // The package's README is a page, its own link followed from where the README lives.
    expect(readFileSync(join(dist, 'packages', 'widget.html'), 'utf8')).toContain(
      'href="./../other.html#settings"',
    );
  }, 120_000);

  it('fails on every dead link and anchor, naming each by page and line', async () => {
    const root = site({
      'README.md':
        '# Repo\n\nThe [manual](docs/README.md), its [settings](docs/other.md#setting).\n\n![A picture](docs/images/none.png)\n',
      'docs/.vitepress/sidebar.json': JSON.stringify([
        { text: 'Page', link: '/page' },
        { text: 'Gone', link: '/gone' },
      ]),
      'docs/page.md': [
        '# Page',
        '',
        '## Usage',
        '',
        'A [page that is not there](nowhere.md).',
        'An [anchor on no heading](#usages), another on [another page](other.md#settings-2).',
        '',
        '',
        '',
        '## The `a.b` key',
        '',
        'See [the key](#the-a-b-key).',
        '',
      ].join('\n'),
    });
    const { code, output } = await build(root);
    expect(code).not.toBe(0);
    const problems = output.split('\n').filter((l) => /^(docs|README)/.test(l));
    expect([...new Set(problems)]).toEqual([
      'README.md:3: links to docs/other.md#setting, but #setting is on no heading or element of that page',
      'README.md:5: links to docs/images/none.png, which does not exist (docs/images/none.png)',
      'docs/page.md:12: links to #the-a-b-key: GitHub names that heading #the-ab-key, the site #the-a-b-key; reword the heading so that both agree',
      'docs/page.md:5: links to nowhere.md, which does not exist (docs/nowhere.md)',
      'docs/page.md:6: links to #usages, but #usages is on no heading or element of that page',
      'docs/page.md:6: links to other.md#settings-2, but #settings-2 is on no heading or element of that page',
      'docs/.vitepress/config.mts: the sidebar links to /gone, which is no page',
    ]);
    expect(existsSync(join(root, 'docs', '.vitepress', 'dist', '_repo'))).toBe(false);
  }, 120_000);
});
