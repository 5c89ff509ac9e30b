/**
 * `monthly --store`: the report's days come from the store. The sync fetches only the days of the
 * report and comparison months the store lacks (a stored month is never fetched again), then the
 * period is read back as the snapshot a fresh fetch would have given.
 */
import { comparisonPeriod, type MonthPeriod, type Snapshot } from '@orgreport/api-core';
import type { SectionInputs } from '@orgreport/metrics';
import { fetchedRangeOf } from '@orgreport/snapshot';
import { type Config, configuredOrgId } from '../config/config.ts';
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
      ...(configuredOrgId(config) && { orgId: configuredOrgId(config) }),
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

/** The store's months up to the report's (12 at most) for the trend section. */
export async function historyFromStore(
  store: string,
  snapshot: Snapshot,
  period: MonthPeriod,
  reporter: Reporter,
): Promise<SectionInputs> {
  const { readHistory } = await import('@orgreport/store');
  const stage = reporter.stage('history');
  const history = await readHistory(store, snapshot.manifest.organization.id, { until: period.month });
  stage.done(`${history.length} month(s) from ${history[0]?.month ?? period.month} for the trend`);
  return { history };
}
