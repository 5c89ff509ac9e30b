/**
 * Every setting of a run in one declarative table: its flag, environment variable, config-file key
 * and schema, help text and default. The commands' flags and `--help` (options.ts), the config
 * file's schema and JSON Schema, the labels of validation messages (config.ts) and the README's
 * settings table are all made from it, so they cannot drift apart.
 */
import { DEFAULT_MIN_GROUP_SIZE } from '@orgreport/metrics/defaults';
import { planSchema } from '@orgreport/pipeline/plan-schema';
import { LOG_LEVELS, REPORT_FORMATS, type ReportFormat } from '@orgreport/pipeline/settings';
import { watchConfig } from '@orgreport/pipeline/watch-settings';
import { z } from 'zod';

export { LOG_LEVELS, REPORT_FORMATS, type ReportFormat };

/** The most retries a setting may ask for: with 8 s backoff steps, 10 already wait over a minute per request. */
export const MAX_RETRIES_LIMIT = 10;

export const url = z
  .string()
  .trim()
  .refine((v) => /^https?:\/\/[^\s/]+/i.test(v) && URL.canParse(v), 'expected an http(s) URL')
  .transform((v) => v.replace(/\/+$/, ''));
export const smtpUrl = z
  .string()
  .trim()
  .refine((v) => /^smtps?:\/\/[^\s]+/i.test(v) && URL.canParse(v), 'expected an smtp:// or smtps:// URL');
export const email = z.email('expected an e-mail address');
export const emailList = z.array(email).min(1, 'expected at least one e-mail address');
export const nonEmpty = z.string().trim().min(1, 'must not be empty');
export const formats = z
  .array(z.enum(REPORT_FORMATS, `expected formats among ${REPORT_FORMATS.join(', ')}`))
  .min(1, 'expected at least one format');
export const currency = z.string().regex(/^[A-Z]{3}$/, 'expected a three-letter currency code such as EUR');
export const sectionList = z.array(nonEmpty).min(1, 'expected at least one section');
export const packageList = z.array(nonEmpty).min(1, 'expected at least one package');

// A whole number from a flag or variable (text) or the config file (a number).
const fromText = (pattern: RegExp) => (v: unknown) =>
  typeof v === 'string' && pattern.test(v) ? Number(v) : v;
export const retries = z.preprocess(
  fromText(/^\s*\d+\s*$/),
  z
    .number(`expected a whole number from 0 to ${MAX_RETRIES_LIMIT}`)
    .int(`expected a whole number from 0 to ${MAX_RETRIES_LIMIT}`)
    .min(0, `expected a whole number from 0 to ${MAX_RETRIES_LIMIT}`)
    .max(MAX_RETRIES_LIMIT, `expected a whole number from 0 to ${MAX_RETRIES_LIMIT}`),
);
// A positive number from a flag or variable (text) or the config file (a number).
const positiveNumber = (what: string, max: number) =>
  z.preprocess(
    fromText(/^\s*\d+(\.\d+)?\s*$/),
    z.number(`expected ${what}`).positive(`expected ${what}`).max(max, `expected ${what} up to ${max}`),
  );
export const seconds = positiveNumber('a number of seconds above 0', 86_400);
export const mebibytes = positiveNumber('a number of MiB above 0', 1_048_576);
export const minutes = positiveNumber('a number of minutes above 0', 10_080);
export const wholeCount = z.preprocess(
  fromText(/^\s*\d+\s*$/),
  z
    .number('expected a whole number above 0')
    .int('expected a whole number above 0')
    .positive('expected a whole number above 0'),
);
// A price from a variable (text) or the config file (a number).
export const price = z.preprocess(
  (v) => (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : v),
  z.number().positive('must be a positive number'),
);
export const origin = url.transform((v) => new URL(v).origin);
/** On or off: a flag (true), a variable (`1`, `true`, `yes`, `0`, `false`, `no`) or a boolean in the config file. */
export const flagBoolean = z.preprocess(
  (v) =>
    typeof v === 'string'
      ? ((
          { '1': true, true: true, yes: true, '0': false, false: false, no: false } as Record<string, boolean>
        )[v.trim().toLowerCase()] ?? v)
      : v,
  z.boolean('expected true or false'),
);
/** A list in the config file: an array, or one comma-separated string like the flag's. */
const listOr = <T extends z.ZodType>(items: T) => z.union([items, z.string()]);

