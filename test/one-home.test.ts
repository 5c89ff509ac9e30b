/**
 * One home for each default and each helper the packages share: a `DEFAULT_*` constant is declared
 * once in the workspace (others import it), a secret is masked with the one mark of
 * `@orgreport/api-core/redact`, never a mark of another module's own, and a file is written whole
 * (aside, flushed, renamed over) by `@orgreport/api-core/files`, never by a rename of a module's own.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));

/** The code lines of every package's and app's sources (tests, fixtures and test helpers left out, comments too). */
function sourceLines(): Array<{ where: string; line: string }> {
  const out: Array<{ where: string; line: string }> = [];
  const walk = (at: string) => {
    for (const e of readdirSync(join(root, at), { withFileTypes: true })) {
      const path = `${at}/${e.name}`;
      if (e.isDirectory()) {
        if (!['node_modules', 'dist', '__fixtures__', 'testing'].includes(e.name)) walk(path);
      } else if (/\.(?:ts|js|mjs)$/.test(e.name) && !/\.test(?:-d)?\./.test(e.name)) {
        readFileSync(join(root, path), 'utf8')
          .split('\n')
          .forEach((line, i) => {
            if (!/^\s*(?:\*|\/\*|\/\/)/.test(line)) out.push({ where: `${path}:${i + 1}`, line });
          });
      }
    }
  };
  for (const top of ['packages', 'apps']) {
    for (const dir of readdirSync(join(root, top))) {
      if (readdirSync(join(root, top, dir)).includes('src')) walk(`${top}/${dir}/src`);
    }
  }
  return out;
}

describe('one home', () => {
  const lines = sourceLines();

  it('for each default: every DEFAULT_* constant is declared once', () => {
    const declared = new Map<string, string[]>();
    for (const { where, line } of lines) {
      const name = /\bconst (DEFAULT_[A-Z0-9_]+)\s*[:=]/.exec(line)?.[1];
      if (name) declared.set(name, [...(declared.get(name) ?? []), where]);
    }
    expect(declared.get('DEFAULT_MIN_GROUP_SIZE')).toEqual(['packages/metrics/src/defaults.ts:7']);
    expect([...declared].filter(([, at]) => at.length > 1)).toEqual([]);
  });

  it("for secret redaction: the only mark written is api-core's, in redact.ts", () => {
    const marks = lines
      .filter(({ line }) => /(['"`])(?:\*{3}|\[redacted\])\1/.test(line))
      .map((l) => l.where);
    expect(marks).toEqual(['packages/api-core/src/redact.ts:15']);
  });

  it("for atomic file writes: only api-core's files.ts renames a temporary over a file", () => {
    // A call of the file system's rename (not a method such as a data frame's `.rename(`).
    const renames = new Set(
      lines
        .filter(({ line }) => /(?:^|[^.\w]|\bfs\.|\bpromises\.)rename(?:Sync)?\(/.test(line))
        .map((l) => l.where.replace(/:\d+$/, '')),
    );
    expect([...renames].sort()).toEqual([
      'packages/api-core/src/files.ts',
      // Commits a run's output set: files and folders that appear together, or not at all.
      'packages/pipeline/src/output/atomic.ts',
      // Moves an organization's dataset folder aside before the rebuilt one is moved in.
      'packages/store/src/rebuild.ts',
    ]);
  });
});
