import { Command } from 'commander';
import packageJson from '../package.json' with { type: 'json' };

/** Builds the `orgreport` program. Commands arrive with their issues; for now it offers help and version. */
export function createProgram(): Command {
  return new Command('orgreport')
    .description('Monthly reports (PDF, Excel, HTML) from an AI coding-agent service organization API.')
    .version(packageJson.version, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show this help')
    .showHelpAfterError();
}

/** Runs the CLI with `argv` and returns the exit code; only the entry point sets it. */
export async function run(argv: string[]): Promise<number> {
  const program = createProgram().exitOverride();
  try {
    await program.parseAsync(argv);
    return 0;
  } catch (error) {
    const code = (error as { exitCode?: number }).exitCode;
    return typeof code === 'number' ? (code === 0 ? 0 : 2) : 1;
  }
}