/** One setting: where it may come from, what it means, its default, the config file's schema of it. */
export interface Setting<S extends z.ZodType = z.ZodType> {
  /** The flag with its value name (`--base-url <url>`); none for settings kept off the command line. */
  flag?: string;
  /** How the README's flag column shows it when it is not one plain flag. */
  flagLabel?: string;
  env: string;
  /** Help text, one line. */
  help: string;
  /** The default, as `--help` and the README say it. */
  default: string;
  /** The config file's value; the key is the setting's name in {@link SETTINGS}. */
  file: S;
  /** How the README names the key's form when it takes more than one (`array or comma list`). */
  fileNote?: string;
}

const setting = <S extends z.ZodType>(s: Setting<S>): Setting<S> => s;

/** Every setting, keyed by its config-file key, in the order the README lists them. */
export const SETTINGS = {
  apiKey: setting({
    flagLabel: '(none: keep keys out of shell history)',
    env: 'ORGREPORT_API_KEY',
    help: 'API key of a Manager or Owner; never printed or written',
    default: 'none: required except `--demo`, `render`, `hook`',
    file: nonEmpty,
  }),
  baseUrl: setting({
    flag: '--base-url <url>',
    env: 'ORGREPORT_BASE_URL',
    help: 'API base URL',
    default: 'none: required except `--demo`, `render`, `hook`',
    file: url,
  }),
  appUrl: setting({
    flag: '--app-url <url>',
    env: 'ORGREPORT_APP_URL',
    help: 'web application URL, for readiness',
    default: '`baseUrl`',
    file: url,
  }),
  maxRetries: setting({
    flag: '--max-retries <n>',
    env: 'ORGREPORT_MAX_RETRIES',
    help: `retries of a failed request, 0..${MAX_RETRIES_LIMIT} (the client library's own default is 2)`,
    default: '4',
    file: retries,
  }),
  requestTimeout: setting({
    flag: '--request-timeout <s>',
    env: 'ORGREPORT_REQUEST_TIMEOUT',
    help: 'seconds for one request, body included',
    default: '300',
    file: seconds,
  }),
  headersTimeout: setting({
    flag: '--headers-timeout <s>',
    env: 'ORGREPORT_HEADERS_TIMEOUT',
    help: 'seconds until a response starts',
    default: '30',
    file: seconds,
  }),
  idleTimeout: setting({
    flag: '--idle-timeout <s>',
    env: 'ORGREPORT_IDLE_TIMEOUT',
    help: 'seconds a body may take to send another KiB (a stalled request is tried twice)',
    default: '10',
    file: seconds,
  }),
  maxResponseMiB: setting({
    flag: '--max-response-mib <n>',
    env: 'ORGREPORT_MAX_RESPONSE_MIB',
    help: 'MiB of one response, decompressed (a body held whole stops at 64)',
    default: '2048',
    file: mebibytes,
  }),
  maxListItems: setting({
    flag: '--max-list-items <n>',
    env: 'ORGREPORT_MAX_LIST_ITEMS',
    help: 'items of one list before the server is taken for a runaway',
    default: 'per list: 100,000 reports or revisions, 1,000,000 users, 50,000,000 user-day rows',
    file: wholeCount,
  }),
  allowRedirectTo: setting({
    flag: '--allow-redirect-to <origins>',
    env: 'ORGREPORT_ALLOW_REDIRECT_TO',
    help: 'other hosts a redirect may lead to, comma-separated',
    default: 'none: a redirect off the configured hosts is refused',
    file: listOr(z.array(origin)),
    fileNote: 'array or comma list',
  }),
  deadline: setting({
    flag: '--deadline <minutes>',
    env: 'ORGREPORT_DEADLINE',
    help: 'minutes for the whole fetch',
    default: 'none',
    file: minutes,
  }),
  smtpUrl: setting({
    flag: '--smtp-url <url>',
    env: 'ORGREPORT_SMTP_URL',
    help: 'SMTP server, smtp(s)://user:pass@host:port',
    default: 'required to deliver to an e-mail address',
    file: smtpUrl,
  }),
  mailFrom: setting({
    flag: '--mail-from <address>',
    env: 'ORGREPORT_MAIL_FROM',
    help: 'sender address of the mail',
    default: 'the SMTP user when it is an e-mail address; else required to deliver to an e-mail address',
    file: email,
  }),
  email: setting({
    flag: '--email <addresses>',
    env: 'ORGREPORT_MAIL_TO',
    help: 'mail the report to these comma-separated addresses',
    default: 'no mail',
    file: listOr(emailList),
    fileNote: 'array or comma list',
  }),
  logLevel: setting({
    flagLabel: '`--quiet` (error), `--verbose` (debug)',
    env: 'ORGREPORT_LOG_LEVEL',
    help: 'error, warn, info or debug',
    default: '`info`',
    file: z.enum(LOG_LEVELS),
    fileNote: '`error`, `warn`, `info`, `debug`',
  }),
  hookLog: setting({
    flag: '--hook-log <file>',
    env: 'ORGREPORT_HOOK_LOG',
    help: 'JSON-lines log of hook events',
    default: 'no hook section',
    file: nonEmpty,
  }),
  out: setting({
    flag: '--out <dir>',
    env: 'ORGREPORT_OUT_DIR',
    help: 'output directory',
    default: '`./reports`',
    file: nonEmpty,
  }),
  formats: setting({
    flag: '--formats <list>',
    env: 'ORGREPORT_FORMATS',
    help: 'comma-separated: pdf,xlsx,html,json',
    default: '`pdf,xlsx,html,json`',
    file: listOr(formats),
    fileNote: 'array or comma list',
  }),
  templates: setting({
    flag: '--templates <dir>',
    env: 'ORGREPORT_TEMPLATES',
    help: 'template directory overriding the built-in templates file by file',
    default: 'the built-in templates',
    file: nonEmpty,
  }),
  sections: setting({
    flag: '--sections <list>',
    env: 'ORGREPORT_SECTIONS',
    help: 'sections in order: built-in ids and installed section packages',
    default: 'the built-in sections (see docs/sections.md)',
    file: listOr(sectionList),
    fileNote: 'array or comma list',
  }),
  store: setting({
    flag: '--store <dir>',
    env: 'ORGREPORT_STORE',
    help: 'Parquet store folder: sync fills it, monthly fetches only what it lacks and reads the month from it, limits apply records the limits set in it',
    default: 'none: each run fetches its months afresh (query, watch and rollup need one)',
    file: nonEmpty,
  }),
  organizationName: setting({
    flag: '--org-name <name>',
    env: 'ORGREPORT_ORG_NAME',
    help: 'organization name shown in the report',
    default: 'the organization id',
    file: nonEmpty,
  }),
  org: setting({
    flag: '--org <name>',
    env: 'ORGREPORT_ORG',
    help: "the organization of the config file's `organizations` to use, by name or id",
    default: 'the only one listed, else the top-level key',
    file: nonEmpty,
  }),
  directory: setting({
    flag: '--directory <file>',
    env: 'ORGREPORT_DIRECTORY',
    help: 'people directory, CSV or XLSX with email,team,cost_center,manager: the Teams and Chargeback sections, the scopes, the alerts of teams and cost centers',
    default: 'none: no teams, no chargeback',
    file: nonEmpty,
  }),
  definitionsUrl: setting({
    flag: '--definitions-url <url>',
    env: 'ORGREPORT_DEFINITIONS_URL',
    help: "where the report's full definitions are published: the short report's last page links there",
    default: "none: the page points to the HTML report's definitions and the workbook's sheet",
    file: url,
  }),
  pricePerCredit: setting({
    env: 'ORGREPORT_PRICE_PER_CREDIT',
    help: 'price of one credit, for costs',
    default: 'no cost shown',
    file: price,
  }),
  pricePerSeat: setting({
    env: 'ORGREPORT_PRICE_PER_SEAT',
    help: "price of one seat for a month, in the same currency: the chargeback's seat cost",
    default: 'no seat cost shown',
    file: price,
  }),
  currency: setting({
    env: 'ORGREPORT_CURRENCY',
    help: 'currency of the price, a three-letter code',
    default: '`USD` when a price is set',
    file: currency,
  }),
  scope: setting({
    flag: '--scope <scope>',
    env: 'ORGREPORT_SCOPE',
    help: 'report on a set of people of the directory: org, team:NAME, cost-center:NAME or manager:EMAIL',
    default: '`org`: the whole organization',
    file: nonEmpty,
  }),
  minGroupSize: setting({
    flag: '--min-group-size <n>',
    env: 'ORGREPORT_MIN_GROUP_SIZE',
    help: 'no report for a scope, and no figures or alerts of a group, of fewer people (where the reader may not see per-person rows)',
    default: String(DEFAULT_MIN_GROUP_SIZE),
    file: wholeCount,
  }),
  personRows: setting({
    flag: '--person-rows <who>',
    env: 'ORGREPORT_PERSON_ROWS',
    help: "whose per-person rows the report's readers see: all, scope (their scope's people) or none",
    default: '`all` for the organization report, `scope` for a scoped one',
    file: z.enum(['all', 'scope', 'none'], 'expected all, scope or none'),
  }),
  pseudonymize: setting({
    flag: '--pseudonymize',
    env: 'ORGREPORT_PSEUDONYMIZE',
    help: 'replace e-mails, user ids and names by keyed pseudonyms in every output (key in ORGREPORT_PSEUDONYM_KEY)',
    default: 'off',
    file: flagBoolean,
  }),
  pseudonymKey: setting({
    flagLabel: '(none: a key stays out of shell history and files)',
    env: 'ORGREPORT_PSEUDONYM_KEY',
    help: "the pseudonyms' key, 16 characters or more; the same key gives the same pseudonyms every month; never printed or written",
    default: 'required with `--pseudonymize`',
    file: z.never('keep the pseudonym key out of the config file: set ORGREPORT_PSEUDONYM_KEY'),
  }),
  fileAccess: setting({
    flag: '--file-access <who>',
    env: 'ORGREPORT_FILE_ACCESS',
    help: 'who may read the files a run creates (reports, snapshots, the store, the ledger): `owner` (the owner alone) or `group` (the owner and the group)',
    default: '`owner`',
    file: z.enum(['owner', 'group'], 'expected owner or group'),
  }),
  plan: setting({
    flag: '--plan <file>',
    env: 'ORGREPORT_PLAN',
    help: 'distribution plan (JSON or YAML): who gets which report (see Distribution)',
    default: "the config file's `distribution`, else each manager their people's PDF",
    file: nonEmpty,
  }),
  deliver: setting({
    flag: '--deliver <targets>',
    env: 'ORGREPORT_DELIVER',
    help: 'deliver the report (watch: the alerts) to these comma-separated targets: e-mail addresses (the mail with the PDF), slack:#channel, teams[:VAR], webhook:URL, s3://bucket/prefix/, dir:PATH (the documents of --formats), and the targets of --destinations packages',
    default: 'none',
    file: listOr(z.array(nonEmpty).min(1, 'expected at least one target')),
    fileNote: 'array or comma list',
  }),
  destinations: setting({
    flag: '--destinations <packages>',
    env: 'ORGREPORT_DESTINATIONS',
    help: 'installed packages that add delivery destinations (each exports `destination`, or a list `destinations`, made with defineDestination), comma-separated',
    default: 'the built-in destinations only',
    file: listOr(packageList),
    fileNote: 'array or comma list',
  }),
  maxPerMinute: setting({
    flag: '--max-per-minute <n>',
    env: 'ORGREPORT_MAX_PER_MINUTE',
    help: "deliveries sent per minute at most (a mail server's sending limit)",
    default: 'no limit',
    file: wholeCount,
  }),
  unknownDeliveries: setting({
    flag: '--unknown <resend|skip>',
    env: 'ORGREPORT_UNKNOWN_DELIVERIES',
    help: 'deliveries a crashed run left unknown (sent or not): send again with the same Message-ID, or skip',
    default: '`resend`',
    file: z.enum(['resend', 'skip'], 'expected resend or skip'),
  }),
  ledger: setting({
    flag: '--ledger <where>',
    env: 'ORGREPORT_LEDGER',
    help: 'the delivery ledger: file:DIR, s3://BUCKET/PREFIX/ or postgres://USER:PASSWORD@HOST/DB (keep that URL in the variable: never printed); every run, shard or machine sees every delivery',
    default: 'a file beside the store (`<store>/_ledger/`), else in the output folder',
    file: z
      .string()
      .trim()
      .refine(
        (v) => /^(file:.+|s3:\/\/.+|postgres(ql)?:\/\/.+)$/i.test(v),
        'expected file:DIR, s3://BUCKET/PREFIX/ or postgres://USER:PASSWORD@HOST/DATABASE',
      ),
  }),
  ledgerLease: setting({
    env: 'ORGREPORT_LEDGER_LEASE',
    help: "seconds a shared ledger's claim on a delivery stands with no outcome recorded: past it, its run is taken to be gone and the delivery unknown",
    default: '`600`',
    file: seconds,
  }),
  chromium: setting({
    env: 'ORGREPORT_CHROMIUM',
    help: 'a Chromium or Chrome binary; checked before fetching when a PDF is due',
    default: '`/usr/bin/chromium-headless-shell`, else `/usr/bin/chromium`',
    file: nonEmpty,
  }),
} as const;

