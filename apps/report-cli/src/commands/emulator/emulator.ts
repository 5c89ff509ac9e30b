/**
 * `orgreport emulator`: the API emulator in the foreground until SIGINT or SIGTERM; with
 * `--directory FILE`, the people directory of its organization instead.
 */
import { writeFile } from 'node:fs/promises';
import { basename, dirname, resolve } from 'node:path';
import { isIsoDate, utcDay } from '@orgreport/api-core';
import { FAULT_KINDS, type FaultKind, type FaultOptions, type Plant } from '@orgreport/emulator';
import { startEmulator } from '@orgreport/pipeline/connect';
import { UsageError } from '@orgreport/pipeline/errors';
import { nonNegativeNumber, positiveInteger } from '@orgreport/pipeline/input';
import { OutputSet } from '@orgreport/pipeline/output';
import type { CommandContext } from '../../context.ts';

export interface EmulatorCommandOptions {
  port?: string;
  seed?: string;
  users?: string;
  today?: string;
  keys?: string;
  latency?: string;
  faultRate?: string;
  faultKinds?: string;
  retryAfter?: string;
  hostile?: boolean;
  drift?: boolean;
  paging?: string;
  /** Planted events, one per `--plant` (see {@link parsePlants}). */
  plant?: string[];
  /** Write the organization's people directory (CSV) to this file and exit instead of serving. */
  directory?: string;
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

/** Parses `--fault-kinds server-error,rate-limit` (any of {@link FAULT_KINDS}, each once). */
export function parseFaultKinds(value: string): FaultKind[] {
  const kinds = value.split(',').map((k) => k.trim());
  for (const kind of kinds) {
    if (!(FAULT_KINDS as readonly string[]).includes(kind)) {
      throw new UsageError(
        `--fault-kinds: unknown fault ${JSON.stringify(kind)} (known: ${FAULT_KINDS.join(', ')})`,
      );
    }
  }
  return [...new Set(kinds)] as FaultKind[];
}

/** The fault settings of the flags; kinds and Retry-After without a fault rate are a usage error. */
export function faultOptions(options: EmulatorCommandOptions): FaultOptions | undefined {
  const rate = nonNegativeNumber(options.faultRate, '--fault-rate', 1);
  const kinds = options.faultKinds === undefined ? undefined : parseFaultKinds(options.faultKinds);
  const retryAfterSeconds = nonNegativeNumber(options.retryAfter, '--retry-after', 3600);
  if (!rate) {
    const orphan = kinds ? '--fault-kinds' : retryAfterSeconds !== undefined ? '--retry-after' : undefined;
    if (orphan)
      throw new UsageError(`${orphan} needs --fault-rate above 0 (no faults are injected without it)`);
    return undefined;
  }
  return {
    rate,
    ...(kinds && { kinds }),
    ...(retryAfterSeconds !== undefined && { retryAfterSeconds }),
  };
}

/** How `--plant` events are written, for help and errors. */
export const PLANT_SYNTAX = 'security-change:YYYY-MM-DD:SETTING or credit-spike:USER-INDEX:YYYY-MM-DD:FACTOR';

/**
 * Parses `--plant` events: `security-change:2026-10-05:enableAgentShield` (a revision by the owner
 * that flips the boolean setting, a dotted path such as `sandbox.enabled`) and
 * `credit-spike:12:2026-10-07:5` (user 12's credits multiplied by 5 from that day on).
 */
export function parsePlants(values: readonly string[]): Plant[] {
  return values.map((value) => {
    const parts = value.split(':').map((p) => p.trim());
    const bad = (why: string) =>
      new UsageError(`--plant ${JSON.stringify(value)}: ${why} (expected ${PLANT_SYNTAX})`);
    const day = (d: string | undefined) => {
      if (!isIsoDate(d)) throw bad(`${JSON.stringify(d ?? '')} is not a day as YYYY-MM-DD`);
      return d;
    };
    if (parts[0] === 'security-change') {
      if (parts.length !== 3 || !parts[2]) throw bad('a security change takes a day and a setting');
      return { kind: 'security-change', day: day(parts[1]), setting: parts[2] };
    }
    if (parts[0] === 'credit-spike') {
      if (parts.length !== 4) throw bad('a credit spike takes a user index, a day and a factor');
      const user = Number(parts[1]);
      const factor = Number(parts[3]);
      if (!/^\d+$/.test(parts[1]!))
        throw bad(`the user index ${JSON.stringify(parts[1])} is not a whole number`);
      if (!(Number.isFinite(factor) && factor > 0))
        throw bad(`the factor ${JSON.stringify(parts[3])} is not a number above 0`);
      return { kind: 'credit-spike', user, from: day(parts[2]), factor };
    }
    throw bad(`unknown event ${JSON.stringify(parts[0])}`);
  });
}

/** Starts the emulator, prints its addresses and keys, and runs until the process is asked to stop. */
/** The `--paging` spelling, checked. */
function usersPaging(value: string | undefined): 'spec' | 'published' {
  if (value === undefined || value === 'spec' || value === 'published') return value ?? 'spec';
  throw new UsageError(`--paging: expected spec or published (got ${JSON.stringify(value)})`);
}

/**
 * Writes the people directory of the organization of `seed` and `users` (the demo's with the
 * defaults), whole or not at all, for `--directory`.
 */
async function writeDirectory(
  file: string,
  seed: number,
  users: number,
  today: string,
  ctx: CommandContext,
): Promise<void> {
  const { createOrganization, directoryCsv } = await import('@orgreport/emulator');
  const path = resolve(ctx.io.cwd, file);
  const outputs = await new OutputSet(dirname(path)).open();
  try {
    await writeFile(outputs.file(basename(path)), directoryCsv(createOrganization({ seed, users, today })));
    await outputs.commit();
  } catch (error) {
    await outputs.abort();
    throw error;
  }
  ctx.io.stderr.write(`${path}: the people directory of the organization of seed ${seed}, ${users} users\n`);
}

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
  if (options.directory !== undefined) {
    await writeDirectory(
      options.directory,
      seed,
      positiveInteger(options.users, '--users') ?? 200,
      options.today ?? utcDay(ctx.io.now()),
      ctx,
    );
    return;
  }
  const faults = faultOptions(options);
  const plant = parsePlants(options.plant ?? []);
  const handle = await startEmulator({
    seed,
    users: positiveInteger(options.users, '--users') ?? 200,
    today: options.today ?? utcDay(ctx.io.now()),
    port,
    host: '127.0.0.1',
    keys: options.keys ? parseKeys(options.keys) : undefined,
    latency: nonNegativeNumber(options.latency, '--latency'),
    faults,
    hostile: Boolean(options.hostile),
    drift: Boolean(options.drift),
    paging: usersPaging(options.paging),
    ...(plant.length > 0 && { plant }),
  }).catch((error: unknown) => {
    // A plant the organization cannot take (a user out of range, a day outside the data).
    if (error instanceof RangeError && /^plant/.test(error.message))
      throw new UsageError(`--plant: ${error.message}`, { cause: error });
    throw error;
  });
  const out = (line: string) => ctx.io.stdout.write(`${line}\n`);
  out(`ORGREPORT_BASE_URL=${handle.baseUrl}`);
  out(`ORGREPORT_APP_URL=${handle.appUrl}`);
  for (const role of ROLES) out(`${role} key: ${handle.keys[role]}`);
  if (!options.quiet) ctx.io.stderr.write('emulator running; stop with Ctrl-C\n');
  const signal = await new Promise<string>((resolve) => ctx.io.onStopSignal(resolve));
  await handle.close();
  if (!options.quiet) ctx.io.stderr.write(`emulator stopped (${signal})\n`);
}
