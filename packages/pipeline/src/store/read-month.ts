/**
 * `monthly --store`: the report's days come from the store. The sync fetches only the days of the
 * report and comparison months the store lacks (a stored month is never fetched again), then the
 * period is read back as the snapshot a fresh fetch would have given.
 */
import { comparisonPeriod, type MonthPeriod, type Snapshot, userDayRowCount } from '@orgreport/api-core';
import type { SectionInputs } from '@orgreport/metrics';
import { fetchedRangeOf } from '@orgreport/snapshot';
import type { RunContext } from '../context.ts';
import type { Reporter } from '../reporter.ts';
import { configuredOrgId, type Settings } from '../settings.ts';
import { type AcquireFlags, demoUsersOf, reportPeriod } from '../snapshot/period.ts';
import { syncIntoStore } from './sync-store.ts';

/**
 * The period read from the store while the sync asks the API which organization the key belongs
 * to (the one request of a month the store holds): the reading does not wait for the answer. It is
 * read for the organization the configuration names, else for the store's only organization, and
 * only when the store holds every day of it; undefined otherwise (a failed read included: the read
 * after the sync says why).
 */
async function readAhead(
  store: string,
  config: Settings,
  period: MonthPeriod,
  read: (orgId: string) => Promise<Snapshot>,
): Promise<{ orgId: string; snapshot: Snapshot } | undefined> {
  try {
    const { listOrganizations } = await import('@orgreport/store');
    const orgs = configuredOrgId(config) ? [] : await listOrganizations(store);
    const orgId = configuredOrgId(config) ?? (orgs.length === 1 ? orgs[0]!.orgId : undefined);
    if (orgId === undefined) return undefined;
    // The months of the trend too, beside the month (see historyFromStore).
    historyAhead(store, orgId, period);
    return { orgId, snapshot: await read(orgId) };
  } catch {
    return undefined;
  }
}

type StoredHistory = Awaited<ReturnType<typeof import('@orgreport/store').readHistory>>;

/** The trend's months read ahead, by store, organization and month (taken by historyFromStore). */
const historiesAhead = new Map<string, Promise<StoredHistory>>();
const historyKey = (store: string, orgId: string, period: MonthPeriod) =>
  `${store}\n${orgId}\n${period.month}`;

/** Starts reading the trend's months of `orgId` up to `period`, for {@link historyFromStore} to take. */
function historyAhead(store: string, orgId: string, period: MonthPeriod): void {
  const history = import('@orgreport/store').then((m) =>
    m.readHistory(store, orgId, { until: period.month }),
  );
  history.catch(() => {}); // a failure is the read's where it is taken, or goes unused
  historiesAhead.set(historyKey(store, orgId, period), history);
}

/** The snapshot of the flags' period, from the store of `config.store` (synced first). */
export async function snapshotFromStore(
  flags: AcquireFlags,
  config: Settings & { store: string },
  reporter: Reporter,
  ctx: RunContext,
): Promise<Snapshot> {
  const period = reportPeriod(flags, config);
  const comparison = comparisonPeriod(period);
  const range = fetchedRangeOf(period, comparison);
  const demoUsers = demoUsersOf(flags);
  const read = async (orgId: string, organizationName?: string) => {
    const { readPeriod } = await import('@orgreport/store');
    return readPeriod(config.store, orgId, period, comparison, {
      ...(organizationName && { organizationName }),
      hookEvents: Boolean(config.hookLog),
    });
  };
  const ahead = readAhead(config.store, config, period, read);
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
  ).catch(async (error: unknown) => {
    await ahead; // no read left running behind the error
    throw error;
  });
  const stage = reporter.stage('read');
  // The read ahead stands when it was of the organization the key reads and the sync wrote nothing.
  const early = await ahead;
  const stands = early !== undefined && early.orgId === synced.orgId && synced.spans.length === 0;
  // Nor does the trend read ahead with it: the sync may have written some of its days.
  if (early && !stands) historiesAhead.delete(historyKey(config.store, early.orgId, period));
  const snapshot = stands ? early.snapshot : await read(synced.orgId, synced.organizationName);
  // The name of the sync's connection (the demo's) or of the configuration, as the read would give it.
  if (synced.organizationName) snapshot.manifest.organization.name = synced.organizationName;
  stage.done(
    `${period.month} from ${config.store}: ${userDayRowCount(snapshot.userDays)} user-day rows, ${snapshot.orgUsers.length} users`,
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
  const orgId = snapshot.manifest.organization.id;
  const key = historyKey(store, orgId, period);
  const ahead = historiesAhead.get(key);
  historiesAhead.delete(key);
  const history = await (ahead ?? readHistory(store, orgId, { until: period.month }));
  stage.done(`${history.length} month(s) from ${history[0]?.month ?? period.month} for the trend`);
  return { history };
}