export type SettingKey = keyof typeof SETTINGS;

/** `--config` names the file itself, so it is no key of it. */
export const CONFIG_SETTING = {
  flag: '--config <file>',
  env: 'ORGREPORT_CONFIG',
  help: 'config file, JSON or YAML (default: orgreport.config.json|yaml here, else ~/.config/orgreport/config.*)',
  default: 'no config file',
} as const;

/** The long flag of a setting (`--base-url`), or undefined when it has none. */
export function flagName(key: SettingKey): string | undefined {
  const flag: string | undefined = SETTINGS[key].flag;
  return flag?.split(' ')[0];
}

/** The property commander gives a setting's flag value under (`--max-response-mib` -> `maxResponseMib`). */
export function flagProperty(key: SettingKey): string | undefined {
  return flagName(key)
    ?.slice(2)
    .replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
}

/** The help line of a setting's flag: its text, variable and default. */
export function flagHelp(key: SettingKey): string {
  const s = SETTINGS[key];
  return `${s.help} (${s.env}; default ${s.default.replaceAll('`', '')})`;
}

/**
 * One organization of the config file's `organizations`: its name (what `--org` matches, and the
 * report's organization name), optionally its id, its own key (the name of the variable that holds
 * it, or the key itself) and optionally its own API address.
 */
