/** `orgreport distribute`: the command's flags and help; its work loads only when it runs. */
import type { Command } from 'commander';
import type { CommandContext } from '../../context.ts';
import { CONNECTION, RENDERING, withFlags } from '../../options.ts';

export function distributeCommand(program: Command, ctx: CommandContext): void {
  withFlags(
    program
      .command('distribute')
      .description(
        "make and deliver every reader's report of a month: each manager their people's, each owner their cost center's, named readers the organization's (a plan says who gets what)",
      )
      .addHelpText(
        'after',
        "\nThe month is read once (from the store or a fresh fetch); each delivery is recorded in a ledger, so a rerun sends only what is not delivered yet.\nScopes with fewer people than the minimum group size get no report.\nWithout --plan, each manager gets the PDF of everyone under them; a plan (docs/distribution.md) adds cost-center owners, teams and named readers, each with their formats.\nExamples: orgreport distribute --demo --dry-run\n          orgreport distribute --demo --plan examples/distribution/plan.yaml --dry-run   (from the repository: the demo organization's plan)",
      ),
    ...CONNECTION,
    'month',
    'partial',
    'demo',
    'demoUsers',
    'orgName',
    'org',
    'hookLog',
    'store',
    'json',
    'plan',
    ...RENDERING,
  )
    .option(
      '--dry-run',
      'print the plan resolved (every recipient, scope, formats, people, scopes held back), send nothing',
    )
    .option(
      '--shard <K/N>',
      "this job's share of the recipients, for N jobs of a scheduler (its own ledger part)",
    )
    .option(
      '--resend <recipients>',
      'send again what the ledger holds as delivered: all, or comma-separated recipients',
    )
    .action(async (flags) => (await import('./distribute.ts')).distribute(flags, ctx));
}
