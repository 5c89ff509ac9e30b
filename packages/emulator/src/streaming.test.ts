import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { type EmulatorOptions, type RunningEmulator, startEmulator } from './index.ts';
import { faultyStream } from './server/faults.ts';
import { dataEnvelope } from './server/json-body.ts';

const TODAY = '2026-11-22';
const RANGE = 'startDate=2026-09-25&endDate=2026-10-06';
const PATHS = [
  `/api/v1/analytics/tokens?${RANGE}`,
  `/api/v1/analytics/tokens?${RANGE}&group_by=model`,
  `/api/v1/analytics/tools?${RANGE}`,
  `/api/v1/analytics/tools?${RANGE}&group_by=tool_name`,
  `/api/v1/analytics/activity?${RANGE}`,
  `/api/v1/analytics/activity?${RANGE}&group_by=client`,
  `/api/v1/analytics/productivity?${RANGE}`,
];

async function withEmulator<T>(options: Partial<EmulatorOptions>, run: (emu: RunningEmulator) => Promise<T>) {
  const emu = await startEmulator({ users: 40, today: TODAY, ...options });
  try {
    return await run(emu);
  } finally {
    await emu.close();
  }
}

async function get(emu: RunningEmulator, path: string) {
  const res = await fetch(`${emu.baseUrl}${path}`, {
    headers: { authorization: `Bearer ${emu.keys.owner}` },
  });
  return { res, text: await res.text() };
}

async function* numbers(count: number, produced: { n: number }) {
  for (let i = 0; i < count; i++) {
    produced.n++;
    yield { i, pad: 'x'.repeat(1000) };
  }
}

describe('streamed analytics bodies', () => {
  it('are byte-identical to the bodies built as one string, for every analytics endpoint', async () => {
    const whole = await withEmulator({ drift: true }, (emu) => Promise.all(PATHS.map((p) => get(emu, p))));
    const streamed = await withEmulator({ drift: true, streamAbove: 0 }, (emu) =>
      Promise.all(PATHS.map((p) => get(emu, p))),
    );
    PATHS.forEach((path, i) => {
      const a = whole[i]!;
      const b = streamed[i]!;
      expect(b.res.status, path).toBe(200);
      expect(b.text, path).toBe(a.text);
      expect(b.text, path).toBe(JSON.stringify(JSON.parse(a.text)));
      expect(b.res.headers.get('content-type')).toBe(a.res.headers.get('content-type'));
      // One string has a length; a stream is sent in chunks.
      expect(a.res.headers.get('content-length')).toBe(String(Buffer.byteLength(a.text)));
      expect(b.res.headers.get('transfer-encoding')).toBe('chunked');
    });
  });

  it('log the bytes actually sent', async () => {
    await withEmulator({ streamAbove: 0 }, async (emu) => {
      const { text } = await get(emu, PATHS[0] as string);
      expect(emu.requestLog[0]!.bytes).toBe(Buffer.byteLength(text));
    });
  });

  it('keep the malformed fault: the same cut-short body as a whole-string response', async () => {
    const faults = { rate: 1, kinds: ['malformed' as const] };
    const whole = await withEmulator({ faults }, (emu) => get(emu, PATHS[2] as string));
    const streamed = await withEmulator({ faults, streamAbove: 0 }, async (emu) => {
      const r = await get(emu, PATHS[2] as string);
      expect(emu.requestLog[0]).toMatchObject({ fault: 'malformed', status: 200 });
      expect(emu.requestLog[0]!.bytes).toBe(Buffer.byteLength(r.text));
      return r;
    });
    expect(streamed.res.status).toBe(200);
    expect(() => JSON.parse(streamed.text)).toThrow();
    expect(streamed.text).toBe(whole.text);
  });

  it('keep the drop fault: the connection closes in the middle of the body', async () => {
    await withEmulator({ faults: { rate: 1, kinds: ['drop'] }, streamAbove: 0 }, async (emu) => {
      await expect(get(emu, PATHS[0] as string)).rejects.toThrow();
      expect(emu.requestLog[0]).toMatchObject({ fault: 'drop', status: 200 });
      expect(emu.requestLog[0]!.bytes).toBeGreaterThan(0);
    });
  });

  it('produce rows only as the body is read (backpressure), never the whole body at once', async () => {
    const produced = { n: 0 };
    const body = await dataEnvelope(numbers(20_000, produced), { m: 1 }, 64 * 1024);
    expect(body).toBeInstanceOf(Readable);
    const iterator = (body as Readable)[Symbol.asyncIterator]();
    await iterator.next();
    // 20 MB of rows; after the first chunk only a small part of them exists.
    expect(produced.n).toBeLessThan(2000);
    let text = '';
    for (let step = await iterator.next(); !step.done; step = await iterator.next())
      text += String(step.value);
    expect(produced.n).toBe(20_000);
    expect(text.endsWith('],"meta":{"m":1}}')).toBe(true);
  });

  it('stop producing rows when a fault cuts a long body short', async () => {
    const produced = { n: 0 };
    const body = (await dataEnvelope(numbers(20_000, produced), null, 0)) as Readable;
    let sent = '';
    for await (const chunk of faultyStream(body, 'malformed', () => {}, 100_000)) sent += String(chunk);
    expect(produced.n).toBeLessThan(1000);
    // Half of the 100,000-byte window, plus the comma that keeps a cut after `}` invalid.
    expect(sent.length).toBeGreaterThanOrEqual(50_000);
    expect(sent.length).toBeLessThanOrEqual(50_001);
    expect(sent.startsWith('{"data":[{"i":0,')).toBe(true);
    expect(() => JSON.parse(sent)).toThrow();
  });
});

describe('a 100k-user /tokens', () => {
  it('streams in many chunks instead of one string, and the body is the whole day', async () => {
    await withEmulator({ users: 100_000 }, async (emu) => {
      const res = await fetch(
        `${emu.baseUrl}/api/v1/analytics/tokens?startDate=2026-10-06&endDate=2026-10-06`,
        {
          headers: { authorization: `Bearer ${emu.keys.owner}` },
        },
      );
      expect(res.status).toBe(200);
      expect(res.headers.get('transfer-encoding')).toBe('chunked');
      expect(res.headers.get('content-length')).toBeNull();
      const chunks: Buffer[] = [];
      for await (const chunk of res.body as AsyncIterable<Uint8Array>) chunks.push(Buffer.from(chunk));
      expect(chunks.length).toBeGreaterThan(10);
      const body = JSON.parse(Buffer.concat(chunks).toString()) as {
        data: { billable_tokens: number; by_user: { billable_tokens: number }[] }[];
      };
      const day = body.data[0]!;
      expect(body.data).toHaveLength(1);
      expect(day.by_user.length).toBe(emu.organization.dailyTotals('2026-10-06').activeUsers);
      expect(day.by_user.length).toBeGreaterThan(10_000);
      expect(day.by_user.reduce((a, u) => a + u.billable_tokens, 0)).toBe(day.billable_tokens);
    });
  });
});
