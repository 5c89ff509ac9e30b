/**
 * The delivery step shared by `monthly` and `distribute`: reports (a message with its documents,
 * made when due) to their targets through `@orgreport/deliver`, every delivery recorded in the ledger
 * beside the store (or in the output folder), progress on the reporter, the failures named at the
 * end. The destinations' settings come from the configuration and the environment here, the only
 * layer that reads them; their secret values join the run's secrets, so nothing prints them.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type {
  DeliverResult,
  Delivery,
  DeliveryDocument,
  DeliveryLedger,
  DeliveryMessage,
  DeliveryStatus,
  Destinations,
} from '@orgreport/deliver';
import type { ReportModel } from '@orgreport/metrics';
import type { RunContext } from '../context.ts';
import { CliError, EXIT, UsageError } from '../errors.ts';
import type { Reporter } from '../reporter.ts';
import type { Settings } from '../settings.ts';
import { type DestinationPackages, destinationsWith } from './destination-packages.ts';

export type { DestinationPackages };

/** Media types of the report's files. */
const CONTENT_TYPES: Record<string, string> = {
  pdf: 'application/pdf',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  html: 'text/html; charset=utf-8',
  json: 'application/json',
};

/** A document as a delivery carries it: the file, its name, type, size and checksum. */
export async function deliveryDocument(path: string): Promise<DeliveryDocument> {
  const bytes = await readFile(path);
  const extension = path.slice(path.lastIndexOf('.') + 1).toLowerCase();
  return {
    path,
    filename: basename(path),
    contentType: CONTENT_TYPES[extension] ?? 'application/octet-stream',
    sha256: createHash('sha256').update(bytes).digest('hex'),
    bytes: (await stat(path)).size,
  };
}

/** The message of a report for its readers, from the model as they may see it, with its documents. */
export async function reportMessage(
  model: ReportModel,
  files: readonly string[],
  config: Pick<Settings, 'templates'>,
): Promise<DeliveryMessage> {
  const { composeMessage } = await import('@orgreport/render/message');
  const documents = await Promise.all(files.map(deliveryDocument));
  const message = await composeMessage(
    model,
    documents.map((d) => d.filename),
    config.templates ? { templates: config.templates } : {},
  );
  return {
    kind: 'report',
    ...message,
    documents,
    meta: {
      organization: model.organization.name,
      month: model.period.month,
      scope: model.scope ? `${model.scope.kind}:${model.scope.name}` : 'org',
    },
  };
}

/** Where the file ledger of a run's deliveries is: in the `file:DIR` of `--ledger`, beside the store, or in the output folder. */
export function ledgerPath(
  config: Pick<Settings, 'store' | 'outDir' | 'ledger'>,
  part?: { shard: number; of: number },
): string {
  const name = part ? `deliveries.part-${part.shard}-of-${part.of}.jsonl` : 'deliveries.jsonl';
  if (config.ledger && /^file:/i.test(config.ledger)) return join(config.ledger.slice('file:'.length), name);
  return config.store ? join(config.store, '_ledger', name) : join(config.outDir, name);
}

/**
 * The ledger shared by runs on many machines, when the run has one: `--ledger s3://...` or
 * `postgres://...`, or, with a store in object storage and no `--ledger`, the bucket's `_ledger/`.
 */
export function sharedLedger(config: Pick<Settings, 'ledger' | 'store'>): string | undefined {
  if (config.ledger) return /^(s3|postgres|postgresql):\/\//i.test(config.ledger) ? config.ledger : undefined;
  return config.store && /^s3:\/\//i.test(config.store)
    ? `${config.store.replace(/\/?$/, '/')}_ledger/`
    : undefined;
}

/**
 * Opens the run's ledger: the shared one of `--ledger` (checked before anything is sent: bucket,
 * credentials, schema version), else the file beside the store or the output (a `--shard` split's
 * part, every other part read with it).
 */
export async function openRunLedger(
  config: Settings,
  ctx: RunContext,
  shard?: { shard: number; of: number },
): Promise<DeliveryLedger> {
  const { openLedger, openSharedLedger } = await import('@orgreport/deliver');
  const url = sharedLedger(config);
  if (url) {
    const { S3_SECRET_SETTINGS, s3Settings } = await import('@orgreport/object-store/settings');
    const settings = s3Settings(ctx.io.env);
    for (const v of S3_SECRET_SETTINGS) if (settings[v]) ctx.secrets.add(settings[v]!);
    return openSharedLedger(url, {
      now: config.now,
      // A claim's lease is in the machines' time, whatever day the report takes as today.
      leaseClock: ctx.io.now,
      settings,
      ...(config.ledgerLeaseMs !== undefined && { leaseMs: config.ledgerLeaseMs }),
    });
  }
  return openLedger(ledgerPath(config, shard), {
    now: config.now,
    mode: config.fileAccess === 'group' ? 0o640 : 0o600,
    alsoRead: await ledgerParts(config),
  });
}

