/** `orgreport watch`: the command's flags and help; its work loads only when it runs. */
import type { Command } from 'commander';
import type { CommandContext } from '../../context.ts';
import { COMMON, withFlags } from '../../options.ts';

export function watchCommand(program: Command, ctx: CommandContext): void {
  withFlags(
    program
      .command('watch')
      .description(
        'alert rules over a store after the daily sync: security changes, budgets and forecasts, spikes, stale data',
      )
      .addHelpText(
        'after',
        '\nRules from the config file\'s "watch" key (docs/watch.md); each alert is new once, its state kept in <store>/_watch/.\nNew alerts go to the routes of "watch.routes" and to --deliver (the organization\'s alerts, no one\'s about a person), each once (the ledger in <store>/_ledger/).\nAlerts are not errors: the exit code is 0 whatever fires; 1 when the store cannot be read or a delivery failed.\nExample: orgreport sync --store ./store && orgreport watch --store ./store --directory people.csv --deliver dir:./alerts',
      ),
    ...COMMON,
    'store',
    'org',
    'allOrgs',
    'directory',
    'json',
    'deliver',
    'destinations',
    'smtpUrl',
    'mailFrom',
    'maxPerMinute',
    'unknown',
    'ledger',
    'minGroupSize',
    'fileAccess',
    'demo',
    'demoUsers',
  )
    .option('--dry-run', 'print what would fire and where it would go; record and send nothing')
    .option(
      '--backtest',
      "print the forecast's error over the store's history instead (by days into the month)",
    )
    .action(async (flags) => (await import('./watch.ts')).watch(flags, ctx));
}
