/**
 * `run()`: the whole `orgreport` command behind one function. The entry point (main.ts) imports this
 * module only, so that start-up loads commander and the program, never the library exports of index.ts.
 */
import { CommanderError } from 'commander';
import type { CommandContext } from './context.ts';
import { EXIT, exitCodeOf, messageOf } from './errors.ts';
import { type CliIo, processIo } from './io.ts';
import { createProgram } from './program.ts';

/**
 * Runs `orgreport` with the user's arguments (no `node` or script path) and returns the exit code:
 * 0 done, 1 anything else, 2 usage or input error, 3 authentication or permission. Only here are
 * errors turned into messages; `io` replaces the process's streams, environment and clock.
 *
 * @example
 * const code = await run(['monthly', '--demo', '--today', '2026-11-22'], { env: {} });
 */
export async function run(argv: string[], io: Partial<CliIo> = {}): Promise<number> {
  const ctx: CommandContext = { io: { ...processIo(), ...io }, secrets: new Set() };
  const envKey = ctx.io.env.ORGREPORT_API_KEY;
  if (envKey) ctx.secrets.add(envKey);
  const program = createProgram(ctx);
  try {
    await program.parseAsync(argv, { from: 'user' });
    return EXIT.ok;
  } catch (error) {
    // Commander has printed its message (or the help); the program's exit overrides chose the code.
    if (error instanceof CommanderError) return error.exitCode;
    const secrets = [...ctx.secrets];
    const { scrubText } = await import('@orgreport/api-core/redact');
    ctx.io.stderr.write(`orgreport: ${scrubText(messageOf(error), secrets)}\n`);
    const verbose =
      argv.includes('--verbose') || argv.includes('-v') || ctx.io.env.ORGREPORT_LOG_LEVEL === 'debug';
    if (verbose && error instanceof Error && error.stack) {
      ctx.io.stderr.write(`${scrubText(error.stack, secrets)}\n`);
    }
    return exitCodeOf(error);
  }
}
