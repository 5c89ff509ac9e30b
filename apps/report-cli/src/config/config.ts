/**
 * The configuration layer: the only module that reads the environment, the config file and the
 * clock. Each setting comes from its flag, else its environment variable, else the JSON config
 * file, else its default, and is validated with zod; a bad value gives a {@link UsageError} naming
 * the setting and where it came from. The API key is never part of a message.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { type Clock, type IsoDate, isIsoDate, utcDay } from '@orgreport/api-core/dates';
import { DEFAULT_MIN_GROUP_SIZE } from '@orgreport/metrics/defaults';
import { UsageError } from '@orgreport/pipeline/errors';
import {
  DEFAULT_CLI_MAX_RETRIES,
  LOG_LEVELS,
  type LogLevel,
  type OrganizationConfig,
  REPORT_FORMATS,
  type ReportFormat,
  type Settings,
} from '@orgreport/pipeline/settings';
import { z } from 'zod';
import {
  CONFIG_SETTING,
  configFileSchema,
  currency,
  email,
  emailList,
  flagBoolean,
  flagName,
  flagProperty,
  formats,
  MAX_RETRIES_LIMIT,
  mebibytes,
  minutes,
  nonEmpty,
  origin,
  packageList,
  price,
  retries,
  SETTINGS,
  type SettingKey,
  seconds,
  sectionList,
  smtpUrl,
  url,
  wholeCount,
} from './settings.ts';

export { DEFAULT_CLI_MAX_RETRIES, LOG_LEVELS, type LogLevel, REPORT_FORMATS, type ReportFormat };
/** The resolved settings of a run: the pipeline's {@link Settings}, under the name the CLI has always exported. */
export type Config = Settings;

/** Flags that feed configuration; every command accepts the subset it defines. */
export interface ConfigFlags {
  config?: string;
  today?: string;
  quiet?: boolean;
  verbose?: boolean;
  /** `--demo`: the demo organization, from an emulator the run starts (so no `--base-url`). */
  demo?: boolean;
  baseUrl?: string;
  appUrl?: string;
  smtpUrl?: string;
  mailFrom?: string;
  email?: string;
  hookLog?: string;
  out?: string;
  formats?: string;
  templates?: string;
  sections?: string;
  store?: string;
  orgName?: string;
  org?: string;
  directory?: string;
  maxRetries?: string;
  requestTimeout?: string;
  headersTimeout?: string;
  idleTimeout?: string;
  maxResponseMib?: string;
  maxListItems?: string;
  allowRedirectTo?: string;
  deadline?: string;
  scope?: string;
  minGroupSize?: string;
  personRows?: string;
  pseudonymize?: boolean;
  fileAccess?: string;
  plan?: string;
  deliver?: string;
  destinations?: string;
  maxPerMinute?: string;
  unknown?: string;
}

/** What configuration may read from outside: injected by `run()`. */
export interface ConfigSources {
  env: Record<string, string | undefined>;
  now: () => Date;
  cwd: string;
}

export { configFileSchema, MAX_RETRIES_LIMIT };
export type ConfigFile = z.infer<typeof configFileSchema>;

/**
 * The JSON Schema of the config file, generated from {@link configFileSchema} (the one source);
 * published as `orgreport.config.schema.json` (`pnpm --filter @orgreport/cli config-schema` writes it).
 */
export function configJsonSchema(): Record<string, unknown> {
  return {
    ...z.toJSONSchema(configFileSchema, { io: 'input', unrepresentable: 'any', target: 'draft-2020-12' }),
    title: 'orgreport configuration file',
    description:
      'orgreport.config.json / .yaml in the working folder, config.json / .yaml in $XDG_CONFIG_HOME/orgreport (or ~/.config/orgreport), or the file named by --config / ORGREPORT_CONFIG.',
  };
}

