/**
 * Hook events: the JSON object the agent's client writes to a hook command's standard input.
 * The four documented kinds are typed; any other kind is kept and flagged `known: false`.
 */
import { ValidationError } from './errors.ts';
import { HOOK_EVENT_KINDS, type HookEvent, type HookEventKind, hookEventSchema } from './hook-schemas.ts';
import { checkWithSchema } from './validation.ts';

/** A parsed hook event: `known` tells whether `hook_event_name` is one of the documented kinds. */
export type ParsedHookEvent =
  | (HookEvent & { kind: HookEventKind; known: true })
  | (HookEvent & { kind: string; known: false });

/** Largest hook input read from a stream (a hook event is a few hundred bytes). */
export const MAX_HOOK_INPUT_BYTES = 1_048_576;

/**
 * Parses one hook event from JSON text or an already-parsed value. Throws {@link ValidationError}
 * naming the field when the input is not JSON or lacks `hook_event_name`, `session_id` or `cwd`.
 *
 * @example
 * parseHookEvent('{"hook_event_name":"Stop","session_id":"s1","cwd":"/w"}') // { kind: 'Stop', known: true, ... }
 */
export function parseHookEvent(input: string | unknown): ParsedHookEvent {
  let value: unknown = input;
  if (typeof input === 'string') {
    try {
      value = JSON.parse(input);
    } catch (cause) {
      throw new ValidationError('hook event', input, 'expected a JSON object', { cause });
    }
  }
  const event = checkWithSchema(hookEventSchema, value, 'hook event');
  const kind = event.hook_event_name;
  const known = (HOOK_EVENT_KINDS as readonly string[]).includes(kind);
  return { ...event, kind, known } as ParsedHookEvent;
}

/**
 * Reads a whole stream (standard input of a hook command) and parses it as one hook event.
 *
 * @example
 * const event = await readHookEvent(process.stdin);
 */
export async function readHookEvent(
  stream: AsyncIterable<Uint8Array | string>,
  maxBytes: number = MAX_HOOK_INPUT_BYTES,
): Promise<ParsedHookEvent> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  const encoder = new TextEncoder();
  for await (const chunk of stream) {
    const bytes = typeof chunk === 'string' ? encoder.encode(chunk) : chunk;
    size += bytes.byteLength;
    if (size > maxBytes)
      throw new ValidationError('hook event', `${size}+ bytes`, `input larger than ${maxBytes} bytes`);
    chunks.push(bytes);
  }
  const all = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    all.set(c, at);
    at += c.byteLength;
  }
  return parseHookEvent(new TextDecoder().decode(all));
}
