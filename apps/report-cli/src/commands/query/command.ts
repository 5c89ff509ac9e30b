/** `orgreport query`: the command's flags and help; its work loads only when it runs. */
import type { Command } from 'commander';
import type { CommandContext } from '../../context.ts';
import { COMMON, withFlags } from '../../options.ts';

export function queryCommand(program: Command, ctx: CommandContext): void {
  withFlags(
    program
      .command('query')
      .description("run SQL over a store's datasets (user_days, tokens_daily, ...; columns in docs/store.md)")
      .argument('<sql>', 'the query, e.g. "SELECT month, sum(billable_tokens) FROM user_days GROUP BY ALL"')
      .addHelpText(
        'after',
        '\nEvery dataset is a table of its name; org_id and month are columns too.\nExample: orgreport query --store ./store "SELECT month, count(DISTINCT user_id) FROM user_days GROUP BY ALL ORDER BY 1"',
      ),
    ...COMMON,
    'store',
  )
    .option('--format <format>', 'table, csv or json (one object per line)', 'table')
    .option('--max-rows <n>', 'rows printed at most (default 10000)')
    .action(async (sql, flags) => (await import('./query.ts')).query(sql, flags, ctx));
}
