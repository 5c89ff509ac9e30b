/** Starting {@link ./sync-child.ts} as a child process and following what it prints. */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { SyncChildArgs } from './sync-child.ts';

// The package folder: `--import tsx` resolves from there (the workspace root has tsx).
const packageDir = fileURLToPath(new URL('../..', import.meta.url));

/** Spawns a TypeScript script of this folder in a child Node process (the sources, through tsx). */
export function spawnScript(name: string, args: string[] = []): ChildProcess {
  return spawn(
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
}

export interface SyncChild {
  process: ChildProcess;
  /** Resolves with the first progress line of `stage` (rejects if the child exits first). */
  waitFor(stage: string): Promise<Record<string, unknown>>;
  /** Resolves when the child has exited: its exit code, or the signal that ended it. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>;
}

/** Starts a sync in a child Node process running the TypeScript sources. */
export function startSyncChild(args: SyncChildArgs): SyncChild {
  const child = spawnScript('./sync-child.ts', [JSON.stringify(args)]);
  const lines: Array<Record<string, unknown>> = [];
  const waiters: Array<() => void> = [];
  let buffered = '';
  let stderr = '';
  let done = false;
  child.stdout!.on('data', (chunk: Buffer) => {
    buffered += chunk.toString();
    let nl = buffered.indexOf('\n');
    while (nl >= 0) {
      lines.push(JSON.parse(buffered.slice(0, nl)));
      buffered = buffered.slice(nl + 1);
      nl = buffered.indexOf('\n');
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
    exited,
    waitFor(stage) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = lines.find((l) => l.stage === stage);
          if (found) resolve(found);
          else if (done) reject(new Error(`the sync child exited before "${stage}": ${stderr}`));
          else return;
          waiters.splice(waiters.indexOf(check), 1);
        };
        waiters.push(check);
        check();
      });
    },
  };
}

/** The JSON lines a child prints, one at a time, in order. */
export function jsonLines(child: ChildProcess): () => Promise<Record<string, unknown>> {
  const queue: Array<Record<string, unknown>> = [];
  const waiting: Array<(line: Record<string, unknown>) => void> = [];
  let buffered = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    buffered += chunk.toString();
    for (let nl = buffered.indexOf('\n'); nl >= 0; nl = buffered.indexOf('\n')) {
      const line = JSON.parse(buffered.slice(0, nl)) as Record<string, unknown>;
      buffered = buffered.slice(nl + 1);
      const w = waiting.shift();
      if (w) w(line);
      else queue.push(line);
    }
  });
  return () => {
    const line = queue.shift();
    return line ? Promise.resolve(line) : new Promise((resolve) => waiting.push(resolve));
  };
}