/**
 * Reaches the shared ledger of `--ledger`, when there is one, and lets it go: a ledger the run cannot
 * reach or read (a server down, a bucket refused, another schema version) stops the run before
 * anything is fetched or written, not after the documents are made.
 */
export async function checkSharedLedger(config: Settings, ctx: RunContext): Promise<void> {
  if (!sharedLedger(config)) return;
  const ledger = await openRunLedger(config, ctx);
  await ledger.close();
}

/**
 * What the ledger says of each of `keys` now (for a plan's pending deliveries, a watch's outbox):
 * a shared ledger read for those keys, else every file ledger part read together (all new before
 * the first delivery).
 */
export async function ledgerStatuses(
  config: Settings,
  ctx: RunContext,
  keys: readonly string[],
): Promise<(key: string) => DeliveryStatus> {
  if (sharedLedger(config)) {
    const ledger = await openRunLedger(config, ctx);
    try {
      await ledger.load(keys);
      const known = new Map(keys.map((k) => [k, ledger.status(k)]));
      return (key) => known.get(key) ?? 'new';
    } finally {
      await ledger.close();
    }
  }
  const { readLedgers } = await import('@orgreport/deliver');
  const { index } = await readLedgers(await ledgerParts(config));
  return (key) => index.status(key);
}

const LEDGER_FILE = /^deliveries(\.part-\d+-of-\d+)?\.jsonl$/;

/**
 * Every ledger file beside the run's: the whole run's and each `--shard` split's part. A run counts
 * them all, so that what one split sent is not sent again by a run without shards or of another split.
 */
