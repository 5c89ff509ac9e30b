/**
 * The examples of a Markdown page: its fenced code blocks, and the marker comment on the line before
 * a fence that says whether and how the example runs (docs/development.md, "Examples that run"):
 *
 *   <!-- example: run; prints "0 sent"; creates reports/outbox; needs slack -->
 *   <!-- example: not run (needs a real API key) -->
 *   <!-- example: same as README.md -->
 *
 * Directives of a run, separated by `;`: `prints "TEXT"` (the output holds TEXT), `creates PATH`
 * (a file or folder, `*` within a name), `exits N` (default 0), `needs SERVICE` (a server on
 * loopback, see services.ts), `timeout SECONDS` (default 240).
 */

export const SERVICES = ['smtp', 'slack', 'teams', 'webhook', 's3', 'ntfy'] as const;
export type Service = (typeof SERVICES)[number];

export interface RunMarker {
  run: true;
  prints: string[];
  creates: string[];
  exits: number;
  needs: Service[];
  timeoutSeconds: number;
}

export interface SkipMarker {
  run: false;
  reason: string;
  /** The page (repository path) where the same example runs: its commands, comments aside, are equal. */
  sameAs?: string;
}

export interface CodeBlock {
  /** 1-based line of the opening fence. */
  line: number;
  /** The first word of the fence's info string (`sh`), or '' without one. */
  lang: string;
  code: string;
  marker?: RunMarker | SkipMarker;
}

export interface PageExamples {
  /** The page's path as reports name it (relative to the repository). */
  page: string;
  blocks: CodeBlock[];
  /** Markers that cannot be read, and demo examples that carry none: `page:line: problem`. */
  problems: string[];
}

const MARKER = /^\s*<!--\s*example:(.*?)-->\s*$/;
const FENCE = /^(\s*)(`{3,}|~{3,})(.*)$/;
const SHELLS = new Set(['sh', 'bash', 'shell', 'console', 'zsh']);
const DEFAULT_TIMEOUT_SECONDS = 240;

/** Reads the marker's text after `example:`; throws with what is wrong. */
export function parseMarker(text: string): RunMarker | SkipMarker {
  const trimmed = text.trim();
  const same = /^same as (\S+)$/.exec(trimmed);
  if (same) return { run: false, reason: `runs as in ${same[1]}`, sameAs: same[1]! };
  const skip = /^not run\s*\((.+)\)$/.exec(trimmed);
  if (skip) return { run: false, reason: skip[1]!.trim() };
  if (trimmed.startsWith('not run')) throw new Error('"not run" needs its reason in brackets: not run (why)');
  const directives = splitDirectives(trimmed);
  if (directives[0] !== 'run') {
    throw new Error(
      `a marker is "run ...", "not run (why)" or "same as PAGE" (got "${directives[0] ?? ''}")`,
    );
  }
  const marker: RunMarker = {
    run: true,
    prints: [],
    creates: [],
    exits: 0,
    needs: [],
    timeoutSeconds: DEFAULT_TIMEOUT_SECONDS,
  };
  for (const directive of directives.slice(1)) {
    const [, name, argument = ''] = /^(\S+)\s*(.*)$/.exec(directive) ?? [];
    if (name === 'prints') {
      const quoted = /^"(.*)"$/.exec(argument);
      if (!quoted || quoted[1] === '')
        throw new Error(`prints takes a quoted text: prints "0 sent" (got ${argument})`);
      marker.prints.push(quoted[1]!);
    } else if (name === 'creates') {
      if (argument === '' || argument.startsWith('/') || argument.split('/').includes('..')) {
        throw new Error(`creates takes a path inside the example's folder (got "${argument}")`);
      }
      marker.creates.push(argument);
    } else if (name === 'exits' || name === 'timeout') {
      if (!/^\d+$/.test(argument)) throw new Error(`${name} takes a whole number (got "${argument}")`);
      if (name === 'exits') marker.exits = Number(argument);
      else marker.timeoutSeconds = Number(argument);
    } else if (name === 'needs') {
      if (!(SERVICES as readonly string[]).includes(argument)) {
        throw new Error(`needs takes one of ${SERVICES.join(', ')} (got "${argument}")`);
      }
      marker.needs.push(argument as Service);
    } else {
      throw new Error(`unknown directive "${directive}" (known: prints, creates, exits, needs, timeout)`);
    }
  }
  return marker;
}

