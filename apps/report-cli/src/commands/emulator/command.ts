/** `orgreport emulator`: the command's flags and help; its work loads only when it runs. */
import type { Command } from 'commander';
import type { CommandContext } from '../../context.ts';

export function emulatorCommand(program: Command, ctx: CommandContext): void {
  program
    .command('emulator')
    .description('run the API emulator over a synthetic organization until stopped (Ctrl-C)')
    .option('--port <port>', 'port on 127.0.0.1 (0 = any free port)', '4020')
    .option('--seed <n>', 'seed of the synthetic organization', '1')
    .option('--users <n>', 'number of users', '200')
    .option('--today <YYYY-MM-DD>', 'the emulated today (data runs to the day before; default the clock)')
    .option('--keys <list>', 'API keys per role: owner:K1,manager:K2,member:K3')
    .option('--latency <ms>', 'added latency per request in ms')
    .option('--fault-rate <r>', 'share of requests answered with a fault, 0..1')
    .option(
      '--fault-kinds <list>',
      'faults to draw from, comma-separated: server-error, unavailable, rate-limit, drop, malformed (default all)',
    )
    .option('--retry-after <s>', 'seconds sent in Retry-After with an injected 429 (default 1)')
    .option('--hostile', 'plant hostile values (markup, formulas, long strings) in the data')
    .option('--drift', 'simulate schema drift: unknown fields, renamed settings, new enum values')
    .option(
      '--paging <spelling>',
      '/users paging fields: spec (has_more, next_cursor) or published (hasMore, nextCursor)',
      'spec',
    )
    .option(
      '--plant <event>',
      "plant an event on a day (repeatable): security-change:YYYY-MM-DD:SETTING (an admin flips the boolean setting, e.g. sandbox.enabled) or credit-spike:USER-INDEX:YYYY-MM-DD:FACTOR (that user's credits multiplied from the day on)",
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .option(
      '--directory <file>',
      "write the organization's people directory (email,team,cost_center,manager,... as CSV) and exit: the demo's with the defaults",
    )
    .option('-q, --quiet', 'print only the addresses and keys')
    .addHelpText(
      'after',
      '\nIt prints its URL and keys: point ORGREPORT_BASE_URL and ORGREPORT_API_KEY at them.\nExample: orgreport emulator --port 4020 --users 500',
    )
    .action(async (flags) => (await import('./emulator.ts')).emulator(flags, ctx));
}
