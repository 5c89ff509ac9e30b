/**
 * `orgreport sync`: fetches into a Parquet store the days it does not hold yet, up to yesterday
 * (UTC). A damaged store fails the run before any fetch; every run is recorded in the store
 * (`_sync/`), failed or not; `--rebuild` fetches nothing and is not a run of the record.
 */
import { type Clock, type IsoDate, type IsoMonth, isIsoDate, parseIsoMonth } from '@orgreport/api-core';
import { CliError, EXIT, messageOf, UsageError } from '@orgreport/pipeline/errors';
import { configuredOrgId, organizationConfigs } from '@orgreport/pipeline/settings';
import { demoUsersOf } from '@orgreport/pipeline/snapshot';
import { checkBeforeSync, recordRun, type SyncRunOutcome, syncIntoStore } from '@orgreport/pipeline/store';
import type { ConfigFlags } from '../config/config.ts';
import { type CommandContext, setUp } from '../context.ts';
import { jsonSummary } from '../print/summary.ts';

export interface SyncOptions extends ConfigFlags {
  since?: string;
  until?: string;
  refetch?: string;
  rebuild?: boolean;
  demo?: boolean;
  demoUsers?: string;
  allOrgs?: boolean;
  json?: boolean;
}

function day(value: string | undefined, flag: string): IsoDate | undefined {
  if (value === undefined) return undefined;
  if (!isIsoDate(value)) {
    throw new UsageError(
      `${flag}: expected a real calendar day as YYYY-MM-DD (got ${JSON.stringify(value)})`,
    );
  }
  return value;
}

function months(value: string | undefined): IsoMonth[] | undefined {
  if (value === undefined) return undefined;
  return value.split(',').map((m) => {
    try {
      return parseIsoMonth(m.trim(), '--refetch');
    } catch (error) {
      throw new UsageError((error as Error).message, { cause: error });
    }
  });
}

/** `sync --rebuild`: the datasets made again from the store's raw responses, without a request. */
async function rebuild(
  store: string,
  now: Clock,
  options: SyncOptions,
  ctx: CommandContext,
  reporter: ReturnType<typeof setUp>['reporter'],
  started: number,
): Promise<void> {
  const { rebuildStore } = await import('@orgreport/store');
  const stage = reporter.stage('rebuild');
  const results = await rebuildStore(store, {
    now,
    onProgress: (p) => stage.update(`organization ${p.orgId}: raw span ${p.index + 1} of ${p.of}`),
  });
  stage.done(results.map((r) => `organization ${r.orgId}: ${r.spans} raw span(s) replayed`).join('; '));
  if (options.json) {
    ctx.io.stdout.write(jsonSummary({ command: 'sync', store, rebuilt: results }, started));
  }
}

/** Syncs the store of `--store` (or ORGREPORT_STORE / config `store`). */
export async function sync(options: SyncOptions, ctx: CommandContext): Promise<void> {
  const started = performance.now();
  const { config, reporter } = setUp(options, ctx);
  if (!config.store) {
    throw new UsageError('no store: give --store DIR (or ORGREPORT_STORE, or "store" in the config file)');
  }
  if (options.rebuild) {
    if (options.since || options.until || options.refetch || options.demo) {
      throw new UsageError('--rebuild fetches nothing: it takes no --since, --until, --refetch or --demo');
    }
    await rebuild(config.store, config.now, options, ctx, reporter, started);
    return;
  }
  const since = day(options.since, '--since');
  const until = day(options.until, '--until');
  if (since && until && since > until) {
    throw new UsageError(`--since ${since} is after --until ${until}`);
  }
  const refetch = months(options.refetch);
  const demoUsers = demoUsersOf(options);
  if (demoUsers !== undefined && (options.allOrgs || config.org)) {
    throw new UsageError('--demo syncs the demo organization: leave out --org and --all-orgs');
  }
  const store = config.store;
  const targets = demoUsers !== undefined ? [config] : organizationConfigs(config, options.allOrgs);
  const failed: string[] = [];
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
      if (options.json) {
        ctx.io.stdout.write(
          jsonSummary(
            {
              command: 'sync',
              organization: { id: result.orgId, name: result.organizationName ?? result.orgId },
              store,
              spans: result.spans,
              partitions: { written: result.written, unchanged: result.unchanged },
              requests: result.requests,
            },
            started,
          ),
        );
      }
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
}
