import { DEFAULT_KEYS, DRIFT } from '@orgreport/emulator';
import { describe, expect, it } from 'vitest';
import { run } from '../cli.ts';
import { type MemoryIo, memoryIo } from '../testing.ts';
import { faultOptions, parseFaultKinds, parseKeys } from './emulator.ts';

describe('parseKeys', () => {
  it('reads role:key pairs, any subset', () => {
    expect(parseKeys('owner:K1,manager:K2,member:K3')).toEqual({ owner: 'K1', manager: 'K2', member: 'K3' });
    expect(parseKeys('manager:only')).toEqual({ manager: 'only' });
  });

  it('names a bad part without echoing a key', () => {
    expect(() => parseKeys('admin:secret-value')).toThrow(/--keys: .*got a part "admin:\.\.\."/);
    expect(() => parseKeys('owner')).toThrow(/got a part "owner"/);
    expect(() => parseKeys('owner:')).toThrow(/--keys/);
  });
});

/** The base URL the emulator command prints once it listens. */
async function printedBaseUrl(io: MemoryIo): Promise<string> {
  for (let i = 0; i < 400; i++) {
    const url = /ORGREPORT_BASE_URL=(\S+)/.exec(io.out())?.[1];
    if (url) return url;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`the emulator did not start: ${io.err()}`);
}

describe('fault and drift flags', () => {
  it('reads fault kinds, each once, and names an unknown one with the known list', () => {
    expect(parseFaultKinds('rate-limit, drop,rate-limit')).toEqual(['rate-limit', 'drop']);
    expect(() => parseFaultKinds('rate-limit,timeout')).toThrow(
      /--fault-kinds: unknown fault "timeout" \(known: server-error, unavailable, rate-limit, drop, malformed\)/,
    );
  });

  it('builds fault options only with a rate, and refuses kinds or Retry-After without one', () => {
    expect(faultOptions({})).toBeUndefined();
    expect(faultOptions({ faultRate: '0.1' })).toEqual({ rate: 0.1 });
    expect(faultOptions({ faultRate: '1', faultKinds: 'rate-limit', retryAfter: '2' })).toEqual({
      rate: 1,
      kinds: ['rate-limit'],
      retryAfterSeconds: 2,
    });
    expect(() => faultOptions({ faultKinds: 'drop' })).toThrow(/--fault-kinds needs --fault-rate above 0/);
    expect(() => faultOptions({ faultRate: '0', retryAfter: '3' })).toThrow(
      /--retry-after needs --fault-rate/,
    );
    expect(() => faultOptions({ faultRate: '1', retryAfter: '-1' })).toThrow(
      /--retry-after: expected a number/,
    );
  });

  it('serves drifted rows and the chosen fault with its Retry-After', async () => {
    const io = memoryIo();
    const done = run(
      ['emulator', '--port', '0', '--users', '3', '--today', '2026-11-22', '--drift', '--quiet'].concat([
        '--fault-rate',
        '1',
        '--fault-kinds',
        'rate-limit',
        '--retry-after',
        '7',
      ]),
      io,
    );
    try {
      const baseUrl = await printedBaseUrl(io);
      const url = `${baseUrl}/api/v1/analytics/users?startDate=2026-10-01&endDate=2026-10-02`;
      const headers = { authorization: `Bearer ${DEFAULT_KEYS.manager}` };
      const limited = await fetch(url, { headers });
      expect(limited.status).toBe(429);
      expect(limited.headers.get('retry-after')).toBe('7');
      await limited.arrayBuffer();
    } finally {
      io.stop();
      expect(await done).toBe(0);
    }
  });

  it('serves the drift fields without faults', async () => {
    const io = memoryIo();
    const done = run(
      ['emulator', '--port', '0', '--users', '3', '--today', '2026-11-22', '--drift', '-q'],
      io,
    );
    try {
      const baseUrl = await printedBaseUrl(io);
      const url = `${baseUrl}/api/v1/analytics/users?startDate=2026-10-01&endDate=2026-10-31`;
      const response = await fetch(url, { headers: { authorization: `Bearer ${DEFAULT_KEYS.manager}` } });
      const body = (await response.json()) as { data: Array<Record<string, unknown>> };
      expect(response.status, JSON.stringify(body)).toBe(200);
      expect(body.data.length).toBeGreaterThan(0);
      expect(body.data.every((row) => DRIFT.extraField in row)).toBe(true);
    } finally {
      io.stop();
      expect(await done).toBe(0);
    }
  });
});
