import { describe, expect, it } from 'vitest';
import { formatBytes, Reporter } from './reporter.ts';

function stream(isTTY: boolean) {
  let text = '';
  return { isTTY, write: (s: string) => (text += s), text: () => text };
}

describe('Reporter', () => {
  it('prints one plain line per stage when not a terminal, and updates only at debug level', () => {
    const out = stream(false);
    const reporter = new Reporter(out, 'info');
    const stage = reporter.stage('fetch');
    stage.update('3 pages');
    stage.done('9 requests');
    expect(out.text()).toMatch(/^fetch: 9 requests \(\d+\.\d s\)\n$/);
  });

  it('redraws a live line on a terminal and clears it before the next line', () => {
    const out = stream(true);
    const reporter = new Reporter(out, 'info');
    const stage = reporter.stage('fetch');
    stage.update('1 pages');
    stage.done('done');
    const clear = '\r\u001b[2K';
    expect(out.text().startsWith(`${clear}fetch: 1 pages${clear}fetch: done (`)).toBe(true);
  });

  it('filters by level: --quiet shows errors only', () => {
    const out = stream(false);
    const reporter = new Reporter(out, 'error');
    reporter.info('hello');
    reporter.warn('careful');
    reporter.stage('fetch').done('x');
    reporter.error('broken');
    expect(out.text()).toBe('error: broken\n');
  });

  it('scrubs the secrets and redacts secret fields from every line', () => {
    const out = stream(false);
    const reporter = new Reporter(out, 'debug', () => ['test-key-owner']);
    reporter.debug('GET /x with test-key-owner', { authorization: 'Bearer abcdefgh', status: 200 });
    expect(out.text()).not.toContain('test-key-owner');
    expect(out.text()).not.toContain('abcdefgh');
    expect(out.text()).toContain('"status":200');
  });
});

describe('formatBytes', () => {
  it('uses decimal units, as its labels say, with one decimal', () => {
    expect(formatBytes(999)).toBe('999 B');
    expect(formatBytes(1500)).toBe('1.5 kB');
    expect(formatBytes(679_060)).toBe('679.1 kB');
    expect(formatBytes(999_960)).toBe('1.0 MB');
    expect(formatBytes(73_012_345)).toBe('73.0 MB');
    expect(formatBytes(5e9)).toBe('5.0 GB');
  });
});