export async function ledgerParts(config: Pick<Settings, 'store' | 'outDir' | 'ledger'>): Promise<string[]> {
  const folder = dirname(ledgerPath(config));
  try {
    return (await readdir(folder))
      .filter((name) => LEDGER_FILE.test(name))
      .sort()
      .map((name) => join(folder, name));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

/** The destinations' settings: the configuration's SMTP server and sender, the environment for the others. */
function destinationSettings(
  destinations: Destinations,
  config: Settings,
  ctx: RunContext,
  targets: readonly string[],
): Record<string, string | undefined> {
  const settings: Record<string, string | undefined> = {};
  for (const d of destinations.list()) for (const s of d.settings) settings[s.env] = ctx.io.env[s.env];
  // `teams:VAR` names the variable that holds its Workflows URL, a secret (it carries a signature).
  for (const target of targets) {
    const variable = /^teams:([A-Za-z_][A-Za-z0-9_]*)$/.exec(target)?.[1];
    if (!variable) continue;
    settings[variable] = ctx.io.env[variable];
    if (settings[variable]) ctx.secrets.add(settings[variable]!);
  }
  // The SMTP server and sender may come from a flag or the config file too.
  settings.ORGREPORT_SMTP_URL = config.smtpUrl ?? settings.ORGREPORT_SMTP_URL;
  settings.ORGREPORT_MAIL_FROM = config.mailFrom ?? settings.ORGREPORT_MAIL_FROM;
  for (const d of destinations.list()) {
    for (const s of d.settings) {
      const value = settings[s.env];
      if (!s.secret || !value) continue;
      ctx.secrets.add(value);
      // A URL's password alone may appear in a library's message.
      if (URL.canParse(value)) {
        const password = new URL(value).password;
        if (password) ctx.secrets.add(decodeURIComponent(password));
      }
    }
  }
  return settings;
}

/**
 * The registry of destinations the CLI knows: the built-in ones, and those of the configured
 * packages (the `destinations` setting, resolved from `packages.cwd`). A package that is not
 * installed, exports no destination, a malformed one or one whose scheme is taken is a
 * {@link UsageError} naming it.
 */
export async function cliDestinations(packages?: DestinationPackages): Promise<Destinations> {
  return destinationsWith(packages);
}

/**
 * Refuses, before any work, what the delivery step would refuse before it sends: a target no
 * destination takes (the configured packages' included), a setting a target needs that is unset
 * or malformed (a token, a webhook's URL or secret). An input error (exit 2), secrets never shown.
 */
export async function checkTargets(
  targets: readonly string[],
  config: Settings,
  ctx: RunContext,
): Promise<void> {
  if (targets.length === 0 && !config.destinations?.length) return;
  const destinations = await cliDestinations({ names: config.destinations, cwd: ctx.io.cwd });
  for (const target of targets) {
    try {
      destinations.destinationFor(target);
    } catch (error) {
      throw new UsageError(`delivery target ${JSON.stringify(target)}: ${(error as Error).message}`);
    }
  }
  const { checkDeliverySettings } = await import('@orgreport/deliver');
  try {
    checkDeliverySettings(targets, destinations, destinationSettings(destinations, config, ctx, targets));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/** What the delivery step needs beside the deliveries. */
export interface SendOptions {
  config: Settings;
  reporter: Reporter;
  ctx: RunContext;
  /** Send again what the ledger holds as sent: everyone, or these recipients. */
  resend?: 'all' | string[];
  /** The ledger part of a shard (`--shard K/N`). */
  shard?: { shard: number; of: number };
}

/** True for a target that is an e-mail address (plain or `mailto:`), which the smtp destination takes. */
export function isEmailTarget(target: string): boolean {
  return /^(mailto:)?[^\s@:/]+@[^\s@]+$/i.test(target);
}

/** An e-mail target in one case, so the same address is the same delivery however it was written (as `deliveryKey` keys it). */
export { normalTarget } from '@orgreport/deliver/key';

/**
 * Delivers, recording each delivery in the ledger before and after; throws a {@link CliError}
 * (exit 1) naming every delivery that failed, after the others went out.
 */
export async function sendDeliveries(deliveries: Delivery[], options: SendOptions): Promise<DeliverResult> {
  // A stop signal winds the deliveries down: the sends under way are abandoned (the ledger keeps
  // them 'sending', so a rerun names them unknown) and the ledger is closed, its lock released.
  const stop = new AbortController();
  const running = deliverWithLedger(deliveries, options, stop.signal);
  const unregister = options.ctx.onStop(async () => {
    stop.abort(new Error('stopped by a signal'));
    await running.catch(() => {});
  });
  try {
    return await running;
  } finally {
    unregister();
  }
}

/** The deliveries through the ledger, until done or `signal` stops them. */
async function deliverWithLedger(
  deliveries: Delivery[],
  options: SendOptions,
  signal: AbortSignal,
): Promise<DeliverResult> {
  const { config, reporter, ctx } = options;
  const { deliverAll } = await import('@orgreport/deliver');
  const destinations = await cliDestinations({ names: config.destinations, cwd: ctx.io.cwd });
  const settings = destinationSettings(
    destinations,
    config,
    ctx,
    deliveries.map((d) => d.target),
  );
  const ledger = await openRunLedger(config, ctx, options.shard);
  const path = ledger.location;
  const stage = reporter.stage('deliver');
  let done = 0;
  // A delivery for a target alone (monthly --deliver) names the target as the ledger may hold it:
  // its destination's label, never a webhook's query string or another secret of the target.
  const named = deliveries.map((d) =>
    d.recipient === d.target ? { ...d, recipient: destinations.destinationFor(d.target).label } : d,
  );
  try {
    const result = await deliverAll(named, {
      ledger,
      signal,
      settings,
      destinations,
      messageIdHost: config.mailFrom?.split('@')[1]?.replace(/>$/, '') ?? 'orgreport.invalid',
      unknown: config.unknownDeliveries,
      ...(options.resend && { resend: options.resend }),
      ...(config.maxPerMinute !== undefined && { maxPerMinute: config.maxPerMinute }),
      log: (line) => reporter.debug(line),
      onEvent: (event) => {
        if (event.type === 'sent' || event.type === 'skipped' || event.type === 'failed') done++;
        if (event.type === 'retrying') {
          reporter.warn(
            `${event.label}: ${event.error}; trying again in ${Math.round(event.delayMs / 1000)} s`,
          );
        } else if (event.type === 'unknown') {
          reporter.warn(
            `${event.label}: an earlier run stopped while sending it, so whether it arrived is unknown; ${event.action === 'resend' ? 'sending it again with the same Message-ID' : 'skipping it (--unknown skip)'}`,
          );
        } else if (event.type === 'failed') {
          reporter.error(`${event.label}: ${event.error}`);
        } else if (event.type === 'skipped' && event.reason === 'claimed') {
          reporter.info(`${event.label}: another run is sending it right now; left to it`);
        }
        stage.update(`${done} of ${deliveries.length}`);
      },
    });
    stage.done(
      `${result.sent.length} sent, ${result.skipped.length} already delivered${result.unknown.length > 0 ? `, ${result.unknown.length} unknown` : ''}${result.failed.length > 0 ? `, ${result.failed.length} failed` : ''} (ledger ${path})`,
    );
    if (result.failed.length > 0) {
      const names = result.failed.map((f) => `${f.label} (${f.error})`);
      const failed =
        result.failed.length === deliveries.length
          ? deliveries.length === 1
            ? 'the delivery failed'
            : `all ${deliveries.length} deliveries failed`
          : `${result.failed.length} of ${deliveries.length} deliveries failed, the others went out`;
      throw new CliError(
        `${failed}; run again to retry (the ledger ${path} keeps what was delivered): ${names.join('; ')}`,
        EXIT.failure,
      );
    }
    return result;
  } finally {
    await ledger.close();
  }
}
