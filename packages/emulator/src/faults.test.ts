import { analyticsResponseSchema, tokensDaySchema, toolsDaySchema, userDaySchema } from '@orgreport/api-core';
import { describe, expect, it } from 'vitest';
import { HOSTILE_STRINGS } from './hostile.ts';
import { type EmulatorOptions, type RunningEmulator, startEmulator } from './index.ts';
import { FaultPlan } from './server/faults.ts';

const TODAY = '2026-11-22';
const PATH = '/api/v1/analytics/activity?startDate=2026-10-01&endDate=2026-10-03';

async function withEmulator<T>(options: Partial<EmulatorOptions>, run: (emu: RunningEmulator) => Promise<T>) {
  const emu = await startEmulator({ users: 20, today: TODAY, ...options });
  try {
    return await run(emu);
  } finally {
    await emu.close();
  }
}

async function attempt(emu: RunningEmulator, path = PATH) {
  try {
    const res = await fetch(`${emu.baseUrl}${path}`, {
      headers: { authorization: `Bearer ${emu.keys.owner}` },
    });
    const text = await res.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: res.status, retryAfter: res.headers.get('retry-after'), json, dropped: false };
  } catch {
    return { status: 0, retryAfter: null, json: undefined, dropped: true };
  }
}

describe('FaultPlan', () => {
  it('is reproducible per (seed, request, occurrence) and hits about the asked rate', () => {
    const a = new FaultPlan(1, { rate: 0.1 }, undefined);
    const b = new FaultPlan(1, { rate: 0.1 }, undefined);
    const drawsA = Array.from({ length: 2000 }, (_, i) => a.decide('GET', `/x?i=${i % 50}`).fault);
    const drawsB = Array.from({ length: 2000 }, (_, i) => b.decide('GET', `/x?i=${i % 50}`).fault);
    expect(drawsB).toEqual(drawsA);
    const share = drawsA.filter((f) => f !== null).length / 2000;
    expect(share).toBeGreaterThan(0.07);
    expect(share).toBeLessThan(0.13);
    expect(new Set(drawsA.filter((f) => f !== null))).toEqual(
      new Set(['server-error', 'unavailable', 'rate-limit', 'drop', 'malformed']),
    );
    const c = new FaultPlan(1, { rate: 0.1, seed: 2 }, undefined);
    expect(Array.from({ length: 2000 }, (_, i) => c.decide('GET', `/x?i=${i % 50}`).fault)).not.toEqual(
      drawsA,
    );
  });

  it('draws fixed or jittered latency', () => {
    expect(new FaultPlan(1, undefined, 25).decide('GET', '/a').delayMs).toBe(25);
    const jitter = new FaultPlan(1, undefined, { min: 10, max: 20 });
    const delays = Array.from({ length: 200 }, () => jitter.decide('GET', '/a').delayMs);
    expect(Math.min(...delays)).toBeGreaterThanOrEqual(10);
    expect(Math.max(...delays)).toBeLessThanOrEqual(20);
    expect(new Set(delays).size).toBeGreaterThan(3);
  });

  it('rejects invalid settings', () => {
    expect(() => new FaultPlan(1, { rate: 1.5 }, undefined)).toThrow(RangeError);
    expect(() => new FaultPlan(1, { rate: 0.1, kinds: ['explode' as never] }, undefined)).toThrow(RangeError);
    expect(() => new FaultPlan(1, undefined, -5)).toThrow(RangeError);
  });
});

