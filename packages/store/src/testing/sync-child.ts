/**
 * A sync in a process of its own, for tests that kill it or run two at once:
 * `node --conditions=@orgreport/source --import tsx src/testing/sync-child.ts '<json SyncChildArgs>'`.
 * It starts its own emulator (deterministic given the options, so a test can start an equal one)
 * and prints every progress event as one JSON line on stdout, then `{"stage":"done",...}`.
 */
import type { EmulatorOptions } from '@orgreport/emulator';
import { syncStore } from '../sync.ts';
import { emulated } from './emulated.ts';

export interface SyncChildArgs {
  store: string;
  since: string;
  emulator?: Partial<EmulatorOptions>;
}

const args = JSON.parse(process.argv[2] ?? '{}') as SyncChildArgs;
const env = await emulated(args.emulator);
try {
  const result = await syncStore(args.store, {
    client: env.client,
    now: env.now,
    toolVersion: 't',
    since: args.since,
    // Pipes are written synchronously on Linux: a line printed is out before the next step starts.
    onProgress: (p) => process.stdout.write(`${JSON.stringify(p)}\n`),
  });
  process.stdout.write(`${JSON.stringify({ stage: 'done', result })}\n`);
} finally {
  await env.emulator.close();
}
