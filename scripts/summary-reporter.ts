import type { RunnerTask, RunnerTestFile } from 'vitest';
import type { Reporter } from 'vitest/node';

export interface SummaryReporterOptions {
  /**
   * Milliseconds the process may take to exit once the run has ended (default 120 s). Vitest's
   * worker pool has been seen to hang in its teardown after every test passed, holding a CI job
   * until its time limit; past this, the process exits with the run's result and says why.
   */
  exitWithinMs?: number;
  /** How the process exits (tests replace it). */
  exit?: (code: number) => void;
  /** Where the summary line and the watchdog's message go (tests replace it). */
  write?: (text: string) => void;
}

/**
 * Ends the run with one plain line, `N passed, N failed`, that any CI can read, printed after
 * vitest's own summary; then makes sure the process ends (see {@link SummaryReporterOptions.exitWithinMs}).
 */
export default class SummaryReporter implements Reporter {
  readonly #exitWithinMs: number;
  readonly #exit: (code: number) => void;
  readonly #write: (text: string) => void;

  constructor(options: SummaryReporterOptions = {}) {
    this.#exitWithinMs = options.exitWithinMs ?? 120_000;
    this.#exit = options.exit ?? ((code) => process.exit(code));
    this.#write = options.write ?? ((text) => process.stdout.write(text));
  }

  onFinished(files: RunnerTestFile[] = [], errors: unknown[] = []): void {
    const counts = { passed: 0, failed: errors.length, skipped: 0 };
    const visit = (task: RunnerTask): void => {
      if (task.type === 'suite') {
        if (task.result?.state === 'fail' && task.tasks.length === 0) counts.failed++; // a file that failed to load
        task.tasks.forEach(visit);
        return;
      }
      const state = task.result?.state;
      if (state === 'pass') counts.passed++;
      else if (state === 'fail') counts.failed++;
      else counts.skipped++;
    };
    files.forEach(visit);
    const skipped = counts.skipped ? `, ${counts.skipped} skipped` : '';
    this.#write(`\n${counts.passed} passed, ${counts.failed} failed${skipped}\n`);
    // Unref'd: a process that ends on its own never waits for this timer.
    setTimeout(() => {
      const code = counts.failed > 0 || (process.exitCode !== undefined && process.exitCode !== 0) ? 1 : 0;
      // What still holds the event loop open names the culprit for whoever reads the CI log.
      const holding = [...new Set(process.getActiveResourcesInfo())].join(', ') || 'nothing visible';
      this.#write(
        `vitest had not exited ${this.#exitWithinMs / 1000} s after the run ended (its teardown hangs; still open: ${holding}); exiting with the run's result (${code})\n`,
      );
      this.#exit(code);
    }, this.#exitWithinMs).unref();
  }
}
