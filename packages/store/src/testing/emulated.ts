/** Test helpers: an emulated organization, a client of it, and a fresh store folder. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OrgClient } from '@orgreport/api-core';
import { type EmulatorOptions, type RunningEmulator, startEmulator } from '@orgreport/emulator';

export const TODAY = '2026-11-22';
export const now = () => new Date(`${TODAY}T06:00:00Z`);

/** A clock that always says 06:00 UTC on `day`. */
export function clockAt(day: string): () => Date {
  return () => new Date(`${day}T06:00:00Z`);
}

export function tempStore(): string {
  return join(mkdtempSync(join(tmpdir(), 'orgreport-store-')), 'store');
}

/**
 * An emulator (seed 11, 25 users, today {@link TODAY} unless `options` say otherwise) and a client of
 * it whose clock is 06:00 UTC on the emulator's today.
 */
export async function emulated(
  options: Partial<EmulatorOptions> = {},
): Promise<{ emulator: RunningEmulator; client: OrgClient; now: () => Date }> {
  const emulator = await startEmulator({ seed: 11, users: 25, repos: 3, today: TODAY, ...options });
  const clock = clockAt(options.today ?? TODAY);
  const client = new OrgClient({
    apiKey: emulator.keys.manager,
    baseUrl: emulator.baseUrl,
    appUrl: emulator.appUrl,
    now: clock,
  });
  return { emulator, client, now: clock };
}
