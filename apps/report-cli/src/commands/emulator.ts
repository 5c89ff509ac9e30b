/** `orgreport emulator`: the API emulator in the foreground until SIGINT or SIGTERM. */
import { isIsoDate, utcDay } from '@orgreport/api-core';
import { startEmulator } from '../connect.ts';
import type { CommandContext } from '../context.ts';
import { UsageError } from '../errors.ts';
import { nonNegativeNumber, positiveInteger } from '../flags.ts';

export interface EmulatorCommandOptions {
  port?: string;
  seed?: string;
  users?: string;
  today?: string;
  keys?: string;
  latency?: string;
  faultRate?: string;
  hostile?: boolean;
  quiet?: boolean;
}

const ROLES = ['owner', 'manager', 'member'] as const;

/** Parses `owner:K1,manager:K2,member:K3` (any subset). */
export function parseKeys(value: string): Partial<Record<(typeof ROLES)[number], string>> {
  const keys: Partial<Record<(typeof ROLES)[number], string>> = {};
  for (const part of value.split(',')) {
    const at = part.indexOf(':');
    const role = part.slice(0, at).trim();
    const key = part.slice(at + 1).trim();
    if (at < 0 || !(ROLES as readonly string[]).includes(role) || !key) {
      throw new UsageError(
        `--keys: expected role:key pairs with roles ${ROLES.join(', ')} (got a part ${JSON.stringify(part.includes(':') ? `${role}:...` : part)})`,
      );
    }
    keys[role as (typeof ROLES)[number]] = key;
  }
  return keys;
}

/** Starts the emulator, prints its addresses and keys, and runs until the process is asked to stop. */
export async function emulator(options: EmulatorCommandOptions, ctx: CommandContext): Promise<void> {
  const port = options.port === '0' ? 0 : positiveInteger(options.port, '--port');
  if (port !== undefined && port > 65535) throw new UsageError(`--port: expected 0 to 65535 (got ${port})`);
  if (options.today !== undefined && !isIsoDate(options.today)) {
    throw new UsageError(
      `--today: expected a real calendar day as YYYY-MM-DD (got ${JSON.stringify(options.today)})`,
    );
  }
  const seed = nonNegativeNumber(options.seed, '--seed') ?? 1;
  if (!Number.isInteger(seed)) throw new UsageError(`--seed: expected a whole number (got ${options.seed})`);
  const faultRate = nonNegativeNumber(options.faultRate, '--fault-rate', 1);
  const handle = await startEmulator({
    seed,
    users: positiveInteger(options.users, '--users') ?? 200,
    today: options.today ?? utcDay(ctx.io.now()),
    port,
    host: '127.0.0.1',
    keys: options.keys ? parseKeys(options.keys) : undefined,
    latency: nonNegativeNumber(options.latency, '--latency'),
    faults: faultRate ? { rate: faultRate } : undefined,
    hostile: Boolean(options.hostile),
  });
  const out = (line: string) => ctx.io.stdout.write(`${line}\n`);
  out(`ORGREPORT_BASE_URL=${handle.baseUrl}`);
  out(`ORGREPORT_APP_URL=${handle.appUrl}`);
  for (const role of ROLES) out(`${role} key: ${handle.keys[role]}`);
  if (!options.quiet) ctx.io.stderr.write('emulator running; stop with Ctrl-C\n');
  const signal = await ctx.io.untilStopped();
  await handle.close();
  if (!options.quiet) ctx.io.stderr.write(`emulator stopped (${signal})\n`);
}
