import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { hooksConfigSchema } from '@orgreport/api-core';
import { describe, expect, it } from 'vitest';
import {
  appendHookEvent,
  hooksConfig,
  parseHookEventText,
  readHookLog,
  readInput,
  shellQuote,
} from './record.ts';

describe('readInput', () => {
  it('returns the whole input once stdin ends', async () => {
    const stdin = new PassThrough();
    const text = readInput(stdin, { timeoutMs: 1000, maxBytes: 100 });
    stdin.write('{"a":');
    stdin.end('1}');
    expect(await text).toBe('{"a":1}');
  });

  it('gives up after the timeout when stdin never ends, instead of hanging', async () => {
    const stdin = new PassThrough();
    stdin.write('{"hook_event_name":');
    await expect(readInput(stdin, { timeoutMs: 50, maxBytes: 100 })).rejects.toThrow(/within 50 ms/);
  });

  it('refuses input over the size limit', async () => {
    const stdin = new PassThrough();
    const text = readInput(stdin, { timeoutMs: 1000, maxBytes: 4 });
    stdin.end('12345');
    await expect(text).rejects.toThrow(/larger than 4 bytes/);
  });
});

describe('parseHookEventText', () => {
  it('accepts the four events and unknown kinds, keeping extra fields', () => {
    const e = parseHookEventText('{"hook_event_name":"PostToolUse","session_id":"s","cwd":"/w","extra":1}');
    expect(e).toMatchObject({ hook_event_name: 'PostToolUse', extra: 1 });
  });

  it('names what is wrong', () => {
    expect(() => parseHookEventText('')).toThrow(/no hook event/);
    expect(() => parseHookEventText('not json')).toThrow(/expected a JSON object/);
    expect(() => parseHookEventText('{"hook_event_name":"Stop","cwd":"/w"}')).toThrow(
      /hook event.session_id/,
    );
  });
});

describe('hook log', () => {
  it('appends one line per event and reads back the events of a range', async () => {
    const log = join(await mkdtemp(join(tmpdir(), 'orgreport-hook-')), 'sub', 'hooks.jsonl');
    const stop = { hook_event_name: 'Stop', session_id: 's1', cwd: '/w' };
    await appendHookEvent(log, stop, new Date('2026-10-31T23:59:00Z'));
    await appendHookEvent(log, { ...stop, session_id: 's2' }, new Date('2026-11-01T00:00:00Z'));
    const lines = (await readFile(log, 'utf8')).trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(JSON.parse(lines[0]!).recorded_at).toBe('2026-10-31T23:59:00.000Z');
    await writeFile(log, `${await readFile(log, 'utf8')}{"torn`, 'utf8');
    const october = await readHookLog(log, { start: '2026-10-01', end: '2026-10-31' });
    expect(october.map((e) => e.session_id)).toEqual(['s1']);
  });

  it('returns no events when the log does not exist yet', async () => {
    expect(await readHookLog('/nonexistent/hooks.jsonl', { start: '2026-10-01', end: '2026-10-31' })).toEqual(
      [],
    );
  });
});

describe('hooksConfig', () => {
  it('configures the four events with the command, in the schema of the spec', () => {
    const config = hooksConfig('orgreport hook record', 5);
    expect(Object.keys(config)).toEqual(['Notification', 'Stop', 'SubagentStop', 'SessionEnd']);
    expect(hooksConfigSchema.safeParse(config).success).toBe(true);
    expect(config.Stop![0]!.hooks[0]).toEqual({
      type: 'command',
      command: 'orgreport hook record',
      timeout: 5,
    });
  });

  it('quotes paths for the shell only when needed', () => {
    expect(shellQuote('/var/log/hooks.jsonl')).toBe('/var/log/hooks.jsonl');
    expect(shellQuote("/tmp/it's here")).toBe(`'/tmp/it'\\''s here'`);
  });
});