/** Splits `a,b , c` into trimmed non-empty items. */
export function splitList(value: string): string[] {
  return value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

function describeIssue(error: z.ZodError): string {
  return error.issues.map((i) => i.message).join('; ');
}

/**
 * A union's failure as its closest alternative says it: `formats: [pdf, docx]` fails as a list with
 * a bad item ("expected formats among ..."), not as "Invalid input" because it is not text either.
 */
function closestIssue(issue: z.core.$ZodIssue): z.core.$ZodIssue {
  if (issue.code !== 'invalid_union' || issue.errors.length === 0) return issue;
  // The alternative that got furthest: its issue is not about the value's type, or lies deeper.
  const branches = issue.errors.filter((b) => b.length > 0);
  const closest = branches.find((b) => b[0]!.code !== 'invalid_type' || b[0]!.path.length > 0);
  if (!closest) return issue;
  const inner = closestIssue(closest[0]!);
  return { ...inner, path: [...issue.path, ...inner.path] } as z.core.$ZodIssue;
}

/** Validates one value with `schema`; on failure names `label` (and shows the value unless secret). */
function check<T>(schema: z.ZodType<T>, value: unknown, label: string, secret = false): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const shown = secret ? '' : ` (got ${JSON.stringify(value)})`;
  throw new UsageError(`${label}: ${describeIssue(parsed.error)}${shown}`);
}

/** Names of the config file in the working folder, found in this order when no file is named. */
export const CONFIG_FILE_NAMES = ['orgreport.config.json', 'orgreport.config.yaml', 'orgreport.config.yml'];
/** Names of the config file in the user's config folder (`$XDG_CONFIG_HOME/orgreport`, `~/.config/orgreport`). */
export const USER_CONFIG_FILE_NAMES = ['config.json', 'config.yaml', 'config.yml'];

/** The first of `names` in `dir` alone (not its parents), as a path. */
// Loaded on use: `hook record` runs after every agent turn and reads no config file search or YAML.
const requireLazily = createRequire(import.meta.url);

function findIn(dir: string, names: string[]): string | undefined {
  const { lilconfigSync } = requireLazily('lilconfig') as typeof import('lilconfig');
  // The loaders hand back the text unparsed: readConfigFile parses it, with messages naming the file.
  const raw = (_path: string, content: string) => content;
  const found = lilconfigSync('orgreport', {
    searchPlaces: names,
    stopDir: dir,
    ignoreEmptySearchPlaces: false,
    loaders: { '.json': raw, '.yaml': raw, '.yml': raw },
  }).search(dir);
  return found?.filepath;
}

/**
 * The config file of a run: `--config`, else `ORGREPORT_CONFIG`, else the first of
 * {@link CONFIG_FILE_NAMES} in the working folder, else the first of {@link USER_CONFIG_FILE_NAMES}
 * in the user's config folder; undefined when there is none.
 */
export function findConfigFile(
  flag: string | undefined,
  env: Record<string, string | undefined>,
  cwd: string,
): { path: string; label: string } | undefined {
  const named = flag ?? (env[CONFIG_SETTING.env] || undefined);
  if (named) return { path: resolve(cwd, named), label: named };
  const userDir = env.XDG_CONFIG_HOME
    ? join(env.XDG_CONFIG_HOME, 'orgreport')
    : env.HOME
      ? join(env.HOME, '.config', 'orgreport')
      : undefined;
  const found =
    findIn(cwd, CONFIG_FILE_NAMES) ?? (userDir ? findIn(userDir, USER_CONFIG_FILE_NAMES) : undefined);
  return found ? { path: found, label: found } : undefined;
}

/** Reads and validates a JSON or YAML config file (by its extension); errors name the file and the key. */
export function readConfigFile(path: string): ConfigFile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new UsageError(`config file ${path}: cannot be read (${(error as NodeJS.ErrnoException).code})`);
  }
  const yaml = /\.ya?ml$/i.test(path);
  let json: unknown;
  try {
    json = yaml ? (requireLazily('yaml') as typeof import('yaml')).parse(text) : JSON.parse(text);
  } catch (error) {
    const what = yaml ? 'YAML' : 'JSON';
    throw new UsageError(
      `config file ${path}: not valid ${what} (${(error as Error).message.split('\n')[0]})`,
    );
  }
  const parsed = configFileSchema.safeParse(json);
  if (parsed.success) return parsed.data;
  const issue = closestIssue(parsed.error.issues[0]!);
  const key = issue.path.join('.');
  const detail =
    issue.code === 'unrecognized_keys' && key === ''
      ? `unknown setting ${issue.keys.map((k) => JSON.stringify(k)).join(', ')} (known: ${Object.keys(configFileSchema.shape).join(', ')})`
      : issue.code === 'unrecognized_keys'
        ? `${key}: unknown setting ${issue.keys.map((k) => JSON.stringify(k)).join(', ')}`
        : key === ''
          ? `expected an object of settings (${issue.message})`
          : `${key}: ${issue.message}`;
  throw new UsageError(`config file ${path}: ${detail}`);
}

