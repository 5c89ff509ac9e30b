import { DEFAULT_KEYS, DRIFT } from '@orgreport/emulator';
import { describe, expect, it } from 'vitest';
import { run } from '../../cli.ts';
import { type MemoryIo, memoryIo } from '../../testing.ts';
import { faultOptions, parseFaultKinds, parseKeys, parsePlants } from './emulator.ts';

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

describe('--plant', () => {
  it('reads security changes and credit spikes', () => {
    expect(
      parsePlants(['security-change:2026-10-05:sandbox.enabled', 'credit-spike:8:2026-10-07:2.5']),
    ).toEqual([
      { kind: 'security-change', day: '2026-10-05', setting: 'sandbox.enabled' },
      { kind: 'credit-spike', user: 8, from: '2026-10-07', factor: 2.5 },
    ]);
  });

  it('names what is wrong with an event and how events are written', () => {
    expect(() => parsePlants(['outage:2026-10-05'])).toThrow(
      /--plant "outage:2026-10-05": unknown event "outage" \(expected security-change:/,
    );
    expect(() => parsePlants(['credit-spike:x:2026-10-07:2'])).toThrow(
      /user index "x" is not a whole number/,
    );
    expect(() => parsePlants(['credit-spike:1:2026-10-07:0'])).toThrow(/factor "0" is not a number above 0/);
    expect(() => parsePlants(['security-change:2026-13-05:sandbox.enabled'])).toThrow(
      /"2026-13-05" is not a day/,
    );
    expect(() => parsePlants(['security-change:2026-10-05'])).toThrow(/takes a day and a setting/);
  });

  it('serves the planted revision; a plant the organization cannot take is a usage error', async () => {
    const bad = memoryIo();
    const code = await run(
      [
        'emulator',
        '--port',
        '0',
        '--users',
        '3',
        '--today',
        '2026-11-22',
        '--plant',
        'credit-spike:9:2026-10-07:2',
      ],
      bad,
    );
    expect(code).toBe(2);
    expect(bad.err()).toMatch(/--plant: plant 1 \(credit-spike\): user must be a user index from 0 to 2/);

    const io = memoryIo();
    const done = run(
      ['emulator', '--port', '0', '--users', '3', '--today', '2026-11-22', '--quiet'].concat([
        '--plant',
        'security-change:2026-10-05:enableAgentShield',
      ]),
      io,
    );
    const base = await printedBaseUrl(io);
    const res = await fetch(`${base}/api/v0/organization/enterprise-controls/history?limit=100`, {
      headers: { authorization: `Bearer ${DEFAULT_KEYS.owner}` },
    });
    const body = (await res.json()) as { changes: Array<{ updatedAt: string; user: { email: string } }> };
    const planted = body.changes.find((c) => c.updatedAt === '2026-10-05T12:00:00.000Z');
    expect(planted?.user.email).toMatch(/0@acme-robotics\.example\.com$/);
    io.stop('SIGTERM');
    expect(await done).toBe(0);
  });
});
