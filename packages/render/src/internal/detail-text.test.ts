import { describe, expect, it } from 'vitest';
import { detailLines, valueText } from './detail-text.ts';

describe('data-quality details as text', () => {
  it('reads MCP spellings as "name (count)" instead of JSON', () => {
    const lines = detailLines([
      {
        name: 'Linear',
        spellings: [
          { name: 'Linear', count: 1383 },
          { name: 'linear', count: 588 },
        ],
      },
    ]);
    expect(lines).toEqual(['name: Linear; spellings: Linear (1,383), linear (588)']);
    expect(lines.join('')).not.toMatch(/[{}"[\]]/);
  });

  it('treats any one-text-one-number object as a labelled count', () => {
    expect(valueText({ client: 'ide-plugin', user_days: 4200 })).toBe('ide-plugin (4,200)');
    expect(valueText({ level: 'auto-max', users: 3 })).toBe('auto-max (3)');
    // Three fields: key-value pairs, numbers formatted, nested lists comma-separated.
    expect(valueText({ dataset: 'tokens', fields: ['api_revision', 'x_meta'], rows: 61 })).toBe(
      'dataset: tokens; fields: api_revision, x_meta; rows: 61',
    );
    expect(valueText({ date: '2026-03-02', sum: 1.034 })).toBe('2026-03-02 (1.03)');
    expect(valueText({ a: null, b: true, c: [] })).toBe('a: n/a; b: yes; c: none');
    expect(valueText({ outer: { x: 1, y: 2 } })).toBe('outer: (x: 1; y: 2)');
  });

  it('cuts long lists with "and N more"', () => {
    const names = Array.from({ length: 20 }, (_, i) => ({ name: `s${i}`, count: 20 - i }));
    expect(valueText(names, 3)).toBe('s0 (20), s1 (19), s2 (18) and 17 more');
    const many = Array.from({ length: 15 }, (_, i) => ({ dataset: `d${i}`, dates: ['x'], n: 1 }));
    const lines = detailLines(many, { maxLines: 4 });
    expect(lines).toHaveLength(5);
    expect(lines[4]).toBe('and 11 more');
  });

  it('puts a list of plain values on one line', () => {
    expect(detailLines(['2026-03-01', '2026-03-02', '2026-03-03'], { maxLines: 2 })).toEqual([
      '2026-03-01, 2026-03-02 and 1 more',
    ]);
    expect(detailLines([])).toEqual([]);
    expect(detailLines('not a list')).toEqual([]);
  });
});