/** The SMTP URL's user when it is an e-mail address (most providers log in with the sender's address). */
function smtpUserAddress(url: string | undefined): string | undefined {
  if (!url) return undefined;
  const user = decodeURIComponent(new URL(url).username);
  return email.safeParse(user).success ? user : undefined;
}

interface Candidate<T> {
  value: T;
  label: string;
  /** Directory relative paths of this source resolve against. */
  base: string;
}

/**
 * Resolves the configuration of one run from flags, environment, config file and defaults.
 *
 * @example
 * resolveConfig({ today: '2026-11-22' }, { env: { ORGREPORT_BASE_URL: 'http://127.0.0.1:4020' }, now, cwd })
 */
export function resolveConfig(flags: ConfigFlags, sources: ConfigSources): Config {
  const { env, cwd } = sources;
  const found = findConfigFile(flags.config, env, cwd);
  const configPath = found?.label;
  const configFile = found?.path;
  const file: ConfigFile = configFile ? readConfigFile(configFile) : {};
  const fileBase = configFile ? dirname(configFile) : cwd;
  const fileLabel = (key: string) => `config file ${configPath}: ${key}`;

  const flagValues = flags as Record<string, string | undefined>;
  /** The first of the setting's flag, environment variable and file key that is set. */
  function pick(key: SettingKey): Candidate<unknown> | undefined {
    const property = flagProperty(key);
    const flag = property ? flagValues[property] : undefined;
    if (flag !== undefined) return { value: flag, label: flagName(key)!, base: cwd };
    const envName = SETTINGS[key].env;
    const fromEnv = env[envName];
    if (fromEnv !== undefined && fromEnv !== '') return { value: fromEnv, label: envName, base: cwd };
    if (file[key] !== undefined) return { value: file[key], label: fileLabel(key), base: fileBase };
    return undefined;
  }
  function text(schema: z.ZodType<string>, key: SettingKey, secret = false): string | undefined {
    const c = pick(key);
    return c ? check(schema, c.value, c.label, secret) : undefined;
  }
  function path(key: SettingKey): string | undefined {
    const c = pick(key);
    return c ? resolve(c.base, check(nonEmpty, c.value, c.label)) : undefined;
  }
  /** The store: a folder resolved like a path, or an `s3://` URL as it is. */
  function storeLocation(): string | undefined {
    const c = pick('store');
    if (!c) return undefined;
    const where = check(nonEmpty, c.value, c.label);
    return /^s3:\/\//i.test(where) ? where : resolve(c.base, where);
  }
  /** The ledger's location: a `file:` folder resolved like a path; a URL as it is (a secret: it may hold a password). */
  function ledger(): string | undefined {
    const c = pick('ledger');
    if (!c) return undefined;
    const where = check(SETTINGS.ledger.file, c.value, c.label, true);
    return /^file:/i.test(where) ? `file:${resolve(c.base, where.slice('file:'.length))}` : where;
  }
  function list<T>(schema: z.ZodType<T[]>, key: SettingKey): T[] | undefined {
    const c = pick(key);
    if (!c) return undefined;
    const items = typeof c.value === 'string' ? splitList(c.value) : c.value;
    return check(schema, items, c.label);
  }
  function value<T>(schema: z.ZodType<T>, key: SettingKey): T | undefined {
    const c = pick(key);
    return c ? check(schema, c.value, c.label) : undefined;
  }
  /** A number setting in the whole units the client takes (`scale` of them per unit of the setting). */
  function number(schema: z.ZodType<number>, key: SettingKey, scale = 1): number | undefined {
    const n = value(schema, key);
    return n === undefined ? undefined : Math.round(n * scale);
  }

  let today: IsoDate;
  if (flags.today !== undefined) {
    if (!isIsoDate(flags.today)) {
      throw new UsageError(
        `--today: expected a real calendar day as YYYY-MM-DD (got ${JSON.stringify(flags.today)})`,
      );
    }
    today = flags.today;
  } else {
    today = utcDay(sources.now());
  }
  const fixed = flags.today !== undefined ? new Date(`${today}T00:00:00.000Z`) : undefined;
  const now: Clock = fixed ? () => new Date(fixed) : sources.now;

  const levelEnv = SETTINGS.logLevel.env;
  let logLevel: LogLevel = 'info';
  if (flags.verbose && flags.quiet) {
    throw new UsageError('--quiet and --verbose ask for opposite things: give one of them');
  }
  if (flags.verbose) logLevel = 'debug';
  else if (flags.quiet) logLevel = 'error';
  else if (env[levelEnv]) logLevel = check(SETTINGS.logLevel.file, env[levelEnv], levelEnv);
  else if (file.logLevel) logLevel = file.logLevel;

  if (flags.demo && flags.baseUrl !== undefined) {
    throw new UsageError(
      `--demo reads the demo organization from an emulator of its own, so --base-url ${flags.baseUrl} would go unused: leave out one of them`,
    );
  }
  const baseUrl = text(url, 'baseUrl');
  const organizations: OrganizationConfig[] = (file.organizations ?? []).map((o) => ({
    name: o.name,
    ...(o.id && { id: o.id }),
    ...(o.apiKeyEnv
      ? { apiKey: env[o.apiKeyEnv] || undefined, keySource: o.apiKeyEnv }
      : { apiKey: o.apiKey, keySource: fileLabel('organizations') }),
    ...(o.baseUrl && { baseUrl: o.baseUrl }),
    ...((o.appUrl ?? o.baseUrl) && { appUrl: o.appUrl ?? o.baseUrl }),
  }));
  const deadlineMs = number(minutes, 'deadline', 60_000);
  const pseudonymize = value(flagBoolean, 'pseudonymize') ?? false;
  const key = text(nonEmpty, 'pseudonymKey', true);
  const pseudonymKey = pseudonymize ? key : undefined;
  if (pseudonymize && (pseudonymKey === undefined || pseudonymKey.length < 16)) {
    throw new UsageError(
      `--pseudonymize needs a key of 16 characters or more in ${SETTINGS.pseudonymKey.env} (kept out of files and shell history; the same key gives the same pseudonyms every month)`,
    );
  }
  return {
    apiKey: text(nonEmpty, 'apiKey', true),
    baseUrl,
    appUrl: text(url, 'appUrl') ?? baseUrl,
    smtpUrl: text(smtpUrl, 'smtpUrl'),
    mailFrom: text(email, 'mailFrom') ?? smtpUserAddress(text(smtpUrl, 'smtpUrl')),
    mailTo: list(emailList, 'email') ?? [],
    logLevel,
    hookLog: path('hookLog'),
    outDir: path('out') ?? resolve(cwd, 'reports'),
    formats: list(formats, 'formats') ?? [...REPORT_FORMATS],
    templates: path('templates'),
    sections: list(sectionList, 'sections'),
    store: storeLocation(),
    organizationName: text(nonEmpty, 'organizationName'),
    directory: path('directory'),
    definitionsUrl: text(url, 'definitionsUrl'),
    pricePerCredit: value(price, 'pricePerCredit'),
    pricePerSeat: value(price, 'pricePerSeat'),
    currency: text(currency, 'currency'),
    maxRetries: value(retries, 'maxRetries'),
    requestLimits: {
      timeoutMs: number(seconds, 'requestTimeout', 1000),
      headersTimeoutMs: number(seconds, 'headersTimeout', 1000),
      idleTimeoutMs: number(seconds, 'idleTimeout', 1000),
      maxResponseBytes: number(mebibytes, 'maxResponseMiB', 1024 * 1024),
      maxListItems: number(wholeCount, 'maxListItems'),
      redirectOrigins: list(z.array(origin), 'allowRedirectTo') ?? [],
    },
    ...(deadlineMs === undefined ? {} : { deadlineMs }),
    chromium: path('chromium'),
    today,
    now,
    configFile,
    organizations,
    org: text(nonEmpty, 'org'),
    scope: text(nonEmpty, 'scope'),
    minGroupSize:
      value(wholeCount, 'minGroupSize') ?? file.distribution?.minGroupSize ?? DEFAULT_MIN_GROUP_SIZE,
    personRows: value(SETTINGS.personRows.file, 'personRows'),
    ...(pseudonymKey !== undefined && { pseudonymKey }),
    fileAccess: value(SETTINGS.fileAccess.file, 'fileAccess') ?? 'owner',
    plan: path('plan'),
    ...(file.distribution && { distribution: file.distribution }),
    deliver: list(z.array(nonEmpty).min(1, 'expected at least one target'), 'deliver') ?? [],
    destinations: list(packageList, 'destinations'),
    maxPerMinute: value(wholeCount, 'maxPerMinute'),
    unknownDeliveries: value(SETTINGS.unknownDeliveries.file, 'unknownDeliveries') ?? 'resend',
    ledger: ledger(),
    ledgerLeaseMs: number(seconds, 'ledgerLease', 1000),
    ...(file.watch && { watch: file.watch }),
  };
}
