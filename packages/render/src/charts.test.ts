import { describe, expect, it } from 'vitest';
import { barChart, lineChart, rankingChart, truncateLabel } from './charts.ts';

describe('charts', () => {
  it('renders identical SVG for identical input, even after other charts were rendered', () => {
    const draw = () =>
      lineChart(
        ['03-01', '03-02', '03-03'],
        [
          { name: 'DAU', values: [3, 5, null] },
          { name: 'WAU', values: [6, 7, 8] },
        ],
      );
    const first = draw();
    barChart(['a'], [{ name: 'x', values: [1] }]);
    expect(draw()).toBe(first);
    expect(first.startsWith('<svg')).toBe(true);
  });

  it('gives different charts different id prefixes so inlined charts do not share classes', () => {
    const a = barChart(['a'], [{ name: 'x', values: [1] }]);
    const b = barChart(['a'], [{ name: 'x', values: [2] }]);
    const prefix = (svg: string) => /class="(ch[0-9a-f]+)-/.exec(svg)?.[1];
    expect(prefix(a)).toBeTruthy();
    expect(prefix(a)).not.toBe(prefix(b));
  });

  it('escapes labels from the data', () => {
    const svg = rankingChart([{ label: '<img src=x onerror=alert(1)>', value: 3 }]);
    expect(svg).not.toContain('<img');
    expect(svg).toContain('&lt;img');
  });

  it('shortens long labels', () => {
    expect(Array.from(truncateLabel('x'.repeat(10_000)))).toHaveLength(40);
    expect(truncateLabel('short')).toBe('short');
  });
});
