/**
 * What a run of the CLI may touch in the outside world, injectable so that tests call `run()`
 * in-process with their own streams, environment and clock.
 */
import type { Readable } from 'node:stream';

/** A writable text stream; `isTTY` decides between live progress and plain lines. */
export interface TextOut {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

export interface CliIo {
  stdout: TextOut;
  stderr: TextOut;
  stdin: Readable;
  env: Record<string, string | undefined>;
  /** The real clock; `--today` replaces it for a run. */
  now: () => Date;
  /** Directory that relative paths are resolved against. */
  cwd: string;
  /** Resolves when the process is asked to stop (SIGINT or SIGTERM); used by long-running commands. */
  untilStopped: () => Promise<string>;
}

/** The process's own streams, environment, clock and signals. */
export function processIo(): CliIo {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    env: process.env,
    now: () => new Date(),
    cwd: process.cwd(),
    untilStopped: () =>
      new Promise((resolve) => {
        const stop = (signal: string) => {
          process.off('SIGINT', stop);
          process.off('SIGTERM', stop);
          resolve(signal);
        };
        process.on('SIGINT', stop);
        process.on('SIGTERM', stop);
      }),
  };
}
