/** `orgreport limits apply` and `orgreport limits template`: the commands' flags and help; their work loads only when it runs. */
import type { Command } from 'commander';
import type { CommandContext } from '../../context.ts';
import { CONNECTION, withFlags } from '../../options.ts';

export function limitsCommand(program: Command, ctx: CommandContext): void {
  const limits = program.command('limits').description('per-user credit limits');
  withFlags(
    limits
      .command('apply')
      .description('set limits from a CSV, JSON or XLSX of email,limit (every row validated, batches of 100)')
      .argument('<file>', 'a .csv, .json or .xlsx file')
      .addHelpText(
        'after',
        '\nWith a store, every limit the API accepted is recorded in it (_limits/; the API cannot read limits back).\nExample: orgreport limits apply limits.csv --dry-run',
      ),
    ...CONNECTION,
    'store',
  )
    .option('--dry-run', 'validate and print, send nothing')
    .action(async (file, flags) => (await import('./apply.ts')).limitsApply(file, flags, ctx));
  withFlags(
    limits
      .command('template')
      .description("write a workbook of each user's credits with an empty limit column"),
    ...CONNECTION,
    'month',
    'partial',
    'demo',
    'demoUsers',
  )
    .requiredOption('--out <file>', 'the .xlsx file to write')
    .addHelpText(
      'after',
      '\nFill in the limit column, then: orgreport limits apply limits.xlsx\nExample: orgreport limits template --demo --out limits.xlsx',
    )
    .action(async (flags) => (await import('./template.ts')).limitsTemplate(flags, ctx));
}
