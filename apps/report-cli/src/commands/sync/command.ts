/** `orgreport sync`: the command's flags and help; its work loads only when it runs. */
import type { Command } from 'commander';
import type { CommandContext } from '../../context.ts';
import { CONNECTION, withFlags } from '../../options.ts';

export function syncCommand(program: Command, ctx: CommandContext): void {
  withFlags(
    program
      .command('sync')
      .description(
        'fetch into a Parquet store the days it does not hold yet (from 2026-01-14 or --since up to yesterday, UTC)',
      )
      .addHelpText(
        'after',
        '\nSafe to run any time: a second sync fetches nothing; a killed sync leaves every partition whole.\nExample: orgreport sync --demo --store ./store --since 2026-09-01',
      ),
    ...CONNECTION,
    'store',
    'demo',
    'demoUsers',
    'orgName',
    'org',
    'allOrgs',
    'hookLog',
    'json',
  )
    .option('--since <YYYY-MM-DD>', 'first day wanted (default and earliest: 2026-01-14)')
    .option('--until <YYYY-MM-DD>', 'last day wanted (default and latest: yesterday, UTC)')
    .option('--refetch <months>', 'months fetched again whole, replacing their partitions (YYYY-MM,...)')
    .option(
      '--rebuild',
      'fetch nothing: make every dataset again from the raw responses the store kept (after damage or an upgrade)',
    )
    .action(async (flags) => (await import('./sync.ts')).sync(flags, ctx));
}
