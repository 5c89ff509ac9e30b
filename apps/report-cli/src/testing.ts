/**
 * In-memory I/O for calling `run()` in tests: captured stdout and stderr, an explicit environment,
 * a fixed clock and a stop signal the test controls.
 */
import { PassThrough } from 'node:stream';
import type { CliIo } from './io.ts';

export interface MemoryIo extends CliIo {
  /** Everything written to stdout so far. */
  out(): string;
  /** Everything written to stderr so far. */
  err(): string;
  stdin: PassThrough;
  /** Calls the `onStopSignal` listeners, as a signal would. */
  stop(signal?: string): void;
  /** The code `exit` was called with, if it was. */
  exited(): number | undefined;
}

/** An I/O for `run(argv, io)` with nothing from the process: the environment is exactly `env`. */
export function memoryIo(
  options: { env?: Record<string, string>; now?: string; cwd?: string } = {},
): MemoryIo {
  let out = '';
  let err = '';
  const listeners = new Set<(signal: string) => void>();
  let exitCode: number | undefined;
  const fixed = new Date(options.now ?? '2026-11-22T09:00:00Z');
  return {
    stdout: { write: (text: string) => (out += text) },
    stderr: { write: (text: string) => (err += text) },
    stdin: new PassThrough(),
    env: { ...options.env },
    now: () => new Date(fixed),
    cwd: options.cwd ?? process.cwd(),
    onStopSignal: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    exit: (code) => {
      exitCode = code;
    },
    out: () => out,
    err: () => err,
    stop: (signal = 'SIGTERM') => {
      for (const listener of [...listeners]) {
        listeners.delete(listener);
        listener(signal);
      }
    },
    exited: () => exitCode,
  };
}
