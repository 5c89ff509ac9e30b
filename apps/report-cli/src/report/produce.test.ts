import { describe, expect, it } from 'vitest';
import { summary } from './checks.ts';
import { blockedRequestsWarning } from './produce.ts';

describe('blockedRequestsWarning', () => {
  it('counts every blocked request and names the first three, each cut to a readable length', () => {
    const long = `http://x.example/${'a'.repeat(200)}`;
    const text = blockedRequestsWarning([
      'http://a.example/1',
      long,
      'https://b.example/font.woff',
      'http://c/',
    ]);
    expect(text).toMatch(/^the PDF page tried 4 outside request\(s\), all blocked/);
    expect(text).toContain('"http://a.example/1"');
    expect(text).toContain(`"${long.slice(0, 120)}..."`);
    expect(text).not.toContain(long);
    expect(text).not.toContain('http://c/');
    expect(text.endsWith(' and 1 more')).toBe(true);
  });
});

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
