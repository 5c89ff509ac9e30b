/** `orgreport rollup`: the command's flags and help; its work loads only when it runs. */
import type { Command } from 'commander';
import type { CommandContext } from '../../context.ts';
import { COMMON, RENDERING, withFlags } from '../../options.ts';

export function rollupCommand(program: Command, ctx: CommandContext): void {
  withFlags(
    program
      .command('rollup')
      .description(
        'one report over every organization of a store, from the store alone: a row per organization and their total',
      )
      .addHelpText(
        'after',
        '\nThe store must hold the month and the one before it of each organization (orgreport sync --all-orgs).\nExample: orgreport rollup --store ./store --month 2026-10',
      ),
    ...COMMON,
    'store',
    'month',
    'partial',
    'orgName',
    'json',
    ...RENDERING,
  ).action(async (flags) => (await import('./rollup.ts')).rollup(flags, ctx));
}
