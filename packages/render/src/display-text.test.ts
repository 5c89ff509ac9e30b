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

  it('copies only the arrays and objects on the way to a string it cleans, sharing the rest', () => {
    const clean = { users: [{ name: 'Ada', credits: 3 }], daily: [1, 2] };
    expect(displaySafe(clean)).toBe(clean);
    const input = { users: [{ name: 'Ada' }, { name: '\u202Eeve' }], daily: [1, 2] };
    const safe = displaySafe(input);
    expect(safe).toEqual({ users: [{ name: 'Ada' }, { name: 'eve' }], daily: [1, 2] });
    expect(safe.daily).toBe(input.daily);
    expect(safe.users[0]).toBe(input.users[0]);
    expect(input.users[1]!.name).toBe('\u202Eeve');
  });

  it('shortens by code points, never splitting an emoji', () => {
    expect(shortText('🚀🚀🚀', 2)).toBe('🚀…');
    expect(shortText('abc', 3)).toBe('abc');
    expect(shortText(null, 3)).toBe('');
  });
});
