/**
 * Runs the examples of one page, in order, as a reader would paste them: each marked block is a bash
 * script (`set -eo pipefail`) run in one fresh folder per page, which the page's blocks share with
 * the variables they export and the folder they `cd` into. The folder holds what a clone gives a
 * reader (`node_modules`, `examples`, a `package.json`, so `pnpm exec orgreport` runs the built
 * command, and a bare `orgreport`, not on a reader's PATH, does not); nothing of the machine's own settings (no `ORGREPORT_*` variable, no
 * config file in `~/.config`) reaches it. The first block that fails ends the page: its exit code,
 * a text it does not print, a file it does not create, a service it sends nothing to.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CodeBlock, PageExamples, RunMarker } from './markers.ts';
import { type RunningService, startService } from './services.ts';

export interface PageRun {
  /** Blocks run, failed one included. */
  ran: number;
  /** `page:line: what went wrong`, with the end of the output; undefined when every block passed. */
  failure?: string;
  /** Seconds each block took, by line. */
  seconds: Array<{ line: number; seconds: number }>;
}

export interface RunOptions {
  /** The repository, whose `node_modules` and `examples` the folder links. */
  repo: string;
}

/** Variables of the machine that would change what an example does. */
const MACHINE_SETTINGS = /^(ORGREPORT_|NTFY_|AWS_|TEAMS_)/;
const OUTPUT_LINES = 40;

export async function runPage(examples: PageExamples, options: RunOptions): Promise<PageRun> {
  const blocks = examples.blocks.filter(
    (b): b is CodeBlock & { marker: RunMarker } => b.marker?.run === true,
  );
  const root = mkdtempSync(join(tmpdir(), 'orgreport-examples-'));
  const work = join(root, 'work');
  const state = join(root, 'state');
  mkdirSync(work);
  mkdirSync(state);
  symlinkSync(join(options.repo, 'node_modules'), join(work, 'node_modules'));
  symlinkSync(join(options.repo, 'examples'), join(work, 'examples'));
  writeFileSync(join(work, 'package.json'), '{ "name": "orgreport-docs-example", "private": true }\n');

  const needed = [...new Set(blocks.flatMap((b) => b.marker.needs))];
  const code = blocks.map((b) => b.code).join('\n');
  const services = new Map<string, RunningService>();
  const run: PageRun = { ran: 0, seconds: [] };
  try {
    for (const service of needed) services.set(service, await startService(service, { code }));
    const env: Record<string, string> = {};
    for (const [name, value] of Object.entries(process.env)) {
      if (value !== undefined && !MACHINE_SETTINGS.test(name)) env[name] = value;
    }
    Object.assign(env, {
      // The machine's PATH without any node_modules/.bin (pnpm run adds the workspace's): a page
      // that writes a bare `orgreport` fails here as it fails for a reader who pastes it.
      PATH: (process.env.PATH ?? '')
        .split(':')
        .filter((dir) => !/node_modules[\\/]\.bin/.test(dir))
        .join(':'),
      XDG_CONFIG_HOME: join(state, 'config'),
      NO_COLOR: '1',
    });
    for (const service of services.values()) Object.assign(env, service.env);

    for (const block of blocks) {
      run.ran++;
      const where = `${examples.page}:${block.line}`;
      const before = new Map([...services].map(([name, s]) => [name, s.received()]));
      let script = block.code;
      for (const service of services.values()) {
        for (const [placeholder, address] of Object.entries(service.addresses)) {
          script = script.replaceAll(placeholder, address);
        }
      }
      const started = Date.now();
      const result = await runScript(script, {
        work,
        state,
        env,
        timeoutSeconds: block.marker.timeoutSeconds,
      });
      run.seconds.push({ line: block.line, seconds: (Date.now() - started) / 1000 });
      const problem = result.timedOut
        ? `did not finish within ${block.marker.timeoutSeconds} s`
        : result.code !== block.marker.exits
          ? `exited with ${result.code} (expected ${block.marker.exits})`
          : (block.marker.prints
              .filter((text) => !result.output.includes(text))
              .map((text) => `did not print "${text}"`)[0] ??
            block.marker.creates
              .filter((path) => !exists(work, path))
              .map((path) => `did not create ${path}`)[0] ??
            block.marker.needs
              .filter((name) => services.get(name)!.received() === before.get(name))
              .map((name) => `needs ${name}, but the ${name} server received nothing`)[0]);
      if (problem !== undefined) {
        run.failure = `${where}: the example ${problem}\n${firstLines(block.code)}\n--- its output (end) ---\n${lastLines(result.output)}`;
        break;
      }
    }
  } finally {
    for (const service of services.values()) await service.close();
  }
  return run;
}

interface ScriptResult {
  code: number | null;
  output: string;
  timedOut: boolean;
}

/**
 * Runs `code` with bash in the page's folder, after the variables and folder the previous blocks
 * left (in `state`), and saves them for the next. Its process group is ended afterwards, so that
 * what it started in the background (an emulator) does not outlive it.
 */
function runScript(
  code: string,
  options: { work: string; state: string; env: Record<string, string>; timeoutSeconds: number },
): Promise<ScriptResult> {
  const saved = join(options.state, 'env.sh');
  const script = join(options.state, 'block.sh');
  writeFileSync(
    script,
    [
      'set -eo pipefail',
      `if [ -f ${quote(saved)} ]; then . ${quote(saved)}; fi`,
      code,
      `{ export -p; printf 'cd %q\\n' "$PWD"; } > ${quote(saved)}`,
      '',
    ].join('\n'),
  );
  return new Promise((resolve, reject) => {
    const child = spawn('bash', [script], {
      cwd: options.work,
      env: options.env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      endGroup(child.pid, 'SIGKILL');
    }, options.timeoutSeconds * 1000);
    child.on('error', reject);
    let code: number | null = null;
    // What the script left running in the background holds the pipes open: end it when bash exits.
    child.on('exit', (exitCode) => {
      code = exitCode;
      clearTimeout(timer);
      endGroup(child.pid, 'SIGTERM');
      setTimeout(() => endGroup(child.pid, 'SIGKILL'), 5000).unref();
    });
    child.on('close', () => resolve({ code, output, timedOut }));
  });
}

function endGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // The group has ended already.
  }
}

const quote = (text: string) => `'${text.replaceAll("'", "'\\''")}'`;

/** Whether `path` (relative to `dir`, `*` standing for any characters within a name) exists. */
function exists(dir: string, path: string): boolean {
  const [first, ...rest] = path.split('/').filter((p) => p !== '');
  if (first === undefined) return true;
  if (!first.includes('*')) return existsSync(join(dir, first)) && exists(join(dir, first), rest.join('/'));
  const pattern = new RegExp(`^${first.split('*').map(escapeRegExp).join('.*')}$`);
  if (!existsSync(dir)) return false;
  return readdirSync(dir).some((name) => pattern.test(name) && exists(join(dir, name), rest.join('/')));
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const firstLines = (code: string) =>
  code
    .split('\n')
    .slice(0, 3)
    .map((l) => `  $ ${l}`)
    .join('\n');
const lastLines = (output: string) => output.trimEnd().split('\n').slice(-OUTPUT_LINES).join('\n');
