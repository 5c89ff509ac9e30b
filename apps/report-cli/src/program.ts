/**
 * The `orgreport` program: every command, each declared by its own folder under `commands/` (its
 * `command.ts` holds its flags and help, beside the module that runs it), with the command's code
 * loaded only when it runs (so `orgreport --help` and `orgreport hook record` never load Puppeteer,
 * ExcelJS or Fastify).
 */

import { EXIT } from '@orgreport/pipeline/errors';
import { Command } from 'commander';
import packageJson from '../package.json' with { type: 'json' };
import { apiCommand } from './commands/api/command.ts';
import { distributeCommand } from './commands/distribute/command.ts';
import { emulatorCommand } from './commands/emulator/command.ts';
import { fetchCommand } from './commands/fetch/command.ts';
import { hookCommand } from './commands/hook/command.ts';
import { limitsCommand } from './commands/limits/command.ts';
import { monthlyCommand } from './commands/monthly/command.ts';
import { queryCommand } from './commands/query/command.ts';
import { renderCommand } from './commands/render/command.ts';
import { rollupCommand } from './commands/rollup/command.ts';
import { syncCommand } from './commands/sync/command.ts';
import { watchCommand } from './commands/watch/command.ts';
import { environmentVariables } from './config/settings.ts';
import type { CommandContext } from './context.ts';
import { exitWith } from './options.ts';

export const EXIT_CODES_HELP = `
Start here:
  orgreport monthly --demo            last month's report of a demo organization (no key needed)
  orgreport monthly --month 2026-10   a month of yours (ORGREPORT_BASE_URL, ORGREPORT_API_KEY)
  orgreport <command> --help          a command's flags, defaults and examples
The manual: docs/README.md in orgreport's repository (a page per command and capability).

Exit codes:
  0  done
  1  anything else (network or server failure, mail not sent, limits not applied)
  2  usage or input error (bad flag, month, config value, input or snapshot file)
  3  authentication or permission (missing or invalid API key, a key without the needed role)

Environment: ${environmentVariables().join(', ')}.
Flags win over the environment, which wins over the config file (--config).`;

/** Builds the program; actions receive `ctx` and load their command module on demand. */
export function createProgram(ctx: CommandContext): Command {
  const program = new Command('orgreport')
    .description('Monthly reports (PDF, Excel, HTML, JSON) from an AI coding-agent service organization API.')
    .version(packageJson.version, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show this help')
    .showHelpAfterError('(add --help for usage)')
    .addHelpText('after', EXIT_CODES_HELP)
    // Set before any subcommand is added, so that every subcommand inherits them.
    .exitOverride(exitWith(EXIT.usage))
    .configureOutput({
      writeOut: (text) => ctx.io.stdout.write(text),
      writeErr: (text) => ctx.io.stderr.write(text),
    });

  monthlyCommand(program, ctx);
  distributeCommand(program, ctx);
  syncCommand(program, ctx);
  rollupCommand(program, ctx);
  queryCommand(program, ctx);
  watchCommand(program, ctx);
  fetchCommand(program, ctx);
  renderCommand(program, ctx);
  emulatorCommand(program, ctx);
  limitsCommand(program, ctx);
  apiCommand(program, ctx);
  hookCommand(program, ctx);

  return program;
}

/**
 * `orgreport help montly` as `orgreport montly`: Commander answers a help request for a command it
 * does not know with the whole help, where the command itself gets "unknown command 'montly' (Did
 * you mean monthly?)" and exit code 2.
 */
export function unknownHelpAsCommand(program: Command, argv: readonly string[]): string[] {
  const [first, name] = argv;
  const known = (n: string) => program.commands.some((c) => c.name() === n || c.aliases().includes(n));
  if (first === 'help' && name !== undefined && !name.startsWith('-') && !known(name)) return [name];
  return [...argv];
}
