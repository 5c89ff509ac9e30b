/**
 * Text from the data made safe to *display* (HTML and PDF; the workbook keeps the raw text):
 * bidirectional embedding, override and isolate controls are removed, so a name such as
 * "\u202Egnp.exe" cannot show as "exe.png". Right-to-left letters and the LRM/RLM marks stay.
 */

const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069]/g;

/** Text as HTML text or a double-quoted attribute value (what the page's own markup writes). */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** Removes bidirectional embedding/override/isolate controls from a string. */
export function withoutBidiControls(text: string): string {
  return text.replace(BIDI_CONTROLS, '');
}

/** Whether a string holds a control {@link withoutBidiControls} removes (no `g` flag: no state between tests). */
const HAS_BIDI_CONTROL = /[\u202A-\u202E\u2066-\u2069]/;

/**
 * Plain JSON with every string passed through {@link withoutBidiControls}. The input is never
 * changed: an array or object holding such a string somewhere is copied, the rest is shared with the
 * input (a 10,000-user model has none, and copying its hundreds of thousands of values costs about
 * 50 ms at every render).
 */
export function displaySafe<T>(value: T): T {
  if (typeof value === 'string')
    return (HAS_BIDI_CONTROL.test(value) ? withoutBidiControls(value) : value) as T;
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const safe = displaySafe(value[i]);
      if (safe === value[i]) continue;
      copy ??= value.slice();
      copy[i] = safe;
    }
    return (copy ?? value) as T;
  }
  let copy: Record<string, unknown> | undefined;
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    const safe = displaySafe(record[key]);
    if (safe === record[key]) continue;
    copy ??= { ...record };
    copy[key] = safe;
  }
  return (copy ?? value) as T;
}

/** Shortens display text to `max` code points with an ellipsis. */
export function shortText(value: unknown, max: number): string {
  if (value === null || value === undefined) return '';
  const chars = Array.from(String(value));
  return chars.length > max ? chars.slice(0, max - 1).join('') + '…' : chars.join('');
}
