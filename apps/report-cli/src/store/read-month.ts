/**
 * `monthly --store`: the report's days come from the store. The sync fetches only the days of the
 * report and comparison months the store lacks (a stored month is never fetched again), then the
 * period is read back as the snapshot a fresh fetch would have given.
 */
import { comparisonPeriod, type Snapshot } from '@orgreport/api-core';
import { fetchedRangeOf } from '@orgreport/snapshot';
import type { Config } from '../config/config.ts';
import type { CommandContext } from '../context.ts';
import type { Reporter } from '../reporter.ts';
import { type AcquireFlags, demoUsersOf, reportPeriod } from '../snapshot/acquire.ts';
import { syncIntoStore } from './sync-store.ts';

/** The snapshot of the flags' period, from the store of `config.store` (synced first). */
export async function snapshotFromStore(
  flags: AcquireFlags,
  config: Config & { store: string },
  reporter: Reporter,
  ctx: CommandContext,
): Promise<Snapshot> {
  const period = reportPeriod(flags, config);
  const comparison = comparisonPeriod(period);
  const range = fetchedRangeOf(period, comparison);
  const demoUsers = demoUsersOf(flags);
  const synced = await syncIntoStore(
    {
      store: config.store,
      since: range.start,
      until: range.end,
      ...(demoUsers !== undefined && { demoUsers }),
    },
    config,
    reporter,
    ctx,
  );
  const { readPeriod } = await import('@orgreport/store');
  const stage = reporter.stage('read');
  const snapshot = await readPeriod(config.store, synced.orgId, period, comparison, {
    ...(synced.organizationName && { organizationName: synced.organizationName }),
    hookEvents: Boolean(config.hookLog),
  });
  stage.done(
    `${period.month} from ${config.store}: ${snapshot.userDays.user_id.length} user-day rows, ${snapshot.orgUsers.length} users`,
  );
  return snapshot;
}
