/**
 * `run()`: the whole `orgreport` command behind one function. The entry point (main.ts) imports this
 * module only, so that start-up loads commander and the program, never the library exports of index.ts.
 */
import { constants as osConstants } from 'node:os';
import { scrubText } from '@orgreport/api-core/redact';
import { EXIT, exitCodeOf, messageOf } from '@orgreport/pipeline/errors';
import { CommanderError } from 'commander';
import type { CommandContext, StopCleanupKind } from './context.ts';
import { type CliIo, processIo, type TextOut } from './io.ts';
import { collectGarbage } from './memory.ts';
import { createProgram, unknownHelpAsCommand } from './program.ts';

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
  const stops = stopHandling(given);
  const ctx: CommandContext = {
    io: { ...given, stdout: masked(given.stdout, secrets), stderr: masked(given.stderr, secrets) },
    secrets,
    onStop: stops.register,
    releaseMemory: collectGarbage,
  };
  const envKey = ctx.io.env.ORGREPORT_API_KEY;
  if (envKey) ctx.secrets.add(envKey);
  const program = createProgram(ctx);
  try {
    await program.parseAsync(unknownHelpAsCommand(program, argv), { from: 'user' });
    return EXIT.ok;
  } catch (error) {
    if (stops.stopping) return stops.stopping; // the stop handler says why and ends the process
    // Commander has printed its message (or the help); the program's exit overrides chose the code.
    if (error instanceof CommanderError) return error.exitCode;
    ctx.io.stderr.write(`orgreport: ${messageOf(error)}\n`);
    // A stack for whoever asked for debug output, unless they asked for quiet too (refused as such).
    const quiet = argv.includes('--quiet') || argv.includes('-q');
    const verbose =
      !quiet &&
      (argv.includes('--verbose') || argv.includes('-v') || ctx.io.env.ORGREPORT_LOG_LEVEL === 'debug');
    if (verbose && error instanceof Error && error.stack) ctx.io.stderr.write(`${error.stack}\n`);
    return exitCodeOf(error);
  } finally {
    stops.done();
  }
}

/** How long a stopped run may take to clean up before the process ends anyway. */
const STOP_CLEANUP_MS = 5_000;

/**
 * A stop signal during a run: the registered cleanups run (the last first, all within a bound), the
 * run says it stopped (last, after what its stages still printed), and the process ends with 128 +
 * the signal's number, as a shell reports it. Work that would start after the signal (registering
 * its cleanup) is refused, so that nothing is written after the cleanups ran. A second signal ends
 * the process at once (its default), and so does one before anything registered.
 */
function stopHandling(io: CliIo) {
  const cleanups = new Set<() => Promise<unknown>>();
  const leftovers = new Set<() => Promise<unknown>>();
  let unlisten: (() => void) | undefined;
  const state = {
    /** The exit code of the stop under way, once a signal came. */
    stopping: 0,
    register(cleanup: () => Promise<unknown>, what: StopCleanupKind = 'work'): () => void {
      if (state.stopping) throw new Error('stopped before this work began');
      const set = what === 'work' ? cleanups : leftovers;
      set.add(cleanup);
      unlisten ??= io.onStopSignal((signal) => void stop(signal));
      return () => set.delete(cleanup);
    },
    done(): void {
      if (!state.stopping) unlisten?.();
    },
  };
  const stop = async (signal: string) => {
    state.stopping = 128 + (osConstants.signals[signal as NodeJS.Signals] ?? 15);
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      (async () => {
        // The work first, the last registered first: the deliveries stop before the reports they
        // wait for lose Chromium; then, with nothing writing any more, the files left half-written.
        for (const cleanup of [...cleanups].reverse()) await cleanup().catch(() => {});
        await Promise.allSettled([...leftovers].map((cleanup) => cleanup()));
      })(),
      new Promise((resolve) => {
        timer = setTimeout(resolve, STOP_CLEANUP_MS);
      }),
    ]);
    clearTimeout(timer);
    io.stderr.write(
      `orgreport: stopped by ${signal}; what was not finished was removed (run the command again to finish: nothing delivered is sent twice)\n`,
    );
    io.exit(state.stopping);
  };
  return state;
}

/** `out` with every secret of `secrets` (as the set is when writing) and every bearer token masked. */
function masked(out: TextOut, secrets: ReadonlySet<string>): TextOut {
  return {
    write: (text: string) => out.write(scrubText(text, [...secrets])),
    isTTY: out.isTTY,
    columns: out.columns,
  };
}
