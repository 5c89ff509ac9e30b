/**
 * Flags shared by several commands, defined once (in the manner of nuxt/cli's `_shared.ts`) and
 * added to each command that takes them.
 */
import type { ExitCode } from '@orgreport/pipeline/errors';
import { type Command, CommanderError, Option } from 'commander';
import { CONFIG_SETTING, flagHelp, SETTINGS, type SettingKey } from './config/settings.ts';

/** A setting's flag, its help made from the settings table (text, variable, default). */
const settingFlag = (key: SettingKey) => () => new Option(SETTINGS[key].flag!, flagHelp(key));

const SHARED = {
  config: () => new Option(CONFIG_SETTING.flag, `${CONFIG_SETTING.help} (${CONFIG_SETTING.env})`),
  today: () => new Option('--today <YYYY-MM-DD>', 'the day to treat as today, UTC (reproducible runs)'),
  quiet: () => new Option('-q, --quiet', 'print errors only'),
  verbose: () => new Option('-v, --verbose', 'print debug logs (same as ORGREPORT_LOG_LEVEL=debug)'),
  baseUrl: settingFlag('baseUrl'),
  appUrl: settingFlag('appUrl'),
  maxRetries: settingFlag('maxRetries'),
  requestTimeout: settingFlag('requestTimeout'),
  headersTimeout: settingFlag('headersTimeout'),
  idleTimeout: settingFlag('idleTimeout'),
  maxResponseMib: settingFlag('maxResponseMiB'),
  maxListItems: settingFlag('maxListItems'),
  allowRedirectTo: settingFlag('allowRedirectTo'),
  deadline: settingFlag('deadline'),
  month: () => new Option('--month <YYYY-MM>', 'report month (default: the last complete month)'),
  partial: () => new Option('--partial', 'accept the current, incomplete month (the report says "partial")'),
  out: settingFlag('out'),
  formats: settingFlag('formats'),
  templates: settingFlag('templates'),
  sections: settingFlag('sections'),
  store: settingFlag('store'),
  email: settingFlag('email'),
  attachXlsx: () => new Option('--attach-xlsx', 'attach the workbook to the mail too'),
  smtpUrl: settingFlag('smtpUrl'),
  mailFrom: settingFlag('mailFrom'),
  orgName: settingFlag('organizationName'),
  org: settingFlag('org'),
  directory: settingFlag('directory'),
  definitionsUrl: settingFlag('definitionsUrl'),
  allOrgs: () =>
    new Option('--all-orgs', 'run for every organization the config file lists, one after the other'),
  hookLog: settingFlag('hookLog'),
  scope: settingFlag('scope'),
  minGroupSize: settingFlag('minGroupSize'),
  personRows: settingFlag('personRows'),
  pseudonymize: settingFlag('pseudonymize'),
  fileAccess: settingFlag('fileAccess'),
  plan: settingFlag('plan'),
  deliver: settingFlag('deliver'),
  destinations: settingFlag('destinations'),
  maxPerMinute: settingFlag('maxPerMinute'),
  unknown: settingFlag('unknownDeliveries'),
  ledger: settingFlag('ledger'),
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
  'directory',
  'definitionsUrl',
  'email',
  'attachXlsx',
  'smtpUrl',
  'mailFrom',
  'deliver',
  'destinations',
  'maxPerMinute',
  'unknown',
  'ledger',
  'minGroupSize',
  'personRows',
  'pseudonymize',
  'fileAccess',
];

/** An exit override: commander's errors end with `code`; help and version keep their 0. */
export function exitWith(code: ExitCode): (error: CommanderError) => never {
  return (error) => {
    throw error.exitCode === 0 ? error : new CommanderError(code, error.code, error.message);
  };
}
