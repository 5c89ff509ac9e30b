/**
 * What a run of the CLI may touch in the outside world, injectable so that tests call `run()`
 * in-process with their own streams, environment and clock.
 */
import type { Readable } from 'node:stream';

import type { TextOut } from '@orgreport/pipeline/reporter';

export type { TextOut };

export interface CliIo {
  stdout: TextOut;
  stderr: TextOut;
  stdin: Readable;
  env: Record<string, string | undefined>;
  /** The real clock; `--today` replaces it for a run. */
  now: () => Date;
  /** Directory that relative paths are resolved against. */
  cwd: string;
  /**
   * Calls `listener` on the first stop signal (SIGINT, SIGTERM or SIGHUP) until the returned
   * function is called. While it listens, that signal does not end the process by itself: the
   * listener does, by {@link CliIo.exit}.
   */
  onStopSignal: (listener: (signal: string) => void) => () => void;
  /** Ends the process with `code` at once (after a stop signal, once the run has cleaned up). */
  exit: (code: number) => void;
}

const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** Calls `listener` once, on the first stop signal; the returned function stops listening. */
function onProcessStopSignal(listener: (signal: string) => void): () => void {
  const stop = (signal: string) => {
    off();
    listener(signal);
  };
  const off = () => {
    for (const s of STOP_SIGNALS) process.off(s, stop);
  };
  for (const s of STOP_SIGNALS) process.on(s, stop);
  return off;
}

/** The process's streams already made quiet on a closed pipe. */
const quieted = new WeakSet<NodeJS.WriteStream>();

/**
 * `stream` (the process's stdout or stderr), quiet once its reader has gone (`orgreport query ... |
 * head`): the closed pipe's EPIPE, and the writes after it, end nothing and print no stack; the
 * command goes on and exits as it would have. Any other error of the stream is thrown, as before.
 */
function quietOnClosedPipe(stream: NodeJS.WriteStream): NodeJS.WriteStream {
  if (quieted.has(stream)) return stream;
  quieted.add(stream);
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE' && error.code !== 'ERR_STREAM_DESTROYED') throw error;
  });
  return stream;
}

/** The process's own streams, environment, clock and signals. */
export function processIo(): CliIo {
  return {
    stdout: quietOnClosedPipe(process.stdout),
    stderr: quietOnClosedPipe(process.stderr),
    stdin: process.stdin,
    env: process.env,
    now: () => new Date(),
    cwd: process.cwd(),
    onStopSignal: onProcessStopSignal,
    exit: (code) => process.exit(code),
  };
}
