/**
 * The client's logging: an injectable `{ debug, info, warn, error }` logger filtered by level.
 * Every message and field passes through the redactor first, so the API key, the Authorization
 * header and anything that looks like a token never reach a log.
 */
import { redactSecrets, scrubText } from './redact.ts';

/** Something that writes log lines: `console` fits, and so does pino or a test spy. */
export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

export const LOG_LEVELS = ['debug', 'info', 'warn', 'error', 'off'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, off: 100 };

/** A logger that writes nothing. */
export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} };

/**
 * Wraps `logger` so that lines below `level` are dropped and every line is scrubbed of `secrets`
 * (and of anything that looks like a bearer token or sits under a secret-named key).
 */
export function redactingLogger(
  logger: Logger,
  level: LogLevel,
  secrets: ReadonlyArray<string | undefined>,
): Logger {
  const write =
    (l: Exclude<LogLevel, 'off'>) =>
    (message: string, fields?: Record<string, unknown>): void => {
      if (RANK[l] < RANK[level]) return;
      const text = scrubText(message, secrets);
      if (fields === undefined) logger[l](text);
      else logger[l](text, scrubValue(fields, secrets));
    };
  return { debug: write('debug'), info: write('info'), warn: write('warn'), error: write('error') };
}

/** A deep copy of `value` with `secrets` scrubbed from every string and secret-named keys redacted. */
export function scrubValue<T>(value: T, secrets: ReadonlyArray<string | undefined>): T {
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return scrubText(v, secrets);
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object')
      return Object.fromEntries(Object.entries(v).map(([k, c]) => [k, walk(c)]));
    return v;
  };
  return redactSecrets(walk(value) as T);
}
