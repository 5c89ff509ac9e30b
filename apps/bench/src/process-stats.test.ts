/**
 * The memory another process wrote for the first time, read from /proc while it runs: a child that
 * fills 200 MB shows at least that much, and a process that is gone shows none.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { freshPagesMb } from './process-stats.ts';

describe('freshPagesMb', () => {
  it('counts the pages a running process has written, and nothing for one that is gone', async () => {
    const child = spawn(
      process.execPath,
      [
        '-e',
        "const a = new Float64Array(25e6); a.fill(1); console.log('filled'); setTimeout(() => {}, 60000)",
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    try {
      await once(child.stdout!, 'data');
      // 25 million doubles: 200 MB written once, beside what Node itself takes at start.
      expect(freshPagesMb(child.pid!)).toBeGreaterThanOrEqual(200);
    } finally {
      child.kill();
      await once(child, 'exit');
    }
    expect(freshPagesMb(child.pid!)).toBe(0);
  }, 30_000);
});
