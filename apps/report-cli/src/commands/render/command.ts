/** `orgreport render`: the command's flags and help; its work loads only when it runs. */
import type { Command } from 'commander';
import type { CommandContext } from '../../context.ts';
import { COMMON, RENDERING, withFlags } from '../../options.ts';

export function renderCommand(program: Command, ctx: CommandContext): void {
  withFlags(
    program.command('render').description('re-render a report from a snapshot directory, offline (no key)'),
    ...COMMON,
    'json',
    ...RENDERING,
  )
    .requiredOption('--snapshot <dir>', 'snapshot directory (written by monthly or fetch)')
    .addHelpText(
      'after',
      '\nExample: orgreport render --snapshot ./snapshots/2026-10 --out ./reports --formats pdf,xlsx',
    )
    .action(async (flags) => (await import('./render.ts')).render(flags, ctx));
}