export const organizationEntry = z
  .strictObject({
    name: nonEmpty,
    id: nonEmpty.optional(),
    apiKeyEnv: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'expected the name of an environment variable')
      .optional(),
    apiKey: nonEmpty.optional(),
    baseUrl: url.optional(),
    appUrl: url.optional(),
  })
  .refine(
    (o) => (o.apiKeyEnv === undefined) !== (o.apiKey === undefined),
    "give the organization's key as apiKeyEnv (the name of the variable holding it) or apiKey, one of them",
  );
export type OrganizationEntry = z.infer<typeof organizationEntry>;

/** The `organizations` key: each name and id once. */
export const organizationList = z
  .array(organizationEntry)
  .min(1, 'expected at least one organization')
  .superRefine((list, ctx) => {
    const seen = new Set<string>();
    for (const o of list) {
      for (const key of [o.name.toLowerCase(), ...(o.id ? [o.id] : [])]) {
        if (seen.has(key)) ctx.addIssue({ code: 'custom', message: `"${key}" is listed twice` });
        seen.add(key);
      }
    }
  });

type FileShape = { [K in SettingKey]: z.ZodOptional<(typeof SETTINGS)[K]['file']> } & {
  organizations: z.ZodOptional<typeof organizationList>;
  distribution: z.ZodOptional<typeof planSchema>;
  watch: z.ZodOptional<typeof watchConfig>;
};

