/** The demo's HTML as a reader gets it: light (fonts cut to the text), every chart with a text alternative. */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from './helpers.ts';

describe('the demo HTML', () => {
  it('stays under 400 KB, and every chart is a named image followed by its data', async () => {
    const out = tempDir();
    const run = await cli(['monthly', '--demo', '--formats', 'html,json', '--out', out]);
    expect(run.code, run.err).toBe(0);
    const file = (ext: string) => join(out, readdirSync(out).find((f) => f.endsWith(ext))!);
    expect(statSync(file('.html')).size).toBeLessThan(400 * 1024);
    const html = readFileSync(file('.html'), 'utf8');
    const model = JSON.parse(readFileSync(file('.json'), 'utf8'));

    // Both faces embedded as WOFF, cut to the document's characters.
    expect([...html.matchAll(/format\('woff'\)/g)]).toHaveLength(2);

    const charts = [...html.matchAll(/<svg\b[^>]*>/g)].map((m) => m[0]);
    expect(charts.length).toBeGreaterThanOrEqual(8);
    for (const svg of charts) {
      expect(svg).toContain('role="img"');
      expect(svg).toMatch(/aria-label="[^"]{5,}"/);
    }
    // The data table of "Credits by day" holds the model's daily credits.
    const table =
      /<details class="chart-data"><summary>Credits by day: the data<\/summary><table>(.*?)<\/table><\/details>/.exec(
        html,
      )?.[1];
    expect(table).toBeDefined();
    const rows = [...table!.matchAll(/<tr><td>([^<]*)<\/td><td>([^<]*)<\/td><\/tr>/g)].map((m) => [
      m[1],
      m[2],
    ]);
    expect(rows).toEqual(
      model.daily.map((d: { date: string; credits: number }) => [
        d.date.slice(5),
        d.credits.toLocaleString('en-US'),
      ]),
    );
  });
});
