/**
 * A store brought up to date (`orgreport sync`): each organization of the settings fetched into the
 * store for the days it lacks, up to yesterday (UTC). A damaged store fails before any fetch; every
 * run is recorded in the store (`_sync/`), failed or not. A rebuild fetches nothing: it makes every
 * dataset again from the raw responses the store kept.
 */
import type { IsoDate, IsoMonth } from '@orgreport/api-core';
import type { RunContext } from '../context.ts';
import { CliError, EXIT, messageOf, UsageError } from '../errors.ts';
import type { Reporter } from '../reporter.ts';
import { configuredOrgId, organizationConfigs, requireStore, type Settings } from '../settings.ts';
import { checkBeforeSync, recordRun, type SyncRunOutcome } from './sync-runs.ts';
import { type SyncOutcome, syncIntoStore } from './sync-store.ts';

/** What to sync besides the settings. */
export interface StoreSyncRequest {
  /** First day wanted (default and earliest: the API's first day). */
  since?: IsoDate;
  /** Last day wanted (default and latest: yesterday, UTC). */
  until?: IsoDate;
  /** Months fetched again whole, replacing their partitions. */
  refetch?: IsoMonth[];
  /** Users of the demo organization: sync the demo instead of the settings' organizations. */
  demoUsers?: number;
  /** Every organization of the settings. */
  allOrgs?: boolean;
}

/**
 * Syncs each organization the settings choose into `settings.store`; `onSynced` sees each one's
 * outcome as it is done. One organization failing does not stop the others; the run then throws
 * at the end, naming them.
 */
export async function syncOrganizations(
  config: Settings,
  request: StoreSyncRequest,
  ctx: RunContext,
  reporter: Reporter,
  onSynced: (outcome: SyncOutcome) => void = () => {},
): Promise<SyncOutcome[]> {
  const store = requireStore(config);
  const { since, until, refetch, demoUsers } = request;
  if (since && until && since > until) {
    throw new UsageError(`--since ${since} is after --until ${until}`);
  }
  if (demoUsers !== undefined && (request.allOrgs || config.org)) {
    throw new UsageError('--demo syncs the demo organization: leave out --org and --all-orgs');
  }
  const targets = demoUsers !== undefined ? [config] : organizationConfigs(config, request.allOrgs);
  const failed: string[] = [];
  const outcomes: SyncOutcome[] = [];
  for (const target of targets) {
    const label = target.organizationName ?? 'the organization';
    const run: SyncRunOutcome = { started: target.now() };
    try {
      await checkBeforeSync(store, reporter);
      const result = await syncIntoStore(
        {
          store,
          ...(since && { since }),
          ...(until && { until }),
          ...(refetch && { refetch }),
          ...(demoUsers !== undefined && { demoUsers }),
          ...(configuredOrgId(target) && { orgId: configuredOrgId(target) }),
          onOrganization: (orgId) => {
            run.orgId = orgId;
          },
        },
        target,
        reporter,
        ctx,
      );
      outcomes.push(result);
      onSynced(result);
    } catch (error) {
      run.error = error;
      // One organization failing does not stop the others' syncs; the run still fails at the end.
      if (targets.length === 1) throw error;
      failed.push(label);
      reporter.error(`${label}: ${messageOf(error)}`);
    } finally {
      // Every run is recorded in the store, failed or not (a watch reads them).
      await recordRun(store, target, run, reporter, ctx);
    }
  }
  if (failed.length > 0) {
    throw new CliError(
      `${failed.length} of ${targets.length} organizations failed to sync (${failed.join(', ')}); the others are stored`,
      EXIT.failure,
    );
  }
  return outcomes;
}

/** The datasets of `settings.store` made again from its raw responses, without a request. */
export async function rebuildStoreDatasets(
  config: Settings,
  reporter: Reporter,
): Promise<Array<{ orgId: string; spans: number }>> {
  const store = requireStore(config);
  const { rebuildStore } = await import('@orgreport/store');
  const stage = reporter.stage('rebuild');
  const results = await rebuildStore(store, {
    now: config.now,
    onProgress: (p) => stage.update(`organization ${p.orgId}: raw span ${p.index + 1} of ${p.of}`),
  });
  stage.done(results.map((r) => `organization ${r.orgId}: ${r.spans} raw span(s) replayed`).join('; '));
  return results;
}
