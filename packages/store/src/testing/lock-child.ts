/**
 * A process that takes an organization's lock when told to, for the test of processes racing for a
 * stale lock: `node --conditions=@orgreport/source --import tsx src/testing/lock-child.ts`. Each
 * line on stdin is a store folder; it tries `lockOrganization(store, 'org_a')` at once, and prints
 * one JSON line: `{ round, held: [from, to] }` (Date.now() while it held the lock, 40 ms) or
 * `{ round, error }`. It prints `{ ready: true }` first, once loaded.
 */
import { createInterface } from 'node:readline';
import { lockOrganization } from '../lock.ts';
import { openStore } from '../store-file.ts';

process.stdout.write(`${JSON.stringify({ ready: true })}\n`);
let round = 0;
for await (const root of createInterface({ input: process.stdin })) {
  const r = round++;
  try {
    const lock = await lockOrganization(await openStore(root), 'org_a', () => new Date());
    const from = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 40));
    const to = Date.now();
    await lock.release();
    process.stdout.write(`${JSON.stringify({ round: r, held: [from, to] })}\n`);
  } catch (error) {
    process.stdout.write(`${JSON.stringify({ round: r, error: (error as Error).name })}\n`);
  }
}
