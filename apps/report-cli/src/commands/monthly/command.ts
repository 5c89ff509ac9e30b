/** `orgreport monthly`: the command's flags and help; its work loads only when it runs. */
import type { Command } from 'commander';
import type { CommandContext } from '../../context.ts';
import { CONNECTION, RENDERING, withFlags } from '../../options.ts';

export function monthlyCommand(program: Command, ctx: CommandContext): void {
  withFlags(
    program
      .command('monthly')
      .description('fetch, compute, render and deliver the monthly report')
      .addHelpText('after', '\nExample: orgreport monthly --demo'),
    ...CONNECTION,
    'month',
    'partial',
    'demo',
    'demoUsers',
    'orgName',
    'org',
    'allOrgs',
    'hookLog',
    'store',
    'json',
    'scope',
    ...RENDERING,
  ).action(async (flags) => (await import('./monthly.ts')).monthly(flags, ctx));
}
