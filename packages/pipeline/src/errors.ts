/**
 * Typed errors of a run. The pipeline's functions throw them and never end the process; the CLI's
 * `run()` alone turns any error into a message and an exit code (see {@link exitCodeOf}), and a
 * program calling the pipeline can do the same.
 */
import { DamagedStoreError } from '@orgreport/store/errors';

/** Exit codes of `orgreport`, documented in `--help` and the README. */
export const EXIT = {
  /** The command did what it was asked. */
  ok: 0,
  /** Anything else: a network failure, a server error, a failed delivery, some limits not applied. */
  failure: 1,
  /** Bad usage or input: an unknown flag, a malformed month, an invalid config or input file. */
  usage: 2,
  /** The API key is missing, invalid, or lacks the role the operation needs. */
  auth: 3,
} as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** An error whose message is meant for the user as is, with the exit code it leads to. */
export class CliError extends Error {
  override name = 'CliError';
  constructor(
    message: string,
    readonly exitCode: ExitCode = EXIT.failure,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** Bad usage or input (exit code 2): the message names the flag, setting, file or row. */
export class UsageError extends CliError {
  override name = 'UsageError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, EXIT.usage, options);
  }
}

/** A missing, invalid or insufficient API key (exit code 3). */
export class AuthError extends CliError {
  override name = 'AuthError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, EXIT.auth, options);
  }
}

// Error classes of the packages below, recognised by name so that this module loads none of them
// (the store's damage by its class, from `@orgreport/store/errors`, which loads nothing else).
const USAGE_ERROR_NAMES = new Set([
  'SnapshotError',
  'DateInputError',
  'ValidationError',
  'ZodError',
  'BadRequestError',
  // Not a store, or a store that lacks what was asked; SQL the engine refused. (A store locked by
  // another sync is a failure of the moment: exit 1.)
  'StoreError',
  'StoreQueryError',
  // A mail template that cannot be read or does not compile.
  'MessageTemplateError',
  // A scope the directory does not know, or a manager column that cannot be followed.
  'ScopeError',
  // A delivery target no destination takes, or a destination's bad setting.
  'DestinationError',
  'DeliveryPlanError',
  // A ledger that cannot be opened as configured: no bucket, credentials refused, another schema version.
  'LedgerConfigError',
]);
const AUTH_ERROR_NAMES = new Set(['AuthenticationError', 'PermissionDeniedError']);

/** The exit code for any thrown value: typed CLI errors carry theirs; API and input errors are mapped. */
export function exitCodeOf(error: unknown): ExitCode {
  if (error instanceof CliError) return error.exitCode;
  if (!(error instanceof Error)) return EXIT.failure;
  // Not the user's input: a file of the store went bad (the message says how to mend it).
  if (error instanceof DamagedStoreError) return EXIT.failure;
  if (AUTH_ERROR_NAMES.has(error.name)) return EXIT.auth;
  const status = (error as { status?: unknown }).status;
  if (status === 401 || status === 403) return EXIT.auth;
  if (USAGE_ERROR_NAMES.has(error.name)) return EXIT.usage;
  // Object storage configured wrong (no bucket, credentials refused) is input to fix; a failing service is not.
  if (error.name === 'ObjectStoreError' && (error as { kind?: unknown }).kind === 'input') return EXIT.usage;
  return EXIT.failure;
}

/** The user-facing message of any thrown value (a cause chain adds its first useful line). */
export function messageOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  // The damaged file and its remedy, without the engine's words of its cause.
  if (error instanceof DamagedStoreError) {
    return `the store ${error.store} is damaged: ${error.file} ${error.problem}; ${error.remedy}`;
  }
  const base = error.message || error.name;
  const cause = (error as { cause?: unknown }).cause;
  if (error instanceof CliError || !(cause instanceof Error) || base.includes(cause.message)) return base;
  return `${base} (${cause.message})`;
}