/** The config file: every key optional, unknown keys refused so that a typo is named. */
export const configFileSchema = z.strictObject({
  ...(Object.fromEntries(Object.entries(SETTINGS).map(([key, s]) => [key, s.file.optional()])) as Omit<
    FileShape,
    'organizations' | 'distribution' | 'watch'
  >),
  organizations: organizationList.optional(),
  distribution: planSchema.optional(),
  watch: watchConfig.optional(),
} as FileShape);

/** The README's settings table, made from {@link SETTINGS} (a test holds the README to it). */
export function settingsMarkdown(): string {
  const flagCell = (key: SettingKey): string => {
    const s: Setting = SETTINGS[key];
    const name = flagName(key);
    return s.flagLabel ?? (name ? `\`${name}\`` : '(none)');
  };
  const rows: string[][] = [
    ['flag', 'environment', 'config file key', 'what it sets', 'default'],
    ...(Object.keys(SETTINGS) as SettingKey[]).map((key) => {
      const s: Setting = SETTINGS[key];
      return [
        flagCell(key),
        `\`${s.env}\``,
        `\`${key}\`${s.fileNote ? ` (${s.fileNote})` : ''}`,
        s.help,
        s.default,
      ];
    }),
    [
      '(none)',
      '(none)',
      '`organizations` (array)',
      'several organizations, each `{ name, id?, apiKeyEnv or apiKey, baseUrl?, appUrl? }`: `--org NAME` picks one, `--all-orgs` runs each',
      'one organization: the top-level settings',
    ],
    [
      '(none)',
      '(none)',
      '`distribution` (object)',
      'the distribution plan, as a `--plan` file holds it (see Distribution)',
      'each manager the PDF of everyone under them',
    ],
    [
      '(none)',
      '(none)',
      '`watch` (object)',
      'the alert rules of `orgreport watch`: `security`, `budgets`, `spike`, `stale`, `forecastDays`, and `routes`: where alerts are delivered (see docs/watch.md)',
      'security changes, spikes and stale data on; no budget but the limits set with `limits apply`; no route (alerts printed only)',
    ],
    [
      `\`${CONFIG_SETTING.flag.split(' ')[0]}\``,
      `\`${CONFIG_SETTING.env}\``,
      '(the file itself)',
      CONFIG_SETTING.help,
      CONFIG_SETTING.default,
    ],
  ];
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [line(rows[0]!), line(rows[0]!.map(() => '---')), ...rows.slice(1).map(line)].join('\n');
}

/** Every environment variable a run reads, for `--help`. */
export function environmentVariables(): string[] {
  return [...Object.values(SETTINGS).map((s) => s.env), CONFIG_SETTING.env];
}
