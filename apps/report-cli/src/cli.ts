/**
 * `run()`: the whole `orgreport` command behind one function. The entry point (main.ts) imports this
 * module only, so that start-up loads commander and the program, never the library exports of index.ts.
 */
import { scrubText } from '@orgreport/api-core/redact';
import { CommanderError } from 'commander';
import type { CommandContext } from './context.ts';
import { EXIT, exitCodeOf, messageOf } from './errors.ts';
import { type CliIo, processIo, type TextOut } from './io.ts';
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
  const secrets = new Set<string>();
  const given = { ...processIo(), ...io };
  // Whatever a stage prints (data a server echoed included) passes through the mask of the secrets known by then.
  const ctx: CommandContext = {
    io: { ...given, stdout: masked(given.stdout, secrets), stderr: masked(given.stderr, secrets) },
    secrets,
  };
  const envKey = ctx.io.env.ORGREPORT_API_KEY;
  if (envKey) ctx.secrets.add(envKey);
  const program = createProgram(ctx);
  try {
    await program.parseAsync(argv, { from: 'user' });
    return EXIT.ok;
  } catch (error) {
    // Commander has printed its message (or the help); the program's exit overrides chose the code.
    if (error instanceof CommanderError) return error.exitCode;
    ctx.io.stderr.write(`orgreport: ${messageOf(error)}\n`);
    const verbose =
      argv.includes('--verbose') || argv.includes('-v') || ctx.io.env.ORGREPORT_LOG_LEVEL === 'debug';
    if (verbose && error instanceof Error && error.stack) ctx.io.stderr.write(`${error.stack}\n`);
    return exitCodeOf(error);
  }
}

/** `out` with every secret of `secrets` (as the set is when writing) and every bearer token masked. */
function masked(out: TextOut, secrets: ReadonlySet<string>): TextOut {
  return {
    write: (text: string) => out.write(scrubText(text, [...secrets])),
    isTTY: out.isTTY,
    columns: out.columns,
  };
}
