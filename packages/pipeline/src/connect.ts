/**
 * Connecting to the API: a client from the configuration, or, with `--demo`, a client of an
 * in-process emulator of a seeded demo organization (no key, no network beyond loopback).
 */
import type { OrgClient } from '@orgreport/api-core';
import type { EmulatorOptions, RunningEmulator } from '@orgreport/emulator';
import type { RunContext } from './context.ts';
import { UsageError } from './errors.ts';
import type { Reporter } from './reporter.ts';
import { DEFAULT_CLI_MAX_RETRIES, requireConnection, type Settings } from './settings.ts';

/** Starts the emulator in-process; the package (Fastify and all) is loaded only here. */
export async function startEmulator(options: EmulatorOptions): Promise<RunningEmulator> {
  const emulator = await import('@orgreport/emulator');
  try {
    return await emulator.startEmulator(options);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      throw new UsageError(
        `--port ${options.port}: the port is in use; choose another one or 0 for any free port`,
      );
    }
    throw error;
  }
}

/** A connected client and what to release when the command ends. */
export interface Connection {
  client: OrgClient;
  /** The demo organization's name (the API itself only gives an id). */
  organizationName?: string;
  /** Stops the demo emulator, if one was started. */
  close(): Promise<void>;
  demo: boolean;
}

/** The members of `limits` that are set (the client applies its own defaults to the others). */
function definedOnly<T extends object>(limits: T): Partial<T> {
  return Object.fromEntries(Object.entries(limits).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** Seed of the demo organization: every demo run shows the same organization. */
export const DEMO_SEED = 1;

/**
 * Connects as the configuration says, or to a fresh demo emulator when `demo` is set.
 * The client gets the configuration's clock and retry budget, and logs through the reporter.
 */
export async function connect(
  config: Settings,
  reporter: Reporter,
  ctx: RunContext,
  demo?: { users: number },
): Promise<Connection> {
  const { OrgClient } = await import('@orgreport/api-core');
  const emulator = demo
    ? await startEmulator({ seed: DEMO_SEED, users: demo.users, today: config.today, port: 0 })
    : undefined;
  if (emulator && demo) {
    reporter.info(`demo: emulated organization of ${demo.users} users at ${emulator.baseUrl}`);
    ctx.secrets.add(emulator.keys.owner);
  }
  const client = new OrgClient({
    ...(emulator
      ? { apiKey: emulator.keys.owner, baseUrl: emulator.baseUrl, appUrl: emulator.appUrl }
      : requireConnection(config)),
    now: config.now,
    logger: reporter,
    logLevel: config.logLevel,
    // Above the client library's default: a monthly run is unattended.
    maxRetries: config.maxRetries ?? DEFAULT_CLI_MAX_RETRIES,
    ...definedOnly(config.requestLimits),
  });
  return emulator
    ? { client, organizationName: emulator.organization.orgName, close: () => emulator.close(), demo: true }
    : { client, close: async () => {}, demo: false };
}
