/**
 * The fetch step shared by `monthly`, `fetch` and `limits template`: decide the period from the
 * configuration's clock, connect (or start the demo), fetch the snapshot with progress, close.
 */
import { comparisonPeriod, type Snapshot } from '@orgreport/api-core';
import { fetchedRangeOf, fetchSnapshot } from '@orgreport/snapshot';
import packageJson from '../../package.json' with { type: 'json' };
import { connect } from '../connect.ts';
import type { RunContext } from '../context.ts';
import { CliError, EXIT } from '../errors.ts';
import { readHookLog } from '../hook/record.ts';
import type { Reporter } from '../reporter.ts';
import type { Settings } from '../settings.ts';
import { type AcquireFlags, demoUsersOf, reportPeriod } from './period.ts';

export { type AcquireFlags, demoUsersOf, reportPeriod } from './period.ts';

/**
 * The snapshot of the period the flags choose: from the store when one is configured (fetching
 * only what it lacks), else fetched afresh.
 */
export async function acquireSnapshot(
  flags: AcquireFlags,
  config: Settings,
  reporter: Reporter,
  ctx: RunContext,
): Promise<Snapshot> {
  if (config.store) {
    const { snapshotFromStore } = await import('../store/read-month.ts');
    return snapshotFromStore(flags, { ...config, store: config.store }, reporter, ctx);
  }
  return fetchPeriod(flags, config, reporter, ctx);
}

/** Fetches the snapshot of the period the flags choose. */
async function fetchPeriod(
  flags: AcquireFlags,
  config: Settings,
  reporter: Reporter,
  ctx: RunContext,
): Promise<Snapshot> {
  const period = reportPeriod(flags, config);
  const comparison = comparisonPeriod(period);
  const demoUsers = demoUsersOf(flags);
  const connection = await connect(
    config,
    reporter,
    ctx,
    demoUsers === undefined ? undefined : { users: demoUsers },
  );
  const deadline = config.deadlineMs === undefined ? undefined : AbortSignal.timeout(config.deadlineMs);
  try {
    const range = fetchedRangeOf(period, comparison);
    const hookEvents = config.hookLog ? await readHookLog(config.hookLog, range) : undefined;
    const stage = reporter.stage('fetch');
    reporter.debug(`fetching ${range.start}..${range.end} for ${period.month}`);
    const snapshot = await fetchSnapshot(connection.client, {
      period,
      comparison,
      now: config.now,
      toolVersion: packageJson.version,
      organizationName: config.organizationName ?? connection.organizationName,
      hookEvents,
      secrets: [...ctx.secrets],
      onProgress: (p) => stage.update(`${p.pages} pages, ${p.userDays} user-day rows`),
      ...(deadline && { signal: deadline }),
    }).catch((error: unknown) => {
      if (deadline?.aborted) {
        throw new CliError(
          `the run passed its deadline of ${config.deadlineMs! / 60_000} minutes (--deadline, ORGREPORT_DEADLINE) while fetching; nothing was written`,
          EXIT.failure,
          { cause: error },
        );
      }
      throw error;
    });
    for (const origin of connection.client.stats.redirectedTo) {
      reporter.warn(`requests were redirected to ${origin} (allowed by --allow-redirect-to)`);
    }
    // A demo snapshot says so: made again into a report (render), it is priced and placed the same.
    if (demoUsers !== undefined) snapshot.manifest.demo = { users: demoUsers, today: config.today };
    const stats = connection.client.stats;
    stage.done(
      `${snapshot.manifest.organization.name} ${period.month}${period.partial ? ' (partial)' : ''}: ${stats.requests} requests, ${snapshot.userDays.user_id.length} user-day rows, ${snapshot.orgUsers.length} users`,
    );
    return snapshot;
  } finally {
    await connection.close();
  }
}
