import { describe, expect, it } from 'vitest';
import { barChart, compactNumber, lineChart, rankingChart, truncateLabel } from './charts.ts';

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

  it('labels large axis values compactly', () => {
    expect(compactNumber(0)).toBe('0');
    expect(compactNumber(950)).toBe('950');
    expect(compactNumber(0.25)).toBe('0.25');
    expect(compactNumber(1_500)).toBe('1.5k');
    expect(compactNumber(50_000_000)).toBe('50M');
    expect(compactNumber(250_000_000)).toBe('250M');
    expect(compactNumber(1_250_000_000)).toBe('1.3B');
    expect(compactNumber(999_960)).toBe('1M'); // not "1000k"
    expect(compactNumber(-20_000)).toBe('-20k');
    const svg = rankingChart([
      { label: 'model-a', value: 320_000_000 },
      { label: 'model-b', value: 130_000_000 },
    ]);
    expect(svg).toMatch(/>\d+M</);
    expect(svg).not.toMatch(/\d{1,3},\d{3},\d{3}/);
    const bars = barChart(['w1', 'w2'], [{ name: 'credits', values: [90_000_000, 340_000_000] }]);
    expect(bars).toContain('>300M<');
  });
});
