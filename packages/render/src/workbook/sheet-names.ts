/**
 * Excel's rules for sheet names: 1 to 31 characters, none of `: \ / ? * [ ]`, no apostrophe at
 * either end, not the reserved `History`, and unique ignoring letter case.
 */

/** The longest sheet name Excel accepts. */
export const MAX_SHEET_NAME_LENGTH = 31;

// biome-ignore lint/suspicious/noControlCharactersInRegex: Excel rejects control characters in sheet names.
const FORBIDDEN = /[:\\/?*[\]\u0000-\u001f]/g;

/** Turns any text into a valid sheet name (not yet unique). */
export function validSheetName(raw: string): string {
  let name = raw.replace(FORBIDDEN, ' ').replace(/\s+/g, ' ').trim();
  name = name.replace(/^'+|'+$/g, '').trim();
  if (name.toLowerCase() === 'history') name = 'History data';
  // Slice by code points so a surrogate pair is never cut in half.
  name = Array.from(name).slice(0, MAX_SHEET_NAME_LENGTH).join('').trim();
  return name.replace(/'+$/g, '') || 'Sheet';
}

/** Hands out valid sheet names that are unique within one workbook (`Users`, `Users (2)`, ...). */
export class SheetNames {
  private readonly taken = new Set<string>();

  /** Returns a valid, not yet used name derived from `raw`, and reserves it. */
  claim(raw: string): string {
    const base = validSheetName(raw);
    let name = base;
    for (let n = 2; this.taken.has(name.toLowerCase()); n++) {
      const suffix = ` (${n})`;
      name =
        Array.from(base)
          .slice(0, MAX_SHEET_NAME_LENGTH - suffix.length)
          .join('')
          .trimEnd() + suffix;
    }
    this.taken.add(name.toLowerCase());
    return name;
  }
}
