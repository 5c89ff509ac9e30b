/** Starts the emulator in-process: `startEmulator(options)` listens and returns its addresses and keys. */
import { createOrganization, type Organization } from './organization.ts';
import type { Plant } from './plants.ts';
import type { UsersPaging } from './server/analytics-routes.ts';
import { buildApp, type RequestLogEntry } from './server/app.ts';
import { type FaultOptions, FaultPlan, type LatencyOption } from './server/faults.ts';
import { DEFAULT_KEYS, type EmulatorKeys, EmulatorState } from './server/state.ts';

/** Options of {@link startEmulator}. */
export interface EmulatorOptions {
  /** Organization seed. Default 1. */
  seed?: number;
  /** Number of users. Default 50. */
  users?: number;
  /** Number of repositories with readiness reports. Default 5. */
  repos?: number;
  /** The emulated today, `YYYY-MM-DD` (UTC). Required: the emulator never reads the clock. */
  today: string;
  /** Port to listen on; 0 (default) picks a free one. */
  port?: number;
  /** Interface to listen on. Default 127.0.0.1. */
  host?: string;
  /** API keys per role. Default `emu-owner-key`, `emu-manager-key`, `emu-member-key`. */
  keys?: Partial<EmulatorKeys>;
  /** Added latency per request: fixed milliseconds or a seeded `{ min, max }` draw. */
  latency?: LatencyOption;
  /** Seeded fault injection. */
  faults?: FaultOptions;
  /** Plant hostile strings in the data (issue 9). */
  hostile?: boolean;
  /** Simulate schema drift: unknown fields, renamed settings, new enum values (issue 9). */
  drift?: boolean;
  /**
   * Spelling of the `/users` paging fields: `spec` (`has_more` / `next_cursor`, docs/org-api.md, the
   * default) or `published` (`hasMore` / `nextCursor`, as the service's public pages show them).
   */
  paging?: UsersPaging;
  orgId?: string;
  orgName?: string;
  /**
   * Events planted on known days: `{ kind: 'security-change', day, setting }` (a revision of the
   * control history by an admin that flips the setting), `{ kind: 'credit-spike', user, from, factor }`
   * (one user's credits multiplied from a day on, in `/users`, `/tokens` and every daily total).
   */
  plant?: readonly Plant[];
  /**
   * Analytics bodies longer than this many characters are streamed row by row instead of being
   * built as one string. Default 4 MiB; 0 streams every analytics body.
   */
  streamAbove?: number;
}

/** A running emulator. */
export interface RunningEmulator {
  /** `{base_url}` of the spec, e.g. `http://127.0.0.1:4020` (no trailing slash). */
  baseUrl: string;
  /** `{app_url}` of the spec (readiness endpoint); the same origin as `baseUrl`. */
  appUrl: string;
  keys: EmulatorKeys;
  /** The synthetic organization the server serves (for checkers). */
  organization: Organization;
  /** Every served request, in the order responses were sent. */
  requestLog: RequestLogEntry[];
  /** Credit limits set through the API, by lower-case e-mail. */
  creditLimits: ReadonlyMap<string, number>;
  /** Stops listening and closes open connections. */
  close(): Promise<void>;
}

/** Starts an emulator of the organization API; see the README for a vitest example. */
export async function startEmulator(options: EmulatorOptions): Promise<RunningEmulator> {
  const organization = createOrganization(options);
  const keys: EmulatorKeys = { ...DEFAULT_KEYS, ...options.keys };
  const distinct = new Set(Object.values(keys));
  if (
    distinct.size !== 3 ||
    [...distinct].some((k) => typeof k !== 'string' || k.length === 0 || /\s/.test(k))
  ) {
    throw new RangeError('keys must be three different non-empty strings without spaces');
  }
  const plan = new FaultPlan(organization.seed, options.faults, options.latency);
  const state = new EmulatorState(organization);
  const requestLog: RequestLogEntry[] = [];
  if (options.streamAbove !== undefined && !(options.streamAbove >= 0)) {
    throw new RangeError(`streamAbove must be >= 0, got ${options.streamAbove}`);
  }
  const app = buildApp({
    org: organization,
    state,
    keys,
    plan,
    log: requestLog,
    ...(options.streamAbove !== undefined && { streamAbove: options.streamAbove }),
    paging: options.paging ?? 'spec',
  });
  const host = options.host ?? '127.0.0.1';
  await app.listen({ port: options.port ?? 0, host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  const baseUrl = `http://${shownHost}:${port}`;
  return {
    baseUrl,
    appUrl: baseUrl,
    keys,
    organization,
    requestLog,
    creditLimits: state.creditLimits,
    close: async () => {
      await app.close();
    },
  };
}
