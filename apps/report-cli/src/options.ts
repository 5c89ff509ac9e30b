/**
 * Flags shared by several commands, defined once (in the manner of nuxt/cli's `_shared.ts`) and
 * added to each command that takes them.
 */
import { type Command, Option } from 'commander';

const SHARED = {
  config: () =>
    new Option(
      '--config <file>',
      'config file, JSON or YAML (default: orgreport.config.json|yaml here, else ~/.config/orgreport/config.*)',
    ),
  today: () => new Option('--today <YYYY-MM-DD>', 'the day to treat as today, UTC (reproducible runs)'),
  quiet: () => new Option('-q, --quiet', 'print errors only'),
  verbose: () => new Option('-v, --verbose', 'print debug logs (same as ORGREPORT_LOG_LEVEL=debug)'),
  baseUrl: () => new Option('--base-url <url>', 'API base URL (ORGREPORT_BASE_URL)'),
  appUrl: () => new Option('--app-url <url>', 'web application URL, for readiness (ORGREPORT_APP_URL)'),
  maxRetries: () =>
    new Option('--max-retries <n>', 'retries of a failed request, 0..10 (ORGREPORT_MAX_RETRIES; default 4)'),
  requestTimeout: () =>
    new Option('--request-timeout <s>', 'time limit of one request, body included (default 300)'),
  headersTimeout: () =>
    new Option('--headers-timeout <s>', 'time limit until a response starts (default 30)'),
  idleTimeout: () =>
    new Option('--idle-timeout <s>', 'longest a response body may take to send another KiB (default 10)'),
  maxResponseMib: () =>
    new Option('--max-response-mib <n>', 'most MiB of one response, decompressed (default 2048)'),
  maxListItems: () =>
    new Option('--max-list-items <n>', 'most items of one list before the server is taken for a runaway'),
  allowRedirectTo: () =>
    new Option('--allow-redirect-to <origins>', 'other hosts a redirect may lead to (comma-separated)'),
  deadline: () =>
    new Option('--deadline <minutes>', 'time limit of the whole fetch, in minutes (default none)'),
  month: () => new Option('--month <YYYY-MM>', 'report month (default: the last complete month)'),
  partial: () => new Option('--partial', 'accept the current, incomplete month (the report says "partial")'),
  out: () => new Option('--out <dir>', 'output directory (default ./reports)'),
  formats: () => new Option('--formats <list>', 'comma-separated: pdf,xlsx,html,json (default all)'),
  templates: () => new Option('--templates <dir>', 'template directory overriding the built-in templates'),
  sections: () =>
    new Option(
      '--sections <list>',
      'sections in order: built-in ids and installed section packages (default: the built-in ones)',
    ),
  email: () => new Option('--email <addresses>', 'mail the report to these comma-separated addresses'),
  attachXlsx: () => new Option('--attach-xlsx', 'attach the workbook to the mail too'),
  smtpUrl: () =>
    new Option('--smtp-url <url>', 'SMTP server, smtp(s)://user:pass@host:port (ORGREPORT_SMTP_URL)'),
  mailFrom: () => new Option('--mail-from <address>', 'sender address (ORGREPORT_MAIL_FROM)'),
  orgName: () => new Option('--org-name <name>', 'organization name shown in the report (default its id)'),
  hookLog: () => new Option('--hook-log <file>', 'JSON-lines log of hook events (ORGREPORT_HOOK_LOG)'),
  json: () =>
    new Option('--json', 'print one machine-readable JSON summary on stdout (progress stays on stderr)'),
  demo: () => new Option('--demo', 'run against a built-in emulated demo organization: no key, no network'),
  demoUsers: () => new Option('--demo-users <n>', 'users of the demo organization').default('200').hideHelp(),
} as const;

export type SharedFlag = keyof typeof SHARED;

/** Adds the named shared flags to `command`. */
export function withFlags(command: Command, ...flags: SharedFlag[]): Command {
  for (const flag of flags) command.addOption(SHARED[flag]());
  return command;
}

/** The flags every command takes. */
export const COMMON: SharedFlag[] = ['config', 'today', 'quiet', 'verbose'];
/** The flags of a command that talks to the API. */
export const CONNECTION: SharedFlag[] = [
  ...COMMON,
  'baseUrl',
  'appUrl',
  'maxRetries',
  'requestTimeout',
  'headersTimeout',
  'idleTimeout',
  'maxResponseMib',
  'maxListItems',
  'allowRedirectTo',
  'deadline',
];
/** The flags of a command that renders and delivers a report. */
export const RENDERING: SharedFlag[] = [
  'out',
  'formats',
  'templates',
  'sections',
  'email',
  'attachXlsx',
  'smtpUrl',
  'mailFrom',
];