describe('injected faults over HTTP', () => {
  it('answers 500 and 503 with the error body', async () => {
    await withEmulator({ faults: { rate: 1, kinds: ['server-error'] } }, async (emu) => {
      const r = await attempt(emu);
      expect(r.status).toBe(500);
      expect(r.json).toMatchObject({ status: 500 });
    });
    await withEmulator({ faults: { rate: 1, kinds: ['unavailable'] } }, async (emu) => {
      expect((await attempt(emu)).status).toBe(503);
    });
  });

  it('answers 429 with Retry-After', async () => {
    await withEmulator({ faults: { rate: 1, kinds: ['rate-limit'], retryAfterSeconds: 2 } }, async (emu) => {
      const r = await attempt(emu);
      expect(r.status).toBe(429);
      expect(r.retryAfter).toBe('2');
    });
  });

  it('drops the connection in the middle of the body', async () => {
    await withEmulator({ faults: { rate: 1, kinds: ['drop'] } }, async (emu) => {
      const r = await attempt(emu);
      expect(r.dropped).toBe(true);
      expect(emu.requestLog[0]).toMatchObject({ fault: 'drop', status: 200 });
      expect(emu.requestLog[0]!.bytes).toBeGreaterThan(0);
    });
  });

  it('sends malformed JSON with status 200', async () => {
    await withEmulator({ faults: { rate: 1, kinds: ['malformed'] } }, async (emu) => {
      const r = await attempt(emu);
      expect(r.status).toBe(200);
      expect(r.json).toBeUndefined();
      expect(emu.requestLog[0]!.fault).toBe('malformed');
    });
  });

  it('is reproducible: the same seed gives the same sequence of outcomes, and retries eventually succeed', async () => {
    const run = () =>
      withEmulator(
        { faults: { rate: 0.5, seed: 9, kinds: ['server-error', 'malformed', 'drop'] } },
        async (emu) => {
          const outcomes = [];
          for (let i = 0; i < 12; i++) outcomes.push(await attempt(emu));
          return {
            outcomes: outcomes.map((o) => (o.dropped ? 'drop' : o.json === undefined ? 'bad' : o.status)),
            log: emu.requestLog.map((l) => l.fault),
          };
        },
      );
    const first = await run();
    const second = await run();
    expect(second).toEqual(first);
    expect(first.outcomes).toContain(200);
    expect(first.outcomes.some((o) => o !== 200)).toBe(true);
  });

  it('adds latency and logs method, path, query, status, fault and bytes', async () => {
    await withEmulator({ latency: 60 }, async (emu) => {
      const started = performance.now();
      const r = await attempt(emu);
      expect(performance.now() - started).toBeGreaterThanOrEqual(55);
      expect(r.status).toBe(200);
      expect(emu.requestLog).toEqual([
        {
          requestId: 'emu-req-000001',
          method: 'GET',
          path: '/api/v1/analytics/activity',
          query: { startDate: '2026-10-01', endDate: '2026-10-03' },
          status: 200,
          fault: null,
          bytes: expect.any(Number),
          delayMs: 60,
          role: 'owner',
        },
      ]);
      expect(emu.requestLog[0]!.bytes).toBe(Buffer.byteLength(JSON.stringify(r.json)));
    });
  });
});

describe('hostile mode over HTTP', () => {
  it('serves hostile values that still validate against the schemas', async () => {
    await withEmulator({ users: 30, hostile: true }, async (emu) => {
      const q = 'startDate=2026-10-01&endDate=2026-10-31';
      const users = analyticsResponseSchema(userDaySchema).parse(
        (await attempt(emu, `/api/v1/analytics/users?${q}&limit=100`)).json,
      );
      expect(users.data.some((d) => (d.user_email ?? '').startsWith('='))).toBe(true);
      analyticsResponseSchema(tokensDaySchema).parse(
        (await attempt(emu, `/api/v1/analytics/tokens?${q}`)).json,
      );
      const tools = analyticsResponseSchema(toolsDaySchema).parse(
        (await attempt(emu, `/api/v1/analytics/tools?${q}`)).json,
      );
      const names = tools.data.flatMap((d) => d.by_tool.map((t) => t.tool));
      expect(names.some((n) => Object.values(HOSTILE_STRINGS).includes(n as never))).toBe(true);
    });
  });
});

describe('startEmulator options', () => {
  it('rejects a missing or invalid today, bad sizes and duplicate keys', async () => {
    await expect(startEmulator({} as EmulatorOptions)).rejects.toThrow(/today/);
    await expect(startEmulator({ today: '2026-13-01' })).rejects.toThrow(/today/);
    await expect(startEmulator({ today: '2026-01-14' })).rejects.toThrow(/today/);
    await expect(startEmulator({ today: TODAY, users: 0 })).rejects.toThrow(/users/);
    await expect(startEmulator({ today: TODAY, keys: { owner: 'same', manager: 'same' } })).rejects.toThrow(
      /keys/,
    );
    await expect(startEmulator({ today: TODAY, faults: { rate: 2 } })).rejects.toThrow(/rate/);
  });

  it('listens on the requested host and port and frees it on close', async () => {
    const first = await startEmulator({ users: 5, today: TODAY });
    const port = Number(new URL(first.baseUrl).port);
    await first.close();
    const again = await startEmulator({ users: 5, today: TODAY, port, host: '127.0.0.1' });
    try {
      expect(again.baseUrl).toBe(`http://127.0.0.1:${port}`);
      expect(again.appUrl).toBe(again.baseUrl);
    } finally {
      await again.close();
    }
  });
});
