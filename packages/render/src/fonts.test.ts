/**
 * The embedded fonts cut to the document's characters. Chromium is the judge of coverage: a
 * character the cut font lacks is drawn by the fallback font, so its width then depends on which
 * fallback is named; a character it has is drawn the same whatever the fallback.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { useTestBrowser } from './__fixtures__/browser.ts';
import { DEFAULT_FONT_FACES, fontFaceCss, glyphsOf } from './fonts.ts';

const TEXT = 'Credits rose 13.2% to 1,299,456,839 — Acme’s “what changed”: ▲ +4.2 pp, café, 5 × 3 ≥ 1…';

const browser = useTestBrowser();

/** Characters of `text` that "Report Sans" (from `css`) does not draw itself, at each weight. */
async function notCovered(css: string, text: string): Promise<string[]> {
  const page = await browser().newPage();
  try {
    await page.setContent(`<style>${css}</style><p>x</p>`);
    // Runs in the page (written as text: this package is typed without the DOM's types).
    const chars = [...new Set(text)].filter((c) => c.trim() !== '');
    return (await page.evaluate(`(async (chars) => {
      const missing = new Set();
      for (const weight of ['400', '700']) {
        await document.fonts.load(weight + ' 40px "Report Sans"', chars.join(''));
        const ctx = document.createElement('canvas').getContext('2d');
        const width = (fallback, c) => {
          ctx.font = weight + ' 40px "Report Sans", ' + fallback;
          return ctx.measureText(c).width;
        };
        for (const c of chars) if (width('serif', c) !== width('monospace', c)) missing.add(c);
      }
      return [...missing];
    })(${JSON.stringify(chars)})`)) as string[];
  } finally {
    await page.close();
  }
}

describe('fontFaceCss', () => {
  it('embeds each face as WOFF cut to the characters used, a fraction of the whole font', async () => {
    const css = await fontFaceCss(TEXT);
    const fonts = [
      ...css.matchAll(
        /url\(data:font\/woff;base64,([A-Za-z0-9+/=]+)\) format\('woff'\); font-weight: (\d+)/g,
      ),
    ];
    expect(fonts.map((m) => m[2])).toEqual(['400', '700']);
    for (const [i, face] of DEFAULT_FONT_FACES.entries()) {
      const whole = readFileSync(face.file).length;
      const cut = Buffer.from(fonts[i]![1]!, 'base64').length;
      expect(cut).toBeLessThan(whole / 10);
    }
    // The same text gives the same bytes (reports are reproducible).
    expect(await fontFaceCss(TEXT)).toBe(css);
  });

  it('draws every character of the text the whole font draws, and not one it was not cut for', async () => {
    const whole = DEFAULT_FONT_FACES.map(
      (f) =>
        `@font-face { font-family: 'Report Sans'; src: url(data:font/ttf;base64,${readFileSync(f.file).toString('base64')}) format('truetype'); font-weight: ${f.weight}; }`,
    ).join('\n');
    const css = await fontFaceCss(TEXT);
    // Noto Sans itself has no ▲ or ≥ (the system's fallback draws them in the report as well).
    expect(await notCovered(whole, TEXT)).toEqual(['▲', '≥']);
    expect(await notCovered(css, TEXT)).toEqual(['▲', '≥']);
    // A Cyrillic letter is in the whole Noto Sans but not in this cut: the check can fail.
    expect(await notCovered(css, 'Ж')).toEqual(['Ж']);
    expect(await notCovered(await fontFaceCss(`${TEXT}Ж`), 'Ж')).toEqual([]);
  });

  it('keeps printable ASCII always, both cases of each letter, and each character once, in order', () => {
    const glyphs = glyphsOf('ž€ž');
    expect(glyphs).toContain('Ž'); // a heading the style sheet upper-cases needs it
    expect(glyphs).toContain('~');
    expect(glyphs).toContain('A');
    expect([...glyphs].filter((c) => c === 'ž')).toHaveLength(1);
    expect(glyphs).toBe([...glyphs].sort().join(''));
  });
});
