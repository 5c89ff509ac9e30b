/**
 * Text from the data made safe to *display* (HTML and PDF; the workbook keeps the raw text):
 * bidirectional embedding, override and isolate controls are removed, so a name such as
 * "\u202Egnp.exe" cannot show as "exe.png". Right-to-left letters and the LRM/RLM marks stay.
 */

const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069]/g;

/** Removes bidirectional embedding/override/isolate controls from a string. */
export function withoutBidiControls(text: string): string {
  return text.replace(BIDI_CONTROLS, '');
}

/** A deep copy of plain JSON with every string passed through {@link withoutBidiControls}. */
export function displaySafe<T>(value: T): T {
  if (typeof value === 'string') return withoutBidiControls(value) as T;
  if (Array.isArray(value)) return value.map(displaySafe) as T;
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = displaySafe(v);
    return out as T;
  }
  return value;
}

/** Shortens display text to `max` code points with an ellipsis. */
export function shortText(value: unknown, max: number): string {
  if (value === null || value === undefined) return '';
  const chars = Array.from(String(value));
  return chars.length > max ? chars.slice(0, max - 1).join('') + '…' : chars.join('');
}
