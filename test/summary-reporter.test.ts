/**
 * The test command's summary reporter (scripts/summary-reporter.ts): its one plain line, and its
 * watchdog, which ends a run whose teardown hangs with the run's result instead of holding CI.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const fixture = fileURLToPath(new URL('fixtures/hanging-teardown/vitest.config.ts', import.meta.url));

/** Runs vitest on the hanging fixture; resolves with its exit code, its output and how long it took. */
function runHangingFixture(
  env: Record<string, string>,
): Promise<{ code: number | null; out: string; ms: number }> {
  const started = Date.now();
  const child = spawn(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', '--config', fixture], {
    cwd: root,
    env: { ...process.env, CI: 'true', ...env },
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  // Bounded: a watchdog that fails leaves the child hanging, which this kill turns into a failed test.
  const kill = setTimeout(() => child.kill('SIGKILL'), 50_000);
  return new Promise((resolve) => {
    child.on('close', (code) => {
      clearTimeout(kill);
      resolve({ code, out, ms: Date.now() - started });
    });
  });
}

describe('the summary reporter', () => {
  it('ends a passing run whose teardown hangs, with exit code 0 and a line saying why', async () => {
    const run = await runHangingFixture({ EXIT_WITHIN_MS: '1500' });
    expect(run.out).toContain('\n2 passed, 0 failed\n');
    // The fixture's teardown waits on a timer: the line names it among what still holds the process.
    expect(run.out).toMatch(
      /vitest had not exited 1\.5 s after the run ended \(its teardown hangs; still open: [^)]*\bTimeout\b[^)]*\); exiting with the run's result \(0\)/,
    );
    expect(run.code).toBe(0);
  }, 60_000);

  it('ends a failing run whose teardown hangs with exit code 1', async () => {
    const run = await runHangingFixture({ EXIT_WITHIN_MS: '1500', FAIL_ONE: '1' });
    expect(run.out).toContain('\n1 passed, 1 failed\n');
    expect(run.out).toContain("exiting with the run's result (1)");
    expect(run.code).toBe(1);
  }, 60_000);
});
