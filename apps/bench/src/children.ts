/**
 * Starting the benchmark's child processes with the same loader flags as this one (tsx and the
 * source condition), and waiting for their messages.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { ChildMessage } from './protocol.ts';

/** A forked child and the messages it sent. */
export interface Child {
  process: ChildProcess;
  /** Resolves with the first message of `kind` (rejects if the child sends an error or exits first). */
  next<K extends ChildMessage['kind']>(kind: K): Promise<Extract<ChildMessage, { kind: K }>>;
  /** Resolves when the child has exited. */
  exited: Promise<number | null>;
  /** Called for every message. */
  onMessage(listener: (message: ChildMessage) => void): void;
}

/** Forks `script` (a file next to this one) with one JSON argument. */
export function forkChild(script: string, arg: unknown, extraExecArgv: string[] = []): Child {
  const path = fileURLToPath(new URL(script, import.meta.url));
  const child = fork(path, [JSON.stringify(arg)], {
    execArgv: [...process.execArgv, ...extraExecArgv],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const received: ChildMessage[] = [];
  const listeners: Array<(m: ChildMessage) => void> = [];
  let exitCode: number | null | undefined;
  const exited = new Promise<number | null>((resolve) => {
    child.on('exit', (code, signal) => {
      exitCode = code ?? (signal ? -1 : null);
      resolve(exitCode);
      for (const l of [...listeners]) l({ kind: 'error', message: `exited (${signal ?? code})` });
    });
  });
  child.on('message', (m) => {
    received.push(m as ChildMessage);
    for (const l of [...listeners]) l(m as ChildMessage);
  });
  return {
    process: child,
    exited,
    onMessage: (listener) => listeners.push(listener),
    next(kind) {
      return new Promise((resolve, reject) => {
        const found = received.find((m) => m.kind === kind);
        if (found) return resolve(found as never);
        if (exitCode !== undefined) return reject(new Error(`${script} exited (${exitCode})`));
        const listener = (m: ChildMessage) => {
          if (m.kind === kind) resolve(m as never);
          else if (m.kind === 'error') reject(new Error(`${script}: ${m.message}`));
          else return;
          listeners.splice(listeners.indexOf(listener), 1);
        };
        listeners.push(listener);
      });
    },
  };
}
