/** What the crash tests and their child process agree on: the child's arguments, its recipients, its Message-ID host. */

export interface CrashChildArgs {
  smtpUrl: string;
  ledger: string;
  /** Where the report's document is written. */
  dir: string;
  unknown: 'resend' | 'skip';
  /** Print `ready` and wait on stdin before sending anything. */
  pause?: boolean;
}

export const CRASH_RECIPIENTS = Array.from({ length: 8 }, (_, i) => `r${i + 1}@acme.test`);
export const CRASH_HOST = 'acme.test';
