/** `orgreport hook record` and `orgreport hook config`. */
import { MAX_HOOK_INPUT_BYTES } from '@orgreport/api-core/hook-events';
import {
  appendHookEvent,
  HookInputError,
  hooksConfig,
  parseHookEventText,
  readInput,
  shellQuote,
} from '@orgreport/pipeline/hook';
import { positiveInteger } from '@orgreport/pipeline/input';
import type { ConfigFlags } from '../../config/config.ts';
import { type CommandContext, setUp } from '../../context.ts';

export interface HookRecordOptions extends Pick<ConfigFlags, 'config' | 'hookLog' | 'quiet' | 'verbose'> {
  /** Milliseconds to wait for the end of stdin. */
  timeout?: string;
}

/**
 * Reads one hook event from stdin, validates it and appends it with `recorded_at` to the hook log.
 * Every failure, a bad setting included, ends in exit code 1 (see {@link HookInputError}).
 */
export async function hookRecord(options: HookRecordOptions, ctx: CommandContext): Promise<void> {
  try {
    await record(options, ctx);
  } catch (error) {
    if (error instanceof HookInputError) throw error;
    throw new HookInputError((error as Error).message);
  }
}

async function record(options: HookRecordOptions, ctx: CommandContext): Promise<void> {
  const { config, reporter } = setUp(options, ctx);
  if (!config.hookLog) {
    throw new HookInputError(
      'no hook log configured: set ORGREPORT_HOOK_LOG, --hook-log or "hookLog" in the config file',
    );
  }
  const timeoutMs = positiveInteger(options.timeout, '--timeout') ?? 2000;
  const text = await readInput(ctx.io.stdin, { timeoutMs, maxBytes: MAX_HOOK_INPUT_BYTES });
  const event = parseHookEventText(text);
  await appendHookEvent(config.hookLog, event, config.now());
  reporter.debug(`recorded ${event.hook_event_name} of session ${event.session_id} in ${config.hookLog}`);
}

export interface HookConfigOptions extends Pick<ConfigFlags, 'config' | 'hookLog'> {
  /** How the agent invokes orgreport (default `orgreport`). */
  command?: string;
  /** Hook timeout in seconds. */
  timeout?: string;
}

/** Prints the hooks configuration (JSON) that records the four documented events. */
export async function hookConfig(options: HookConfigOptions, ctx: CommandContext): Promise<void> {
  const { config } = setUp(options, ctx);
  const timeout = positiveInteger(options.timeout, '--timeout') ?? 5;
  const base = `${options.command ?? 'orgreport'} hook record`;
  const command = config.hookLog ? `${base} --hook-log ${shellQuote(config.hookLog)}` : base;
  ctx.io.stdout.write(`${JSON.stringify(hooksConfig(command, timeout), null, 2)}\n`);
}