/** `a; prints "x; y"; b` -> ['a', 'prints "x; y"', 'b']: a `;` inside quotes does not split. */
function splitDirectives(text: string): string[] {
  const parts: string[] = [];
  let current = '';
  let quoted = false;
  for (const char of text) {
    if (char === '"') quoted = !quoted;
    if (char === ';' && !quoted) {
      parts.push(current.trim());
      current = '';
    } else current += char;
  }
  if (quoted) throw new Error('a quote is not closed');
  parts.push(current.trim());
  return parts.filter((p) => p !== '');
}

/** An example that runs against the demo organization: a shell block that calls `--demo`. */
function isDemoExample(block: CodeBlock): boolean {
  return SHELLS.has(block.lang) && /(^|\s)--demo(\s|$)/m.test(block.code);
}

/** The code blocks of a page with their markers; `page` names it in problems. */
export function readExamples(page: string, text: string): PageExamples {
  const lines = text.split('\n');
  const blocks: CodeBlock[] = [];
  const problems: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i]!);
    if (!open) continue;
    const [, indent = '', fence = '', info = ''] = open;
    const end = lines.findIndex(
      (l, j) => j > i && l.trimStart().startsWith(fence) && l.trim().replaceAll(fence[0]!, '') === '',
    );
    const last = end === -1 ? lines.length : end;
    const code = lines
      .slice(i + 1, last)
      .map((l) => (l.startsWith(indent) ? l.slice(indent.length) : l.trimStart()))
      .join('\n');
    const block: CodeBlock = { line: i + 1, lang: info.trim().split(/\s+/)[0] ?? '', code };
    // The marker is the last line that is not blank before the fence.
    const at = lines.slice(0, i).findLastIndex((l) => l.trim() !== '');
    const marker = at === -1 ? null : MARKER.exec(lines[at]!);
    if (marker) {
      try {
        block.marker = parseMarker(marker[1]!);
      } catch (error) {
        problems.push(`${page}:${at + 1}: the example marker cannot be read: ${(error as Error).message}`);
      }
    } else if (isDemoExample(block)) {
      problems.push(
        `${page}:${i + 1}: this example runs against the demo but carries no marker: put ` +
          '<!-- example: run --> (or <!-- example: not run (why) -->) on the line before its fence',
      );
    }
    blocks.push(block);
    i = last;
  }
  return { page, blocks, problems };
}

/** A block's commands without their comments, to compare an example with its twin. */
function commands(code: string): string {
  return code
    .split('\n')
    .map((line) => line.replace(/(^|\s+)#\s.*$/, '').trimEnd())
    .filter((line) => line !== '')
    .join('\n');
}

/**
 * Examples marked `same as PAGE`: each must have a twin on PAGE that runs (the same commands,
 * comments aside), so that running it once checks both.
 */
export function checkTwins(pages: PageExamples[]): string[] {
  const problems: string[] = [];
  for (const page of pages) {
    for (const block of page.blocks) {
      const sameAs = block.marker?.run === false ? block.marker.sameAs : undefined;
      if (sameAs === undefined) continue;
      const twin = pages
        .find((p) => p.page === sameAs)
        ?.blocks.find((b) => b.marker?.run === true && commands(b.code) === commands(block.code));
      if (!twin) {
        problems.push(
          `${page.page}:${block.line}: this example is said to run as in ${sameAs}, but no example there that runs has the same commands`,
        );
      }
    }
  }
  return problems;
}
