/**
 * The resolved settings of a run, as every stage of the pipeline takes them. The CLI resolves them
 * from its flags, the environment and the config file (`apps/report-cli/src/config`); a program
 * calling the pipeline builds them itself (see {@link settingsFor}).
 */

import { resolve } from 'node:path';
import { type Clock, type IsoDate, isIsoDate, utcDay } from '@orgreport/api-core/dates';
import { DEFAULT_MIN_GROUP_SIZE } from '@orgreport/metrics/defaults';
import type { Plan } from './distribute/plan-schema.ts';
import { AuthError, UsageError } from './errors.ts';
import type { WatchConfig } from './watch/watch-settings.ts';

export const REPORT_FORMATS = ['pdf', 'xlsx', 'html', 'json'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

/** The levels a run may be set to (api-core's but `off`: errors are always shown). */
export const LOG_LEVELS = ['error', 'warn', 'info', 'debug'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** The run itself: its day and clock, how much it logs, who may read what it writes. */
export interface RunSettings {
  /** The day the run considers today (UTC): `--today` or the clock's. */
  today: IsoDate;
  /** The clock every stage receives. */
  now: Clock;
  logLevel: LogLevel;
  /** Who may read the files a run creates. */
  fileAccess: 'owner' | 'group';
  /** The config file that was read, if any. */
  configFile?: string;
}

/** The API and the organizations a run fetches from, and the bounds of every request. */
export interface ConnectionSettings {
  apiKey?: string;
  baseUrl?: string;
  appUrl?: string;
  /** Retries of a failed idempotent request (0..10); undefined: {@link DEFAULT_CLI_MAX_RETRIES}. */
  maxRetries?: number;
  /** Bounds of every request and list (undefined members: the client's defaults). */
  requestLimits: RequestLimits;
  /** Time limit of the whole fetch (every request and retry), in ms; undefined: none. */
  deadlineMs?: number;
  /** JSON-lines file of recorded hook events. */
  hookLog?: string;
  /** The config file's `organizations`, their keys read from their variables. */
  organizations: OrganizationConfig[];
  /** The organization `--org` / ORGREPORT_ORG / `org` picks among them, by name or id. */
  org?: string;
  /** Display name of the organization (defaults to its id). */
  organizationName?: string;
}

/** Where a run reads besides the API: the store and the people directory. */
export interface SourceSettings {
  /** The Parquet store folder (`--store`); undefined: months are fetched afresh. */
  store?: string;
  /** The people directory file (`--directory`); undefined: no teams or chargeback. */
  directory?: string;
}

/** What a report is made of and where its files go. */
export interface ReportSettings {
  outDir: string;
  formats: ReportFormat[];
  /** A template directory that overrides the built-in templates file by file. */
  templates?: string;
  /** The report's sections in order: built-in ids and package names; undefined: the built-in ones. */
  sections?: string[];
  /**
   * The Chromium (or Chrome) binary that prints the PDF; undefined: the renderer's default (see
   * `chromiumOf` in report/checks.ts), resolved where a PDF is made so that no other command loads it.
   */
  chromium: string | undefined;
  /** Where the full definitions are published (`--definitions-url`): the short report links there. */
  definitionsUrl?: string;
  pricePerCredit?: number;
  /** Price of one seat for the month (the chargeback's seat cost). */
  pricePerSeat?: number;
  currency?: string;
}

/** Whom a report is for and what its readers may see. */
export interface ReaderSettings {
  /** The scope of the report (`--scope`); undefined: the organization. */
  scope?: string;
  /** No report for a scope, and no figures for a group, of fewer people. */
  minGroupSize: number;
  /** Whose per-person rows the readers see; undefined: all for the organization report, scope for a scoped one. */
  personRows?: 'all' | 'scope' | 'none';
  /** The pseudonyms' key when `--pseudonymize` is on; undefined: real identities. */
  pseudonymKey?: string;
}

/** Where reports and alerts go, and the ledger that delivers each once. */
export interface DeliverySettings {
  smtpUrl?: string;
  /** The sender; undefined when neither set nor the SMTP user's address (then mailing is refused). */
  mailFrom?: string;
  /** Report recipients (`--email`). */
  mailTo: string[];
  /** Delivery targets of the report (`--deliver`), beside the `--email` addresses. */
  deliver: string[];
  /** Packages that add destinations (`--destinations`), resolved from the working folder; undefined: none. */
  destinations?: string[];
  maxPerMinute?: number;
  /** What a rerun does with deliveries a crash left unknown. */
  unknownDeliveries: 'resend' | 'skip';
  /** The delivery ledger (`--ledger`): `file:DIR`, `s3://...` or `postgres://...`; undefined: the file beside the store or the output. */
  ledger?: string;
  /** How long a shared ledger's claim stands with no outcome (ms). */
  ledgerLeaseMs?: number;
}

/** Who gets what in a distribution, and the watch's rules. */
export interface PlanSettings {
  /** The distribution plan file (`--plan`). */
  plan?: string;
  /** The config file's `distribution` plan. */
  distribution?: Plan;
  /** The config file's `watch` key (the alert rules), defaults filled in; undefined without it. */
  watch?: WatchConfig;
}

/**
 * The resolved settings of one run, by concern. A function of the pipeline takes the whole of them
 * at its entry; the steps below it take the concerns they read (`Pick` or one of the parts), so
 * what a step depends on is in its signature.
 */
export interface Settings
  extends RunSettings,
    ConnectionSettings,
    SourceSettings,
    ReportSettings,
    ReaderSettings,
    DeliverySettings,
    PlanSettings {}

/** One organization of the config file, resolved. */
export interface OrganizationConfig {
  name: string;
  id?: string;
  /** Its key; undefined when the variable named by `apiKeyEnv` is not set. */
  apiKey?: string;
  /** Where the key comes from, for messages: `ORGREPORT_KEY_EU` or `config file ...: organizations`. */
  keySource: string;
  baseUrl?: string;
  appUrl?: string;
}

/** Bounds of requests and lists, as the API client takes them. */
export interface RequestLimits {
  timeoutMs?: number;
  headersTimeoutMs?: number;
  idleTimeoutMs?: number;
  maxResponseBytes?: number;
  maxListItems?: number;
  /** Origins a redirect may lead to besides the configured hosts. */
  redirectOrigins: string[];
}

/**
 * Retries of a failed request when no setting asks otherwise: more than the client library's 2,
 * because a monthly run is unattended and a failure means no report.
 */
export const DEFAULT_CLI_MAX_RETRIES = 4;

/** The id of the run's organization when the config file gives it (a run for one listed organization). */
export function configuredOrgId(config: Pick<ConnectionSettings, 'organizations'>): string | undefined {
  return config.organizations.length === 1 ? config.organizations[0]!.id : undefined;
}

/**
 * The configurations of the organizations a run is for: the one `--org` names, every listed one
 * with `allOrgs`, else the only one listed, else the top-level settings alone. Each carries its
 * organization's key, address and name.
 */
export function organizationConfigs(config: Settings, allOrgs = false): Settings[] {
  const listed = config.organizations;
  const asConfig = (o: OrganizationConfig): Settings => {
    if (!o.apiKey) {
      throw new AuthError(
        `organization "${o.name}": no API key: set the variable ${o.keySource} (named by its apiKeyEnv)`,
      );
    }
    return {
      ...config,
      apiKey: o.apiKey,
      baseUrl: o.baseUrl ?? config.baseUrl,
      appUrl: o.appUrl ?? (o.baseUrl ? o.baseUrl : config.appUrl),
      organizationName: o.name,
      organizations: [o],
      org: o.id ?? o.name,
    };
  };
  const names = listed.map((o) => o.name).join(', ');
  if (allOrgs) {
    if (config.org) throw new UsageError('--all-orgs runs every listed organization: leave out --org');
    if (listed.length === 0) {
      throw new UsageError('--all-orgs: the config file lists no "organizations"');
    }
    return listed.map(asConfig);
  }
  if (config.org) {
    const wanted = config.org.toLowerCase();
    const found = listed.find((o) => o.name.toLowerCase() === wanted || o.id === config.org);
    if (!found) {
      throw new UsageError(
        listed.length === 0
          ? `--org ${config.org}: the config file lists no "organizations"`
          : `--org ${config.org}: no such organization in the config file (listed: ${names})`,
      );
    }
    return [asConfig(found)];
  }
  if (listed.length === 1) return [asConfig(listed[0]!)];
  if (listed.length > 1 && !config.apiKey) {
    throw new UsageError(
      `the config file lists ${listed.length} organizations (${names}): choose one with --org NAME, or all with --all-orgs`,
    );
  }
  return [config];
}

/** The store the settings name; an input error without one. */
export function requireStore(config: SourceSettings): string {
  if (!config.store) {
    throw new UsageError('no store: give --store DIR (or ORGREPORT_STORE, or "store" in the config file)');
  }
  return config.store;
}

/** The API connection settings; throws when the address or the key is missing (the key: exit code 3). */
export function requireConnection(config: ConnectionSettings): {
  apiKey: string;
  baseUrl: string;
  appUrl: string;
} {
  if (!config.baseUrl) {
    throw new UsageError(
      'no API address: set ORGREPORT_BASE_URL, --base-url or "baseUrl" in the config file (or use --demo)',
    );
  }
  if (!config.apiKey) {
    throw new AuthError(
      'no API key: set ORGREPORT_API_KEY or "apiKey" in the config file (a Manager or Owner key for reports)',
    );
  }
  // A key pasted with its line break (or a space) would fail every request as a bad header value,
  // which reads as a network fault: say what it is instead, without the key.
  if (/[^\x21-\x7e]/.test(config.apiKey)) {
    throw new AuthError(
      'the API key holds a line break, a space or another character no key has: set it again without it (ORGREPORT_API_KEY or "apiKey" in the config file)',
    );
  }
  return { apiKey: config.apiKey, baseUrl: config.baseUrl, appUrl: config.appUrl ?? config.baseUrl };
}

/**
 * Settings for a program that calls the pipeline: what it gives, and for the rest the defaults the
 * CLI has with no flag, variable or config file (reports in `./reports`, every format, the minimum
 * group size, files readable by their owner). `today` fixes the run's day (its clock then stands at
 * the day's start, as `--today` does); without it, the clock is the real one.
 *
 * @example
 * const settings = settingsFor({ outDir: '/tmp/reports', today: '2026-11-22' });
 */
export function settingsFor(
  given: Partial<Omit<Settings, 'today' | 'now'>> & { today?: IsoDate } = {},
): Settings {
  const { today: day, ...rest } = given;
  if (day !== undefined && !isIsoDate(day)) {
    throw new UsageError(`today: expected a real calendar day as YYYY-MM-DD (got ${JSON.stringify(day)})`);
  }
  const now: Clock = day ? () => new Date(`${day}T00:00:00.000Z`) : () => new Date();
  return {
    mailTo: [],
    logLevel: 'info',
    outDir: resolve('reports'),
    formats: [...REPORT_FORMATS],
    requestLimits: { redirectOrigins: [] },
    chromium: undefined,
    organizations: [],
    minGroupSize: DEFAULT_MIN_GROUP_SIZE,
    fileAccess: 'owner',
    deliver: [],
    unknownDeliveries: 'resend',
    ...rest,
    today: day ?? utcDay(now()),
    now,
  };
}
