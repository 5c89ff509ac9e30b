/**
 * What every stage of a run receives besides its settings: where it runs, the secrets to keep out
 * of anything shown, and where to register what a stop signal must undo. The CLI builds one per
 * command (with the process's signals); a program calling the pipeline uses {@link runContext}.
 */

/** The outside world a run may read: the working folder, the environment, the clock. */
export interface RunIo {
  /** Directory that relative paths are resolved against. */
  cwd: string;
  env: Record<string, string | undefined>;
  /** The real clock; a run's `today` replaces it for dates. */
  now: () => Date;
}

export interface RunContext {
  io: RunIo;
  /** Values that must never be printed (API keys, passwords); messages are scrubbed with them. */
  secrets: Set<string>;
  /**
   * Registers what to undo if a signal stops the run; the returned function unregisters it once
   * done. On a stop, every `work` cleanup runs (deliveries to wind down, a browser to close; the
   * last registered first), then every `leftovers` one (temporary files).
   */
  onStop(cleanup: () => Promise<unknown>, what?: StopCleanupKind): () => void;
  /**
   * Called between stages once a large stage's intermediates are garbage: after a report's model is
   * computed, before its documents are written. Left to itself, V8 collects them only once the
   * documents have allocated on top of them (at 100,000 users, about 300 MB of the compute's
   * arrays and objects, and 160 MB more peak memory). The CLI runs a full garbage collection here;
   * a program that owns its process may do the same, or leave this out.
   */
  releaseMemory?(): void;
}

/** A cleanup that stops work under way, or one that removes what stopped work left behind. */
export type StopCleanupKind = 'work' | 'leftovers';

/**
 * A context for a program that calls the pipeline: the process's folder, environment and clock
 * unless given, the secrets it names, and no signal handling (the program owns its signals).
 */
export function runContext(options: Partial<RunIo> & { secrets?: Iterable<string> } = {}): RunContext {
  return {
    io: {
      cwd: options.cwd ?? process.cwd(),
      env: options.env ?? process.env,
      now: options.now ?? (() => new Date()),
    },
    secrets: new Set([...(options.secrets ?? [])].filter(Boolean)),
    onStop: () => () => {},
  };
}
