/** A month's snapshot only (`orgreport fetch`), written atomically to its folder. */
import { basename, dirname } from 'node:path';
import type { Snapshot } from '@orgreport/api-core';
import { writeSnapshot } from '@orgreport/snapshot';
import type { RunContext } from '../context.ts';
import { type CommittedOutput, OutputSet } from '../output/atomic.ts';
import { checkSnapshotFolder } from '../output/targets.ts';
import { formatBytes, type Reporter } from '../reporter.ts';
import type { Settings } from '../settings.ts';
import { type AcquireFlags, acquireSnapshot } from './acquire.ts';

/**
 * Fetches the month the request chooses (or reads it from the store) and writes its snapshot
 * folder at `target` (an absolute path): it appears whole or not at all.
 */
export async function fetchMonthSnapshot(
  config: Settings,
  request: AcquireFlags,
  target: string,
  ctx: RunContext,
  reporter: Reporter,
): Promise<{ snapshot: Snapshot; written: CommittedOutput }> {
  await checkSnapshotFolder(target, `the snapshot folder ${target}`);
  const snapshot = await acquireSnapshot(request, config, reporter, ctx);
  const outputs = await new OutputSet(dirname(target)).open();
  try {
    await writeSnapshot(await outputs.directory(basename(target)), snapshot);
    const [written] = await outputs.commit();
    reporter.info(`snapshot: ${written!.path} (${formatBytes(written!.bytes)})`);
    return { snapshot, written: written! };
  } catch (error) {
    await outputs.abort();
    throw error;
  }
}
