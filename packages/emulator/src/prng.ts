/**
 * A small, fast, seeded pseudo-random toolkit. Every random choice of the emulator is drawn from a
 * stream keyed by integers such as (seed, user index, day), so any user's day can be derived on its
 * own, in any order, without generating the rest of the organization.
 */

function mix(h: number, part: number): number {
  let k = Math.imul(part | 0, 0xcc9e2d51);
  k = (k << 15) | (k >>> 17);
  k = Math.imul(k, 0x1b873593);
  let x = h ^ k;
  x = (x << 13) | (x >>> 19);
  x = (Math.imul(x, 5) + 0xe6546b64) | 0;
  // Fold in the high bits of large integers (ids, timestamps) too.
  return x ^ (Math.floor(part / 0x1_0000_0000) | 0);
}

function finish(h: number, length: number): number {
  let x = h ^ length;
  x ^= x >>> 16;
  x = Math.imul(x, 0x85ebca6b);
  x ^= x >>> 13;
  x = Math.imul(x, 0xc2b2ae35);
  x ^= x >>> 16;
  return x >>> 0;
}

/** Mixes a list of integers into one 32-bit unsigned hash (murmur3-style steps and finalizer). */
export function hash32(...parts: number[]): number {
  let h = 0x9e3779b9;
  for (const part of parts) h = mix(h, part);
  return finish(h, parts.length);
}

/** {@link hash32} of exactly four integers without allocating (the hot path: seed, user, day, tag). */
export function hash4(a: number, b: number, c: number, d: number): number {
  return finish(mix(mix(mix(mix(0x9e3779b9, a), b), c), d), 4);
}

/** A 32-bit hash of a string (FNV-1a), for keying streams by names or URLs. */
export function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** A seeded stream of random numbers (mulberry32) with the helpers the generators need. */
export class Rng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A stream keyed by several integers: `Rng.of(seed, user, day)`. */
  static of(...parts: number[]): Rng {
    return new Rng(hash32(...parts));
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) | 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** An integer in [min, max], both included. */
  range(min: number, max: number): number {
    return min + this.int(max - min + 1);
  }

  /** True with probability `p`. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  /** One element of a non-empty list. */
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)] as T;
  }

  /** The index chosen with probability proportional to `weights`. */
  weighted(weights: readonly number[]): number {
    let total = 0;
    for (const w of weights) total += w;
    let x = this.next() * total;
    for (let i = 0; i < weights.length; i++) {
      x -= weights[i] as number;
      if (x < 0) return i;
    }
    return weights.length - 1;
  }

  /** `k` distinct indices out of `n` (k is capped at n), in random order. */
  sample(n: number, k: number): number[] {
    const pool: number[] = [];
    for (let i = 0; i < n; i++) pool.push(i);
    const out: number[] = [];
    for (let i = 0; i < Math.min(k, n); i++) {
      const j = i + this.int(n - i);
      [pool[i], pool[j]] = [pool[j] as number, pool[i] as number];
      out.push(pool[i] as number);
    }
    return out;
  }

  /** A log-normally distributed factor with median 1 (`sigma` is the spread of its logarithm). */
  logNormal(sigma: number): number {
    // Irwin-Hall: the sum of four uniforms, centred and scaled, is close enough to a standard
    // normal for synthetic data and far cheaper than Box-Muller.
    const z = (this.next() + this.next() + this.next() + this.next() - 2) * 1.7320508075688772;
    return Math.exp(sigma * z);
  }

  /** Lowercase hexadecimal of `length` digits. */
  hex(length: number): string {
    let out = '';
    while (out.length < length) out += (this.int(0x10000) + 0x10000).toString(16).slice(1);
    return out.slice(0, length);
  }

  /** A UUID-formatted (version 4 layout) string. */
  uuid(): string {
    const h = this.hex(32);
    const variant = ((Number.parseInt(h[16] as string, 16) & 0x3) | 0x8).toString(16);
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
  }
}

/**
 * Splits `total` into integer parts proportional to `weights` (largest remainder), so the parts
 * always add up to `total` exactly.
 */
export function splitInteger(total: number, weights: readonly number[]): number[] {
  const k = weights.length;
  if (k === 0) return [];
  let sum = 0;
  for (let i = 0; i < k; i++) sum += weights[i] as number;
  const parts = new Array<number>(k).fill(0);
  if (sum <= 0) {
    parts[0] = total;
    return parts;
  }
  const remainders = new Array<number>(k);
  let rest = total;
  for (let i = 0; i < k; i++) {
    const exact = (total * (weights[i] as number)) / sum;
    const floor = Math.floor(exact);
    parts[i] = floor;
    remainders[i] = exact - floor;
    rest -= floor;
  }
  // Fewer than k units are left: each goes to the largest remaining fraction (first index on ties).
  for (; rest > 0; rest--) {
    let best = 0;
    for (let i = 1; i < k; i++) if ((remainders[i] as number) > (remainders[best] as number)) best = i;
    parts[best] = (parts[best] as number) + 1;
    remainders[best] = -1;
  }
  return parts;
}
