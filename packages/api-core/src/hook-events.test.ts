import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ValidationError } from './errors.ts';
import { parseHookEvent, readHookEvent } from './hook-events.ts';

describe('hook events', () => {
  it('types the four documented kinds', () => {
    for (const kind of ['Notification', 'Stop', 'SubagentStop', 'SessionEnd']) {
      const e = parseHookEvent(JSON.stringify({ hook_event_name: kind, session_id: 's1', cwd: '/w' }));
      expect(e).toMatchObject({ kind, known: true, session_id: 's1', cwd: '/w' });
    }
    const end = parseHookEvent({ hook_event_name: 'SessionEnd', session_id: 's', cwd: '/', reason: 'error' });
    expect(end.reason).toBe('error');
  });

  it('keeps an unknown kind and its extra fields, flagged known: false', () => {
    const e = parseHookEvent(
      '{"hook_event_name":"PostToolUse","session_id":"s","cwd":"/","tool_name":"Read"}',
    );
    expect(e).toMatchObject({ kind: 'PostToolUse', known: false, tool_name: 'Read' });
  });

  it('names what is wrong with a malformed event', () => {
    expect(() => parseHookEvent('{not json')).toThrow(ValidationError);
    try {
      parseHookEvent({ hook_event_name: 'Stop', cwd: '/' });
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(ValidationError);
      expect((e as ValidationError).parameter).toBe('hook event.session_id');
    }
  });

  it('reads an event from a stream in chunks', async () => {
    const text = JSON.stringify({
      hook_event_name: 'Notification',
      session_id: 's',
      cwd: '/',
      message: 'héllo',
    });
    const bytes = Buffer.from(text);
    const stream = Readable.from([bytes.subarray(0, 50), bytes.subarray(50)]);
    expect(await readHookEvent(stream)).toMatchObject({ kind: 'Notification', message: 'héllo' });
    await expect(readHookEvent(Readable.from([text]), 10)).rejects.toThrow(/larger than 10 bytes/);
  });
});

describe('the @orgreport/api-core/hook-events subpath', () => {
  it('exports the parser and the hook schemas, the very objects of the package root', async () => {
    const subpath = await import('@orgreport/api-core/hook-events');
    const root = await import('@orgreport/api-core');
    expect(subpath.parseHookEvent).toBe(root.parseHookEvent);
    expect(subpath.readHookEvent).toBe(root.readHookEvent);
    expect(subpath.hookEventSchema).toBe(root.hookEventSchema);
    expect(subpath.hooksConfigSchema).toBe(root.hooksConfigSchema);
    expect(subpath.HOOK_EVENT_KINDS).toEqual(['Notification', 'Stop', 'SubagentStop', 'SessionEnd']);
    expect(subpath.parseHookEvent('{"hook_event_name":"Stop","session_id":"s","cwd":"/"}').known).toBe(true);
  });
});
