import type { RunnerTask, RunnerTestFile } from 'vitest';
import type { Reporter } from 'vitest/node';

/**
 * Ends the run with one plain line, `N passed, N failed`, that any CI can read,
 * printed after vitest's own summary.
 */
export default class SummaryReporter implements Reporter {
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
    process.stdout.write(`\n${counts.passed} passed, ${counts.failed} failed${skipped}\n`);
  }
}
