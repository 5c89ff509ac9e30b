/**
 * Seeded latency and faults. A decision is keyed by (seed, method and URL, how many times that
 * request was seen), so a run is reproducible whatever the order of concurrent requests, and a
 * retried request gets a fresh draw.
 */
import { Readable } from 'node:stream';
import { hashString, Rng } from '../prng.ts';

/** The faults the emulator can inject. */
export const FAULT_KINDS = ['server-error', 'unavailable', 'rate-limit', 'drop', 'malformed'] as const;
/**
 * `server-error` 500, `unavailable` 503, `rate-limit` 429 with `Retry-After`, `drop` closes the
 * connection in the middle of the body, `malformed` sends a 200 whose JSON body is cut short.
 */
export type FaultKind = (typeof FAULT_KINDS)[number];

/** Fault injection settings. */
export interface FaultOptions {
  /** Share of requests that fail, 0 to 1. */
  rate: number;
  /** Which faults to draw from (uniformly). Default: all of them. */
  kinds?: readonly FaultKind[];
  /** Seed of the fault draws. Default: the organization seed. */
  seed?: number;
  /** Seconds sent in `Retry-After` on 429. Default 1. */
  retryAfterSeconds?: number;
}

/** Latency: a fixed number of milliseconds, or a seeded uniform draw in [min, max]. */
export type LatencyOption = number | { min: number; max: number };

/** Decides latency and faults for each request. */
export class FaultPlan {
  private readonly seen = new Map<string, number>();
  private readonly kinds: readonly FaultKind[];

  constructor(
    private readonly seed: number,
    private readonly faults: FaultOptions | undefined,
    private readonly latency: LatencyOption | undefined,
  ) {
    this.kinds = faults?.kinds?.length ? faults.kinds : FAULT_KINDS;
    if (faults && !(faults.rate >= 0 && faults.rate <= 1)) {
      throw new RangeError(`faults.rate must be from 0 to 1, got ${faults.rate}`);
    }
    for (const k of this.kinds) {
      if (!FAULT_KINDS.includes(k)) throw new RangeError(`unknown fault kind ${JSON.stringify(k)}`);
    }
    if (typeof latency === 'number' && !(latency >= 0))
      throw new RangeError(`latency must be >= 0, got ${latency}`);
    if (typeof latency === 'object' && !(latency.min >= 0 && latency.max >= latency.min)) {
      throw new RangeError('latency must be { min, max } with 0 <= min <= max');
    }
  }

  /** Seconds to send in `Retry-After`. */
  get retryAfterSeconds(): number {
    return this.faults?.retryAfterSeconds ?? 1;
  }

  /** The latency and fault of the next occurrence of a request. */
  decide(method: string, url: string): { delayMs: number; fault: FaultKind | null } {
    const key = `${method} ${url}`;
    const occurrence = (this.seen.get(key) ?? 0) + 1;
    this.seen.set(key, occurrence);
    const r = Rng.of(this.faults?.seed ?? this.seed, hashString(key), occurrence);
    const draw = r.next();
    const pick = r.next();
    const jitter = r.next();
    let delayMs = 0;
    if (typeof this.latency === 'number') delayMs = this.latency;
    else if (this.latency)
      delayMs = this.latency.min + Math.round(jitter * (this.latency.max - this.latency.min));
    const fault =
      this.faults && draw < this.faults.rate
        ? (this.kinds[Math.floor(pick * this.kinds.length)] as FaultKind)
        : null;
    return { delayMs, fault };
  }
}

/** A body stream that sends the first half of `payload`, then fails, so the socket is destroyed mid-body. */
export function droppingStream(payload: Buffer): Readable {
  const half = payload.subarray(0, Math.max(1, Math.floor(payload.length / 2)));
  let sent = false;
  return new Readable({
    read() {
      if (!sent) {
        sent = true;
        this.push(half);
        setImmediate(() => this.destroy(new Error('emulated connection drop')));
      }
    },
  });
}

/** A body cut short so it no longer parses as JSON. */
export function malformedBody(payload: string): string {
  const cut = payload.slice(0, Math.max(1, Math.floor(payload.length / 2)));
  return cut.endsWith('}') || cut.endsWith(']') ? `${cut},` : cut;
}

/** How much of a streamed body a fault looks at: the cut falls in the middle of this window. */
export const STREAM_FAULT_WINDOW = 1024 * 1024;

/**
 * A streamed body with a fault applied: reads up to `window` bytes of `source` (all of it when
 * shorter, giving exactly the bytes of the whole-body faults above), then either sends the first
 * half and fails (`drop`) or sends a cut-short JSON text and ends (`malformed`). The rest of the
 * source is never produced. `onBytes` receives the body bytes sent.
 */
export function faultyStream(
  source: Readable,
  fault: 'drop' | 'malformed',
  onBytes: (bytes: number) => void,
  window = STREAM_FAULT_WINDOW,
): Readable {
  const faulty = async function* () {
    const parts: Buffer[] = [];
    let size = 0;
    for await (const chunk of source) {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
      parts.push(bytes);
      size += bytes.length;
      if (size >= window) break; // leaving the loop destroys the source
    }
    // A body at least `window` long is cut as if it ended there.
    const seen = Buffer.concat(parts).subarray(0, window);
    if (fault === 'malformed') {
      const cut = Buffer.from(malformedBody(seen.toString()));
      onBytes(cut.length);
      yield cut;
      return;
    }
    const half = seen.subarray(0, Math.max(1, Math.floor(seen.length / 2)));
    onBytes(half.length);
    yield half;
    await new Promise<void>((resolve) => setImmediate(resolve));
    throw new Error('emulated connection drop');
  };
  return Readable.from(faulty(), { objectMode: false });
}
