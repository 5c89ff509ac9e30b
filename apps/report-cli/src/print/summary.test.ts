import { describe, expect, it } from 'vitest';
import { summary } from './summary.ts';

describe('summary', () => {
  it('lists the files, then each warning, then the count line', () => {
    const text = summary([{ path: '/r/a.pdf', bytes: 2048 }], performance.now(), [], ['w one']);
    const lines = text.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ {2}\/r\/a\.pdf {2}\S/);
    expect(lines[1]).toBe('  warning: w one');
    expect(lines[2]).toMatch(/^done in \d+\.\d s: 1 output\(s\), 1 warning\(s\)$/);
    expect(summary([], performance.now(), [])).not.toContain('warning');
  });
});
