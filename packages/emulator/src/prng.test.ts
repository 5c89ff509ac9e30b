import { describe, expect, it } from 'vitest';
import { hash4, hash32, Rng, splitInteger } from './prng.ts';

describe('splitInteger', () => {
  it('splits proportionally by largest remainder', () => {
    // 10 * [1,1,1]/3 = 3.33 each: floors 3,3,3 and the one left goes to the first (ties by index).
    expect(splitInteger(10, [1, 1, 1])).toEqual([4, 3, 3]);
    // 7 * [0.5, 0.25, 0.25] = 3.5, 1.75, 1.75: floors 3,1,1; remainders .5,.75,.75 -> 2nd and 3rd get one.
    expect(splitInteger(7, [0.5, 0.25, 0.25])).toEqual([3, 2, 2]);
    expect(splitInteger(0, [1, 2])).toEqual([0, 0]);
    expect(splitInteger(5, [0, 0])).toEqual([5, 0]);
  });

  it('always adds up to the total', () => {
    const r = new Rng(7);
    for (let k = 0; k < 200; k++) {
      const total = r.int(10_000);
      const weights = Array.from({ length: 1 + r.int(8) }, () => r.next());
      const parts = splitInteger(total, weights);
      expect(parts.reduce((a, b) => a + b, 0)).toBe(total);
      expect(parts.every((p) => Number.isInteger(p) && p >= 0)).toBe(true);
    }
  });
});

describe('Rng', () => {
  it('is reproducible per key and differs across keys', () => {
    const a = Rng.of(1, 2, 3);
    const b = Rng.of(1, 2, 3);
    const c = Rng.of(1, 2, 4);
    const sa = [a.next(), a.next(), a.next()];
    expect([b.next(), b.next(), b.next()]).toEqual(sa);
    expect([c.next(), c.next(), c.next()]).not.toEqual(sa);
    expect(hash32(1, 2)).not.toBe(hash32(2, 1));
  });

  it('draws floats in [0, 1) with a mean near one half', () => {
    const r = new Rng(42);
    let sum = 0;
    for (let i = 0; i < 10_000; i++) {
      const x = r.next();
      expect(x >= 0 && x < 1).toBe(true);
      sum += x;
    }
    expect(sum / 10_000).toBeGreaterThan(0.48);
    expect(sum / 10_000).toBeLessThan(0.52);
  });

  it('formats UUIDs', () => {
    expect(new Rng(3).uuid()).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
  });
});

describe('hash4', () => {
  it('equals hash32 of the same four integers', () => {
    const cases: [number, number, number, number][] = [
      [1, 2, 3, 4],
      [0, 0, 0, 0],
      [-5, 123456789, 20_000, 7],
      [2 ** 40, 1, 2, 3],
    ];
    for (const [a, b, c, d] of cases) {
      expect(hash4(a, b, c, d)).toBe(hash32(a, b, c, d));
    }
  });
});
