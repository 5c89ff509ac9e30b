/**
 * The example runner itself, on pages written to fail (test/fixtures/docs-examples/): a broken
 * example fails and is named by page and line, with its output; what follows it does not run; a
 * text not printed, a file not created and a service sent nothing each fail; a demo example
 * without a marker, and a marker that cannot be read, are named. A page that passes shares its
 * folder and variables between its examples and keeps the machine's settings out.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkTwins, readExamples } from './docs-examples/markers.ts';
import { runPage } from './docs-examples/runner.ts';

const repo = fileURLToPath(new URL('..', import.meta.url));
const fixture = (name: string) => {
  const page = `test/fixtures/docs-examples/${name}`;
  return readExamples(page, readFileSync(`${repo}/${page}`, 'utf8'));
};

describe('the example runner', () => {
  it('fails on a broken example, naming its page and line, and runs nothing after it', async () => {
    const run = await runPage(fixture('broken-exit.md'), { repo });
    expect(run.ran).toBe(2);
    expect(run.failure).toMatch(
      /^test\/fixtures\/docs-examples\/broken-exit\.md:13: the example exited with 2 \(expected 0\)\n/,
    );
    // The CLI's own message, from the end of the output.
    expect(run.failure).toContain('--month "2026-13" is invalid');
  });

  it.each([
    ['broken-prints.md', ':4: the example did not print "0 sent, 30 already delivered"'],
    ['broken-creates.md', ':4: the example did not create reports/outbox/*.eml'],
    ['broken-needs.md', ':4: the example needs smtp, but the smtp server received nothing'],
  ])('fails %s when its stated outcome does not happen', async (name, problem) => {
    const run = await runPage(fixture(name), { repo });
    expect(run.failure?.split('\n')[0]).toBe(`test/fixtures/docs-examples/${name}${problem}`);
  });

  it('names a demo example without a marker and a marker it cannot read', () => {
    const page = fixture('unmarked.md');
    expect(page.problems).toEqual([
      expect.stringMatching(
        /^test\/fixtures\/docs-examples\/unmarked\.md:3: this example runs against the demo but carries no marker/,
      ),
      'test/fixtures/docs-examples/unmarked.md:7: the example marker cannot be read: prints takes a quoted text: prints "0 sent" (got 0 sent)',
    ]);
    expect(page.blocks.map((b) => b.marker?.run)).toEqual([undefined, undefined, false]);
  });

  it('holds an example said to run elsewhere to a twin there that runs', () => {
    const twin = fixture('twin.md');
    expect(checkTwins([twin, fixture('passing.md')])).toEqual([
      'test/fixtures/docs-examples/twin.md:15: this example is said to run as in test/fixtures/docs-examples/passing.md, but no example there that runs has the same commands',
    ]);
  });

  describe('on a page that passes', () => {
    const before = process.env.ORGREPORT_FORMATS;
    beforeAll(() => {
      process.env.ORGREPORT_FORMATS = 'docx';
    });
    afterAll(() => {
      if (before === undefined) delete process.env.ORGREPORT_FORMATS;
      else process.env.ORGREPORT_FORMATS = before;
    });

    it('shares the folder and the variables between examples, keeps the machine out, reaches the service', async () => {
      const run = await runPage(fixture('passing.md'), { repo });
      expect(run.failure).toBeUndefined();
      expect(run.ran).toBe(3);
    });
  });
});
