/**
 * Logging and progress on a stream (the CLI's stderr): levels error < warn < info < debug, a live line per stage on a
 * terminal and plain lines otherwise. Every message passes through `scrubText` with the run's
 * secrets, so the API key never reaches a log.
 */
import type { Logger } from '@orgreport/api-core';
import { redactSecrets, scrubText } from '@orgreport/api-core/redact';
import type { LogLevel } from './settings.ts';

/** A writable text stream; `isTTY` decides between live progress and plain lines. */
export interface TextOut {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

const RANK: Record<LogLevel, number> = { error: 0, warn: 1, info: 2, debug: 3 };

/** Progress of one stage: `update` while it runs, `done` once at its end. */
export interface StageProgress {
  update(detail: string): void;
  done(detail: string): void;
}

/**
 * Writes log lines and stage progress to one stream (stderr), at or above a level. It is api-core's
 * {@link Logger}, the one logger type every package takes.
 */
export class Reporter implements Logger {
  private live = false;
  private lastDraw = 0;

  constructor(
    private readonly out: TextOut,
    readonly level: LogLevel,
    private readonly secrets: () => ReadonlyArray<string | undefined> = () => [],
  ) {}

  /** True when messages of `level` are shown. */
  enabled(level: LogLevel): boolean {
    return RANK[level] <= RANK[this.level];
  }

  private write(level: LogLevel, line: string, fields?: Record<string, unknown>): void {
    if (!this.enabled(level)) return;
    this.clearLive();
    const extra = fields && Object.keys(fields).length > 0 ? ` ${JSON.stringify(redactSecrets(fields))}` : '';
    this.out.write(`${scrubText(line + extra, this.secrets())}\n`);
  }

  error(message: string, fields?: Record<string, unknown>): void {
    this.write('error', `error: ${message}`, fields);
  }
  warn(message: string, fields?: Record<string, unknown>): void {
    this.write('warn', `warning: ${message}`, fields);
  }
  info(message: string, fields?: Record<string, unknown>): void {
    this.write('info', message, fields);
  }
  debug(message: string, fields?: Record<string, unknown>): void {
    this.write('debug', `debug: ${message}`, fields);
  }

  private clearLive(): void {
    if (this.live) {
      this.out.write('\r\x1b[2K');
      this.live = false;
    }
  }

  /** Starts a stage: on a terminal a live line redrawn at most every 100 ms, else one line at its end. */
  stage(name: string): StageProgress {
    const started = performance.now();
    const tty = Boolean(this.out.isTTY) && this.enabled('info');
    return {
      update: (detail) => {
        if (tty) {
          const t = performance.now();
          if (t - this.lastDraw < 100) return;
          this.lastDraw = t;
          this.out.write(`\r\x1b[2K${name}: ${scrubText(detail, this.secrets())}`);
          this.live = true;
        } else {
          this.write('debug', `${name}: ${detail}`);
        }
      },
      done: (detail) => {
        const seconds = ((performance.now() - started) / 1000).toFixed(1);
        this.write('info', `${name}: ${detail} (${seconds} s)`);
      },
    };
  }
}

/** `1234567` as `1.2 MB`: decimal units (1 kB = 1,000 bytes), as `ls --si` and file managers show them. */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  const units = ['kB', 'MB', 'GB'];
  let value = bytes / 1000;
  let unit = 0;
  while (value >= 999.95 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}
