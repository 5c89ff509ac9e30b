/**
 * Recording hook events: read one event from a hook command's stdin (bounded in time and size, so
 * the agent is never held up), validate it and append it to a JSON-lines log with the instant it
 * was recorded. One `appendFile` per event: lines from concurrent hooks never interleave.
 */
import { appendFile, mkdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Readable } from 'node:stream';
import {
  HOOK_EVENT_KINDS,
  type HookEvent,
  type HooksConfig,
  hookEventSchema,
  parseHookEvent,
} from '@orgreport/api-core/hook-events';
import { CliError, EXIT } from '../errors.ts';

/**
 * A hook event that cannot be recorded. Exit code 1, not 2: some agents read exit code 2 of a hook
 * as "block the agent", and recording must never block it.
 */
export class HookInputError extends CliError {
  override name = 'HookInputError';
  constructor(message: string) {
    super(message, EXIT.failure);
  }
}

export interface ReadLimits {
  /** Give up after this long without the end of input. */
  timeoutMs: number;
  /** Refuse more input than this. */
  maxBytes: number;
}

/** Reads all of `stream` as UTF-8 text within the limits, or throws {@link HookInputError}. */
export function readInput(stream: Readable, limits: ReadLimits): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (error: Error | null, text?: string) => {
      clearTimeout(timer);
      stream.off('data', onData);
      stream.off('end', onEnd);
      stream.off('error', onError);
      stream.pause();
      if (error) reject(error);
      else resolve(text ?? '');
    };
    const onData = (chunk: Buffer | string) => {
      const buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      size += buf.length;
      if (size > limits.maxBytes) {
        finish(new HookInputError(`hook event on stdin is larger than ${limits.maxBytes} bytes`));
        return;
      }
      chunks.push(buf);
    };
    const onEnd = () => finish(null, Buffer.concat(chunks).toString('utf8'));
    const onError = (error: Error) => finish(new HookInputError(`cannot read stdin (${error.message})`));
    const timer = setTimeout(
      () => finish(new HookInputError(`no complete hook event on stdin within ${limits.timeoutMs} ms`)),
      limits.timeoutMs,
    );
    timer.unref?.();
    stream.on('data', onData);
    stream.once('end', onEnd);
    stream.once('error', onError);
    stream.resume();
  });
}

/** Parses and validates one hook event with api-core's `parseHookEvent`; the error says what is wrong. */
export function parseHookEventText(text: string): HookEvent {
  if (!text.trim()) throw new HookInputError('no hook event on stdin (expected one JSON object)');
  try {
    // `kind` and `known` are parseHookEvent's annotations, not part of the event as the agent sent it.
    const { kind: _kind, known: _known, ...event } = parseHookEvent(text);
    return event;
  } catch (error) {
    throw new HookInputError((error as Error).message);
  }
}

/** Appends `event` with `recorded_at` to the JSON-lines log at `logPath` (directories created). */
export async function appendHookEvent(logPath: string, event: HookEvent, now: Date): Promise<string> {
  const line = `${JSON.stringify({ ...event, recorded_at: now.toISOString() })}\n`;
  await mkdir(dirname(logPath), { recursive: true });
  await appendFile(logPath, line, { flag: 'a' });
  return line;
}

/**
 * The hooks configuration that runs `command` on each of the four documented events.
 *
 * @example
 * hooksConfig("orgreport hook record --hook-log '/var/log/hooks.jsonl'", 5)
 */
export function hooksConfig(command: string, timeoutSeconds: number): HooksConfig {
  return Object.fromEntries(
    HOOK_EVENT_KINDS.map((kind) => [
      kind,
      [{ hooks: [{ type: 'command' as const, command, timeout: timeoutSeconds }] }],
    ]),
  );
}

/** Quotes an argument for a POSIX shell when it needs it. */
export function shellQuote(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

/** Reads the hook log and returns the events recorded within `start..end` (UTC days, inclusive). */
export async function readHookLog(
  logPath: string,
  range: { start: string; end: string },
): Promise<Array<HookEvent & { recorded_at?: string }>> {
  let text: string;
  try {
    text = await readFile(logPath, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const events: Array<HookEvent & { recorded_at?: string }> = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      continue; // a torn line (a hook killed mid-write) is skipped rather than failing the report
    }
    const parsed = hookEventSchema.safeParse(json);
    if (!parsed.success) continue;
    const recordedAt = (json as { recorded_at?: unknown }).recorded_at;
    const day = typeof recordedAt === 'string' ? recordedAt.slice(0, 10) : undefined;
    if (day !== undefined && (day < range.start || day > range.end)) continue;
    events.push({ ...parsed.data, ...(typeof recordedAt === 'string' ? { recorded_at: recordedAt } : {}) });
  }
  return events;
}
