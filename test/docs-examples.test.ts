/**
 * Every example of the README and the manual that is marked to run (docs/development.md, "Examples
 * that run") runs, page by page, in a fresh folder, with the built `orgreport`; what its marker
 * states (the text it prints, the files it creates, the service it sends to) is checked. A demo
 * example without a marker fails too, so none is left out.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkTwins, readExamples } from './docs-examples/markers.ts';
import { manualPages } from './docs-examples/pages.ts';
import { runPage } from './docs-examples/runner.ts';

const repo = fileURLToPath(new URL('..', import.meta.url));
const pages = manualPages(repo).map((page) => readExamples(page, readFileSync(`${repo}/${page}`, 'utf8')));
const runnable = pages.filter((p) => p.blocks.some((b) => b.marker?.run));

/** Two pages at a time: each runs the CLI, Chromium included, and the machine has few cores. */
const slots = semaphore(2);

describe('the examples of the README and the manual', () => {
  it('are each marked when they run against the demo, and run where they say they run', () => {
    expect(pages.flatMap((p) => p.problems)).toEqual([]);
    expect(checkTwins(pages)).toEqual([]);
    expect(runnable.map((p) => p.page)).toContain('README.md');
  });

  it.concurrent.each(runnable.map((p) => [p.page, p] as const))(
    '%s',
    async (_page, examples) => {
      const run = await slots(() => runPage(examples, { repo }));
      const timing = run.seconds
        .map((s) => `${examples.page}:${s.line} ${s.seconds.toFixed(1)} s`)
        .join(', ');
      console.log(`examples: ${timing}`);
      expect(run.failure).toBeUndefined();
      expect(run.ran).toBe(examples.blocks.filter((b) => b.marker?.run).length);
    },
    20 * 60_000,
  );
});

function semaphore(size: number): <T>(task: () => Promise<T>) => Promise<T> {
  let running = 0;
  const waiting: Array<() => void> = [];
  return async (task) => {
    if (running >= size) await new Promise<void>((resolve) => waiting.push(resolve));
    running++;
    try {
      return await task();
    } finally {
      running--;
      waiting.shift()?.();
    }
  };
}
