import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = new URL('..', import.meta.url);

describe('the workspace', () => {
  it('runs the orgreport command from source through the root package', () => {
    const out = execFileSync('pnpm', ['exec', 'orgreport', '--version'], { cwd: root, encoding: 'utf8' });
    const { version } = JSON.parse(readFileSync(new URL('apps/report-cli/package.json', root), 'utf8'));
    expect(out.trim()).toBe(version);
  });

  it('makes a report from the TypeScript sources when a developer asks (ORGREPORT_FROM_SOURCE=1), render thread included', () => {
    const out = mkdtempSync(join(tmpdir(), 'orgreport-source-'));
    try {
      execFileSync(
        'pnpm',
        ['exec', 'orgreport', 'monthly', '--demo', '--quiet', '--formats', 'xlsx,json', '--out', out],
        { cwd: root, encoding: 'utf8', env: { ...process.env, ORGREPORT_FROM_SOURCE: '1' } },
      );
      // The workbook is written by the render thread, which starts from the sources too.
      expect(readdirSync(out).filter((f) => /\.(xlsx|json)$/.test(f))).toHaveLength(2);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });

  it('runs the same test command in CI as the README tells a newcomer', () => {
    const readme = readFileSync(new URL('README.md', root), 'utf8');
    const ci = readFileSync(new URL('.ci/run', root), 'utf8');
    const command = 'bash scripts/setup.sh && pnpm test';
    expect(readme).toContain(command);
    expect(ci).toContain(command);
  });

  it('gives a newcomer exactly two set-up commands: the demo monthly report and the tests', () => {
    const setUp = readmeSection('Set-up');
    const blocks = [...setUp.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]?.trim());
    expect(blocks).toEqual([
      'bash scripts/setup.sh && pnpm exec orgreport monthly --demo',
      'bash scripts/setup.sh && pnpm test',
    ]);
  });

  it("documents every command of `orgreport --help` in the manual's command reference", () => {
    const help = execFileSync('pnpm', ['exec', 'orgreport', '--help'], { cwd: root, encoding: 'utf8' });
    // The list of commands: from "Commands:" to the first blank line.
    const list = help.split(/\nCommands:\n/)[1]?.split(/\n\n/)[0] ?? '';
    const commands = [...list.matchAll(/^ {2}([a-z]+) /gm)].map((m) => m[1]).filter((c) => c !== 'help');
    expect(commands).toContain('monthly');
    const reference = readFileSync(new URL('docs/commands.md', root), 'utf8');
    for (const command of commands) expect(reference).toContain(`\`orgreport ${command} `);
  });
});

/** The text of the README's `## <title>` section, up to the next `## ` heading. */
function readmeSection(title: string): string {
  const readme = readFileSync(new URL('README.md', root), 'utf8');
  const section = readme.split(/^## /m).find((s) => s.startsWith(`${title}\n`));
  if (section === undefined) throw new Error(`README.md has no "## ${title}" section`);
  return section;
}
