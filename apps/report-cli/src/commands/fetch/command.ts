/** `orgreport fetch`: the command's flags and help; its work loads only when it runs. */
import type { Command } from 'commander';
import type { CommandContext } from '../../context.ts';
import { CONNECTION, withFlags } from '../../options.ts';

export function fetchCommand(program: Command, ctx: CommandContext): void {
  withFlags(
    program.command('fetch').description('fetch a month into a snapshot directory only'),
    ...CONNECTION,
    'month',
    'partial',
    'demo',
    'demoUsers',
    'orgName',
    'hookLog',
    'out',
    'json',
  )
    .option('--snapshot <dir>', 'snapshot directory to write (default <out>/snapshot)')
    .addHelpText(
      'after',
      '\nThen re-render it offline with orgreport render.\nExample: orgreport fetch --demo --month 2026-10 --snapshot ./snapshots/2026-10',
    )
    .action(async (flags) => (await import('./fetch.ts')).fetch(flags, ctx));
}
