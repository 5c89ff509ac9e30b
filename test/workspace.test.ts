import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const root = new URL('..', import.meta.url);

describe('the workspace', () => {
  it('runs the orgreport command from source through the root package', () => {
    const out = execFileSync('pnpm', ['exec', 'orgreport', '--version'], { cwd: root, encoding: 'utf8' });
    const { version } = JSON.parse(readFileSync(new URL('apps/report-cli/package.json', root), 'utf8'));
    expect(out.trim()).toBe(version);
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

  it("documents every command of `orgreport --help` in the README's command reference", () => {
    const help = execFileSync('pnpm', ['exec', 'orgreport', '--help'], { cwd: root, encoding: 'utf8' });
    const commands = [...help.matchAll(/^ {2}([a-z]+) /gm)].map((m) => m[1]).filter((c) => c !== 'help');
    expect(commands).toContain('monthly');
    const reference = readmeSection('Command reference');
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
