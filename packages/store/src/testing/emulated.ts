/** Test helpers: an emulated organization, a client of it, and a fresh store folder. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OrgClient } from '@orgreport/api-core';
import { type EmulatorOptions, type RunningEmulator, startEmulator } from '@orgreport/emulator';

export const TODAY = '2026-11-22';
export const now = () => new Date(`${TODAY}T06:00:00Z`);

export function tempStore(): string {
  return join(mkdtempSync(join(tmpdir(), 'orgreport-store-')), 'store');
}

export async function emulated(
  options: Partial<EmulatorOptions> = {},
): Promise<{ emulator: RunningEmulator; client: OrgClient }> {
  const emulator = await startEmulator({ seed: 11, users: 25, repos: 3, today: TODAY, ...options });
  const client = new OrgClient({
    apiKey: emulator.keys.manager,
    baseUrl: emulator.baseUrl,
    appUrl: emulator.appUrl,
    now,
  });
  return { emulator, client };
}
