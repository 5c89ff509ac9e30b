/**
 * `orgreport watch --store DIR`: the alert rules over the store's history, run after the daily sync
 * (see `watchStore` of `@orgreport/pipeline/watch`). The command prints what fired and where it
 * went; alerts are not errors: the exit code is 0 whatever fires, and not 0 when something could
 * not be read or a delivery failed.
 */
import { scrubText } from '@orgreport/api-core/redact';
import { UsageError } from '@orgreport/pipeline/errors';
import { backtestStore, type WatchRequest, watchStore } from '@orgreport/pipeline/watch';
import type { ConfigFlags } from '../../config/config.ts';
import { type CommandContext, setUp } from '../../context.ts';
import { printBacktest, printWatch } from '../../watch/print.ts';

export interface WatchOptions extends ConfigFlags, WatchRequest {
  json?: boolean;
  backtest?: boolean;
}

/** Runs the watch over the store of `--store`. */
export async function watch(options: WatchOptions, ctx: CommandContext): Promise<void> {
  const started = performance.now();
  const { config, reporter } = setUp(options, ctx);
  // What is printed passes through the run's secrets too (a sync error in the log could hold one).
  const stdout = { write: (text: string) => ctx.io.stdout.write(scrubText(text, [...ctx.secrets])) };
  if (options.backtest) {
    if (options.dryRun) throw new UsageError('--backtest only reads the store: it takes no --dry-run');
    printBacktest(stdout, await backtestStore(config, options), Boolean(options.json), started);
    return;
  }
  const outcome = await watchStore(config, options, ctx, reporter);
  // `--quiet` is for cron: what fired went to its routes; only errors are printed.
  if (options.json || reporter.enabled('info'))
    printWatch(stdout, outcome.results, {
      ...outcome,
      json: Boolean(options.json),
      started,
    });
  if (outcome.failure !== undefined) throw outcome.failure;
}
