/** Starting a script of this folder in a child Node process (the TypeScript sources, through tsx) and following its JSON lines. */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

// The package folder: `--import tsx` resolves from there.
const packageDir = fileURLToPath(new URL('../..', import.meta.url));

export interface ScriptChild {
  process: ChildProcess;
  /** Every JSON line printed so far. */
  lines: Array<Record<string, unknown>>;
  /** Resolves with the first line that `match` accepts (rejects if the child exits first). */
  waitFor(match: (line: Record<string, unknown>) => boolean): Promise<Record<string, unknown>>;
  /** Resolves when the child has exited: its code, or the signal that ended it. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>;
}

/** Spawns `name` (a TypeScript file of this folder) with `args`. */
export function spawnScript(name: string, args: string[]): ScriptChild {
  const child = spawn(
    process.execPath,
    [
      '--conditions=@orgreport/source',
      '--import',
      'tsx',
      fileURLToPath(new URL(name, import.meta.url)),
      ...args,
    ],
    { cwd: packageDir, stdio: ['pipe', 'pipe', 'pipe'] },
  );
  const lines: Array<Record<string, unknown>> = [];
  const waiters = new Set<() => void>();
  let buffered = '';
  let stderr = '';
  let done = false;
  child.stdout!.on('data', (chunk: Buffer) => {
    buffered += chunk.toString();
    for (let nl = buffered.indexOf('\n'); nl >= 0; nl = buffered.indexOf('\n')) {
      lines.push(JSON.parse(buffered.slice(0, nl)));
      buffered = buffered.slice(nl + 1);
    }
    for (const w of [...waiters]) w();
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>(
    (resolve) =>
      child.once('close', (code, signal) => {
        done = true;
        for (const w of [...waiters]) w();
        resolve({ code, signal, stderr });
      }),
  );
  return {
    process: child,
    lines,
    exited,
    waitFor(match) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = lines.find(match);
          if (found) resolve(found);
          else if (done) reject(new Error(`the child exited before the line awaited: ${stderr}`));
          else return;
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      });
    },
  };
}
