/** `orgreport hook record` and `orgreport hook config`: the commands' flags and help; their work loads only when it runs. */
import { EXIT } from '@orgreport/pipeline/errors';
import type { Command } from 'commander';
import type { CommandContext } from '../../context.ts';
import { exitWith, withFlags } from '../../options.ts';

export function hookCommand(program: Command, ctx: CommandContext): void {
  const hook = program.command('hook').description('record agent hook events for the report');
  withFlags(
    hook
      .command('record')
      .description('read one hook event (JSON) from stdin and append it to the hook log; never blocks'),
    'config',
    'hookLog',
    'quiet',
    'verbose',
  )
    .option('--timeout <ms>', 'give up reading stdin after this long', '2000')
    // Some agents read a hook's exit code 2 as "block the agent": a mistyped hook command line must
    // not block every tool call, so its usage errors end with 1 like its other failures.
    .exitOverride(exitWith(EXIT.failure))
    .addHelpText(
      'after',
      '\nA bad or missing event prints a message on stderr and exits 1 (never 2: agents may read 2 as "block").\nExample (what orgreport hook config puts in the agent\'s settings): orgreport hook record --hook-log ~/.orgreport/hooks.jsonl',
    )
    .action(async (flags) => (await import('./hook.ts')).hookRecord(flags, ctx));
  withFlags(
    hook.command('config').description('print the hooks configuration for the four events'),
    'config',
    'hookLog',
  )
    .option('--command <cmd>', 'how the agent runs orgreport', 'orgreport')
    .option('--timeout <seconds>', 'hook timeout in seconds', '5')
    .addHelpText('after', '\nExample: orgreport hook config --hook-log ~/.orgreport/hooks.jsonl')
    .action(async (flags) => (await import('./hook.ts')).hookConfig(flags, ctx));
}
