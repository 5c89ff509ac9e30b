import { describe, expect, it } from 'vitest';
import { displaySafe, shortText, withoutBidiControls } from './display-text.ts';

describe('display text', () => {
  it('drops bidi embedding, override and isolate controls but keeps RTL letters and marks', () => {
    expect(withoutBidiControls('\u202Egnp.exe\u202C')).toBe('gnp.exe');
    expect(withoutBidiControls('a\u2066b\u2069c')).toBe('abc');
    expect(withoutBidiControls('\u200Fשלום\u200E')).toBe('\u200Fשלום\u200E');
  });

  it('cleans every string of a JSON value without touching numbers, nulls or the input', () => {
    const input = { a: ['\u202Ex', 1, null], b: { c: '\u202Dy', d: true } };
    expect(displaySafe(input)).toEqual({ a: ['x', 1, null], b: { c: 'y', d: true } });
    expect(input.a[0]).toBe('\u202Ex');
  });

  it('shortens by code points, never splitting an emoji', () => {
    expect(shortText('🚀🚀🚀', 2)).toBe('🚀…');
    expect(shortText('abc', 3)).toBe('abc');
    expect(shortText(null, 3)).toBe('');
  });
});
