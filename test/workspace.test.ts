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
});
