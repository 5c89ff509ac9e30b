/**
 * `orgreport sync`: fetches into a Parquet store the days it does not hold yet, up to yesterday
 * (UTC) (see `syncOrganizations` of `@orgreport/pipeline/store`); `--rebuild` fetches nothing and
 * is not a run of the record.
 */
import { type IsoDate, type IsoMonth, isIsoDate, parseIsoMonth } from '@orgreport/api-core';
import { UsageError } from '@orgreport/pipeline/errors';
import { requireStore } from '@orgreport/pipeline/settings';
import { demoUsersOf } from '@orgreport/pipeline/snapshot';
import { rebuildStoreDatasets, syncOrganizations } from '@orgreport/pipeline/store';
import type { ConfigFlags } from '../../config/config.ts';
import { type CommandContext, setUp } from '../../context.ts';
import { jsonSummary } from '../../print/summary.ts';

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

/** Syncs the store of `--store` (or ORGREPORT_STORE / config `store`). */
export async function sync(options: SyncOptions, ctx: CommandContext): Promise<void> {
  const started = performance.now();
  const { config, reporter } = setUp(options, ctx);
  const store = requireStore(config);
  if (options.rebuild) {
    if (options.since || options.until || options.refetch || options.demo) {
      throw new UsageError('--rebuild fetches nothing: it takes no --since, --until, --refetch or --demo');
    }
    const rebuilt = await rebuildStoreDatasets(config, reporter);
    if (options.json) ctx.io.stdout.write(jsonSummary({ command: 'sync', store, rebuilt }, started));
    return;
  }
  const since = day(options.since, '--since');
  const until = day(options.until, '--until');
  const refetch = months(options.refetch);
  const demoUsers = demoUsersOf(options);
  await syncOrganizations(
    config,
    {
      ...(since && { since }),
      ...(until && { until }),
      ...(refetch && { refetch }),
      ...(demoUsers !== undefined && { demoUsers }),
      allOrgs: options.allOrgs,
    },
    ctx,
    reporter,
    (result) => {
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
    },
  );
}
