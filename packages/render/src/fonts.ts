/**
 * The report's fonts as `@font-face` rules with data: URLs, built from the system's Noto files at
 * render time, so the page loads nothing and the PDF embeds the fonts.
 */
import { readFileSync } from 'node:fs';

/** One font file to embed under a family name, weight and style. */
export interface FontFace {
  family: string;
  file: string;
  weight: number;
  style: 'normal' | 'italic';
}

const NOTO_DIR = '/usr/share/fonts/truetype/noto';

/** Noto Sans regular and bold from Debian's fonts-noto-core. */
export const DEFAULT_FONT_FACES: ReadonlyArray<FontFace> = [
  { family: 'Report Sans', file: `${NOTO_DIR}/NotoSans-Regular.ttf`, weight: 400, style: 'normal' },
  { family: 'Report Sans', file: `${NOTO_DIR}/NotoSans-Bold.ttf`, weight: 700, style: 'normal' },
];

const cache = new Map<string, string>();

function dataUrl(file: string): string | null {
  let url = cache.get(file);
  if (url === undefined) {
    try {
      url = `data:font/ttf;base64,${readFileSync(file).toString('base64')}`;
    } catch {
      // A missing font file falls back to the system font named in the style sheet.
      url = '';
    }
    cache.set(file, url);
  }
  return url || null;
}

/** CSS `@font-face` rules embedding the given faces (faces whose file is missing are left out). */
export function fontFaceCss(faces: ReadonlyArray<FontFace> = DEFAULT_FONT_FACES): string {
  return faces
    .map((face) => {
      const url = dataUrl(face.file);
      if (!url) return '';
      return `@font-face { font-family: '${face.family}'; src: url(${url}) format('truetype'); font-weight: ${face.weight}; font-style: ${face.style}; }`;
    })
    .filter(Boolean)
    .join('\n');
}
