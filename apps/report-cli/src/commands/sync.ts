/** `orgreport sync`: fetches into a Parquet store the days it does not hold yet, up to yesterday (UTC). */
import { type IsoDate, type IsoMonth, isIsoDate, parseIsoMonth } from '@orgreport/api-core';
import type { ConfigFlags } from '../config/config.ts';
import { type CommandContext, setUp } from '../context.ts';
import { UsageError } from '../errors.ts';
import { jsonSummary } from '../report/checks.ts';
import { demoUsersOf } from '../snapshot/acquire.ts';
import { syncIntoStore } from '../store/sync-store.ts';

export interface SyncOptions extends ConfigFlags {
  since?: string;
  until?: string;
  refetch?: string;
  demo?: boolean;
  demoUsers?: string;
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
  if (!config.store) {
    throw new UsageError('no store: give --store DIR (or ORGREPORT_STORE, or "store" in the config file)');
  }
  const since = day(options.since, '--since');
  const until = day(options.until, '--until');
  if (since && until && since > until) {
    throw new UsageError(`--since ${since} is after --until ${until}`);
  }
  const refetch = months(options.refetch);
  const demoUsers = demoUsersOf(options);
  const result = await syncIntoStore(
    {
      store: config.store,
      ...(since && { since }),
      ...(until && { until }),
      ...(refetch && { refetch }),
      ...(demoUsers !== undefined && { demoUsers }),
    },
    config,
    reporter,
    ctx,
  );
  if (options.json) {
    ctx.io.stdout.write(
      jsonSummary(
        {
          command: 'sync',
          organization: { id: result.orgId, name: result.organizationName ?? result.orgId },
          store: config.store,
          spans: result.spans,
          partitions: { written: result.written, unchanged: result.unchanged },
          requests: result.requests,
        },
        started,
      ),
    );
  }
}
