/**
 * The report's fonts as `@font-face` rules with data: URLs, built from the system's Noto files at
 * render time, so the page loads nothing and the PDF embeds the fonts. Each font is cut down to the
 * characters the document uses (harfbuzz, through subset-font) and sent as WOFF: the same glyphs,
 * a tenth of the bytes. Not WOFF2: its Brotli pass costs about 200 ms per face against a few for
 * WOFF's zlib (internal/woff.ts), for a quarter fewer bytes (about 5 kB per face).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { sfntToWoff } from './internal/woff.ts';

/** subset-font (harfbuzz in WebAssembly), loaded on first use; it ships no types, so its one call is typed here. */
type SubsetFont = (font: Buffer, text: string, options?: { targetFormat?: 'truetype' }) => Promise<Buffer>;
const requireLazily = createRequire(import.meta.url);
const subsetFont: SubsetFont = (...args) => (requireLazily('subset-font') as SubsetFont)(...args);

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

const files = new Map<string, Buffer | null>();

/** The font file's bytes; null when it is missing (the style sheet then falls back to a system font). */
function fontFile(path: string): Buffer | null {
  if (!files.has(path)) {
    try {
      files.set(path, readFileSync(path));
    } catch {
      files.set(path, null);
    }
  }
  return files.get(path) ?? null;
}

/** Every printable ASCII character: what escaped markup and numbers may always need. */
const ASCII = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)).join('');

/**
 * The distinct characters of `text` in both cases (the style sheet upper-cases some headings) plus
 * printable ASCII, sorted (the same text gives the same subset).
 */
export function glyphsOf(text: string): string {
  // The distinct characters first: a page of 200 kB has a few hundred, each cased once.
  const distinct = new Set(text);
  const chars = new Set(ASCII);
  for (const c of distinct) {
    chars.add(c);
    for (const cased of [c.toUpperCase(), c.toLowerCase()]) if ([...cased].length === 1) chars.add(cased);
  }
  return [...chars].sort().join('');
}

function rule(face: FontFace, mime: string, format: string, bytes: Buffer): string {
  return `@font-face { font-family: '${face.family}'; src: url(data:${mime};base64,${bytes.toString('base64')}) format('${format}'); font-weight: ${face.weight}; font-style: ${face.style}; }`;
}

/** Faces cut lately, by file and characters: a distribution's reports share most of their pages' characters. */
const cut = new Map<string, Promise<string>>();
const CUT_KEPT = 16;

/** The face's `@font-face` rule embedding it cut to `glyphs` ('' when its file is missing). */
function embeddedRule(face: FontFace, glyphs: string): Promise<string> {
  const key = JSON.stringify([face, glyphs]);
  const known = cut.get(key);
  if (known) return known;
  const made = (async () => {
    const bytes = fontFile(face.file);
    if (!bytes) return '';
    try {
      // harfbuzz cuts the font; it is wrapped as WOFF here (subset-font's WOFF is JavaScript zlib).
      const woff = sfntToWoff(await subsetFont(bytes, glyphs, { targetFormat: 'truetype' }));
      return rule(face, 'font/woff', 'woff', woff);
    } catch {
      return rule(face, 'font/ttf', 'truetype', bytes);
    }
  })();
  if (cut.size >= CUT_KEPT) cut.delete(cut.keys().next().value!);
  cut.set(key, made);
  return made;
}

/**
 * CSS `@font-face` rules embedding the faces cut down to the characters of `text` (faces whose file
 * is missing are left out; a face that cannot be cut is embedded whole).
 */
export async function fontFaceCss(
  text: string,
  faces: ReadonlyArray<FontFace> = DEFAULT_FONT_FACES,
): Promise<string> {
  const glyphs = glyphsOf(text);
  const rules = await Promise.all(faces.map((face) => embeddedRule(face, glyphs)));
  return rules.filter(Boolean).join('\n');
}

/**
 * `@font-face` rules naming the faces as the system knows them (`local()`, by their PostScript name:
 * no request, no embedding): for printing on this machine, where Chromium reads the same files.
 */
export function localFontFaceCss(faces: ReadonlyArray<FontFace> = DEFAULT_FONT_FACES): string {
  return faces
    .map((face) => {
      const postscript = face.file.replace(/^.*\//, '').replace(/\.[a-z0-9]+$/i, '');
      return `@font-face { font-family: '${face.family}'; src: local('${postscript}'); font-weight: ${face.weight}; font-style: ${face.style}; }`;
    })
    .join('\n');
}

/** Where a page's `{{fontFaces}}` go until the document's characters are known (see {@link withFonts}). */
export const FONT_FACES_PLACEHOLDER = '/* orgreport:font-faces */';

/** How a page gets its fonts: embedded and cut to its characters, the system's by name (print), or none. */
export type PageFonts = 'embedded' | 'local' | 'none';

/**
 * The page with its `@font-face` rules filled in: embedded fonts are cut to the finished page's
 * characters; `local` names the system's Noto files instead, for Chromium printing on this machine
 * (the same glyphs, without cutting fonts on the way to the PDF).
 */
export async function withFonts(page: string, fonts: PageFonts): Promise<string> {
  const css = fonts === 'embedded' ? await fontFaceCss(page) : fonts === 'local' ? localFontFaceCss() : '';
  return page.replace(FONT_FACES_PLACEHOLDER, () => css);
}
