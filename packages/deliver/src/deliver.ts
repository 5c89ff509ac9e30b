/**
 * `deliverAll`: sends each delivery through its destination and records it in the ledger around the
 * send: 'sending' (with the documents' sha256) before `send` is called, 'sent' (with the receipt) as
 * soon as it returns, 'failed' when an attempt fails. So a rerun sends only what is not known as
 * sent, and a crash leaves 'unknown' exactly the deliveries whose outcome it never learned. Every
 * target is read and every destination's settings are checked before anything is sent.
 */
import { sleep as realSleep } from '@orgreport/api-core/retry';
import {
  type Delivery,
  type DeliveryMessage,
  DestinationError,
  PermanentDeliveryError,
  RetryableDeliveryError,
  type SendContext,
  type SentReceipt,
} from './destination.ts';
import { DeliveryPlanError } from './errors.ts';
import { retryDelayMs, SendingLimit } from './internal/pace.ts';
import { redactor } from './internal/redact.ts';
import { messageIdOf } from './key.ts';
import { type DeliveryLedger, RESERVED_FIELDS } from './ledger-entries.ts';
import {
  type AnyDestination,
  createDestinations,
  type Destinations,
  type ResolvedTarget,
} from './registry.ts';

export interface DeliverOptions {
  /** The ledger, open for writing (`openLedger`, `openSharedLedger`); the caller closes it. */
  ledger: DeliveryLedger;
  /** Settings by environment variable name, as the caller read them (this package never reads the environment). */
  settings: Readonly<Record<string, string | undefined>>;
  /** The destinations targets resolve to (default: the built-in ones, `createDestinations()`). */
  destinations?: Destinations;
  /** The host of Message-IDs, `<orgreport.KEY@host>`: the sender's domain (default `orgreport.invalid`). */
  messageIdHost?: string;
  /** Send again what the ledger holds as sent: every delivery, or those of these recipients (case-insensitive). */
  resend?: 'all' | ReadonlyArray<string>;
  /**
   * A delivery whose last send started and never recorded its outcome: send it again with the same
   * Message-ID, so a receiver that keeps them drops a repeat (`resend`, the default), or leave it (`skip`).
   * Either way it is named in the result's `unknown`.
   */
  unknown?: 'resend' | 'skip';
  /** Attempts per delivery and run (default 4). */
  attempts?: number;
  /** The first retry's delay (default 1000 ms); each next one doubles. */
  baseDelayMs?: number;
  /** No retry waits longer, a Retry-After included (default 30000 ms). */
  maxDelayMs?: number;
  /** At most this many sends a minute, evenly spaced (default: no limit). */
  maxPerMinute?: number;
  /** Sends that may go at once before the limit spaces them (default 1). */
  burst?: number;
  /** Stops the run: no new send starts, a retry's wait ends. */
  signal?: AbortSignal;
  /** Progress, for the caller's progress lines. */
  onEvent?: (event: DeliveryEvent) => void;
  /** Debug lines of the destinations (secrets redacted). */
  log?: (line: string) => void;
  /** Waits (injected so tests do not wait). */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /** A monotonic clock in ms, for the sending limit (default `performance.now`). */
  clock?: () => number;
  /** A number in [0, 1), for the retries' jitter (default `Math.random`). */
  random?: () => number;
}

/** What every event and result row names: the delivery. */
export interface DeliveryRef {
  key: string;
  /** The target as it may be printed. */
  label: string;
  recipient: string;
}

/** Progress of a run. */
/**
 * Why a delivery was not sent: the ledger holds it as sent, as unknown (`unknown: 'skip'`), or as
 * claimed by another run sending it right now (a shared ledger).
 */
export type SkipReason = 'sent' | 'unknown' | 'claimed';

export type DeliveryEvent =
  | (DeliveryRef & { type: 'skipped'; reason: SkipReason })
  | (DeliveryRef & { type: 'unknown'; action: 'resend' | 'skip' })
  | (DeliveryRef & { type: 'sending'; attempt: number })
  | (DeliveryRef & { type: 'sent'; attempt: number; id: string; location?: string })
  | (DeliveryRef & { type: 'retrying'; attempt: number; error: string; delayMs: number })
  | (DeliveryRef & { type: 'failed'; attempt: number; error: string })
  | { type: 'waiting'; delayMs: number }
  | { type: 'stopped' };

export interface DeliverResult {
  /** Delivered in this run. */
  sent: Array<DeliveryRef & { id: string; location?: string; attempts: number }>;
  /** Not sent: the ledger holds them as sent, as unknown with `unknown: 'skip'`, or claimed by another run. */
  skipped: Array<DeliveryRef & { reason: SkipReason }>;
  /** Found unknown (a crash between send and ledger), and what was done: sent again or left. */
  unknown: Array<DeliveryRef & { action: 'resent' | 'skipped' }>;
  /** Not delivered after the last attempt (or refused for good); the caller exits 1 when any. */
  failed: Array<DeliveryRef & { error: string }>;
  /** The signal stopped the run before every delivery was handled. */
  stopped: boolean;
}

interface Settled {
  attempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  unknown: 'resend' | 'skip';
  resendAll: boolean;
  resendTo: ReadonlySet<string>;
  host: string;
}

function positive(name: string, value: number | undefined, fallback: number, integer: boolean): number {
  if (value === undefined) return fallback;
  if (
    typeof value !== 'number' ||
    !(value > 0) ||
    !Number.isFinite(value) ||
    (integer && !Number.isInteger(value))
  ) {
    throw new DeliveryPlanError(`${name} must be a positive ${integer ? 'integer' : 'number'}`);
  }
  return value;
}

function messageHost(host: string): string {
  try {
    messageIdOf('0', host);
  } catch (error) {
    throw new DeliveryPlanError(`messageIdHost: ${(error as Error).message}`);
  }
  return host;
}

function settle(options: DeliverOptions): Settled {
  if (options.unknown !== undefined && options.unknown !== 'resend' && options.unknown !== 'skip') {
    throw new DeliveryPlanError(`unknown must be 'resend' or 'skip'`);
  }
  const resend = options.resend ?? [];
  if (resend !== 'all' && !Array.isArray(resend))
    throw new DeliveryPlanError(`resend must be 'all' or a list`);
  return {
    attempts: positive('attempts', options.attempts, 4, true),
    baseDelayMs: positive('baseDelayMs', options.baseDelayMs, 1_000, false),
    maxDelayMs: positive('maxDelayMs', options.maxDelayMs, 30_000, false),
    unknown: options.unknown ?? 'resend',
    resendAll: resend === 'all',
    resendTo: new Set(resend === 'all' ? [] : resend.map((r) => r.toLowerCase())),
    host: messageHost(options.messageIdHost ?? 'orgreport.invalid'),
  };
}

/** A delivery with its target read. */
interface Planned {
  delivery: Delivery;
  target: ResolvedTarget;
  ref: DeliveryRef;
  messageId: string;
}

/**
 * Reads every delivery's target and checks the plan (keys unique, record fields plain) before
 * anything is sent; every bad target is named in one error, with the known destinations.
 */
function plan(deliveries: ReadonlyArray<Delivery>, destinations: Destinations, host: string): Planned[] {
  if (!Array.isArray(deliveries)) throw new DeliveryPlanError('deliveries must be a list');
  const keys = new Map<string, Delivery>();
  const bad: string[] = [];
  const planned: Planned[] = [];
  for (const delivery of deliveries) {
    const { key, recipient, target, record } = delivery ?? {};
    if (typeof key !== 'string' || typeof recipient !== 'string' || typeof delivery.message !== 'function') {
      throw new DeliveryPlanError('every delivery needs a key, a recipient, a target and a message function');
    }
    if (!/^[A-Za-z0-9_-]{1,128}$/.test(key)) {
      throw new DeliveryPlanError(
        `a delivery key is letters, digits, - and _ (see deliveryKey): ${JSON.stringify(key)}`,
      );
    }
    const twin = keys.get(key);
    if (twin) {
      throw new DeliveryPlanError(
        `two deliveries have the key ${key} (${twin.recipient} at ${twin.target}, ${recipient} at ${target}): the plan lists one delivery twice`,
      );
    }
    keys.set(key, delivery);
    for (const [name, value] of Object.entries(record ?? {})) {
      if (RESERVED_FIELDS.has(name) || typeof value !== 'string') {
        throw new DeliveryPlanError(
          `the record of delivery ${key} has a field ${JSON.stringify(name)} that is reserved or not a string`,
        );
      }
    }
    try {
      const resolved = destinations.destinationFor(target);
      const ref = { key, label: resolved.label, recipient };
      planned.push({ delivery, target: resolved, ref, messageId: messageIdOf(key, host) });
    } catch (error) {
      if (!(error instanceof DestinationError)) throw error;
      bad.push(error.message);
    }
  }
  if (bad.length > 0) throw new DestinationError(bad.join('\n'));
  return planned;
}

/**
 * The settings each used destination declares, checked (required ones set, the variables a target
 * needs set, values well formed); a {@link DestinationError} names every problem.
 */
function destinationSettings(
  targets: ReadonlyArray<ResolvedTarget>,
  settings: Readonly<Record<string, string | undefined>>,
): Map<AnyDestination, Readonly<Record<string, string | undefined>>> {
  const out = new Map<AnyDestination, Readonly<Record<string, string | undefined>>>();
  const problems: string[] = [];
  for (const target of targets) {
    const destination = target.destination;
    for (const variable of destination.needs?.(target.address) ?? []) {
      const problem = `${variable} is not set; ${destination.title} (${target.label}) needs it`;
      if (!settings[variable]?.trim() && !problems.includes(problem)) problems.push(problem);
    }
    if (out.has(destination)) continue;
    const own = Object.fromEntries(destination.settings.map((s) => [s.env, settings[s.env]]));
    out.set(destination, own);
    const missing = destination.settings.filter((s) => s.required && !own[s.env]?.trim());
    for (const s of missing) {
      problems.push(`${s.env} is not set (${s.help}); ${destination.title} (${target.label}) needs it`);
    }
    if (missing.length > 0) continue;
    try {
      destination.check?.(own);
    } catch (error) {
      if (!(error instanceof DestinationError)) throw error;
      problems.push(`${destination.title}: ${error.message}`);
    }
  }
  if (problems.length > 0) throw new DestinationError(problems.join('\n'));
  return out;
}

/**
 * Checks before any work what {@link deliverAll} checks before it sends: every target readable by a
 * destination, every setting they need set and well formed. Throws a {@link DestinationError}
 * naming every problem (never a secret's value).
 */
export function checkDeliverySettings(
  targets: ReadonlyArray<string>,
  destinations: Destinations,
  settings: Readonly<Record<string, string | undefined>>,
): void {
  destinationSettings(
    targets.map((t) => destinations.destinationFor(t)),
    settings,
  );
}

/**
 * The variables the targets name beside their destinations' declared settings (`teams:VARNAME`'s),
 * with their values: a send reads them from its context, and they are secret (a signed URL).
 */
function neededSettings(
  planned: ReadonlyArray<Planned>,
  settings: Readonly<Record<string, string | undefined>>,
): Record<string, string | undefined> {
  const needed: Record<string, string | undefined> = {};
  for (const { target } of planned) {
    for (const variable of target.destination.needs?.(target.address) ?? [])
      needed[variable] = settings[variable];
  }
  return needed;
}

/** The deliveries in the order they go: in order, each group where its first member is, storing destinations first. */
function units(planned: ReadonlyArray<Planned>): Planned[][] {
  const groups = new Map<string, Planned[]>();
  const out: Planned[][] = [];
  for (const p of planned) {
    const group = p.delivery.group;
    if (group === undefined) {
      out.push([p]);
      continue;
    }
    let members = groups.get(group);
    if (!members) {
      members = [];
      groups.set(group, members);
      out.push(members);
    }
    members.push(p);
  }
  for (const members of groups.values()) {
    // A stable sort: storing destinations first, the others in their order.
    members.sort((a, b) => Number(!!b.target.destination.stores) - Number(!!a.target.destination.stores));
  }
  return out;
}

/** A message for people and the ledger: the error's own text (secrets are redacted by the caller). */
function describe(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}

/**
 * Delivers every delivery that is due, in order, and returns what happened to each. One delivery's
 * failure never stops the others; a failure of the ledger itself does (nothing after it could be
 * trusted), as does a bad target or a missing setting, found before anything is sent.
 *
 * @example
 * const ledger = await openLedger('reports/ledger.jsonl', { now: () => new Date() });
 * try {
 *   const result = await deliverAll(deliveries, { ledger, settings: { ORGREPORT_SMTP_URL: url, ORGREPORT_MAIL_FROM: from } });
 *   if (result.failed.length > 0) exitCode = 1;
 * } finally {
 *   await ledger.close();
 * }
 */
export async function deliverAll(
  deliveries: ReadonlyArray<Delivery>,
  options: DeliverOptions,
): Promise<DeliverResult> {
  const settled = settle(options);
  const destinations = options.destinations ?? createDestinations();
  const planned = plan(deliveries, destinations, settled.host);
  const settings = destinationSettings(
    planned.map((p) => p.target),
    options.settings ?? {},
  );
  const run = new DeliveryRun(options, settled, settings, neededSettings(planned, options.settings ?? {}));
  try {
    // What the ledger holds of every delivery, read at once (a shared ledger: one request each at most).
    await options.ledger.load(planned.map((p) => p.ref.key));
    for (const unit of units(planned)) {
      if (run.stopping()) break;
      await run.deliverUnit(unit);
    }
  } finally {
    await run.close();
  }
  return run.result;
}

/** The state of one `deliverAll`: its result, its shared resources, its sending limit. */
class DeliveryRun {
  readonly result: DeliverResult = { sent: [], skipped: [], unknown: [], failed: [], stopped: false };
  readonly #ledger: DeliveryLedger;
  readonly #signal: AbortSignal;
  readonly #sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  readonly #random: () => number;
  readonly #limit: SendingLimit | undefined;
  readonly #redact: (text: string) => string;
  readonly #shared = new Map<
    string,
    { scheme: string; value: unknown; dispose: (value: never) => Promise<void> | void }
  >();

  constructor(
    private readonly options: DeliverOptions,
    private readonly settled: Settled,
    private readonly settings: Map<AnyDestination, Readonly<Record<string, string | undefined>>>,
    private readonly needed: Readonly<Record<string, string | undefined>>,
  ) {
    this.#ledger = options.ledger;
    this.#signal = options.signal ?? new AbortController().signal;
    this.#sleep = options.sleep ?? realSleep;
    this.#random = options.random ?? Math.random;
    const secrets = Object.values(needed).filter((v): v is string => Boolean(v));
    for (const [destination, values] of settings) {
      for (const s of destination.settings) {
        const value = values[s.env];
        if (s.secret && value) secrets.push(value);
      }
    }
    this.#redact = redactor(secrets);
    this.#limit =
      options.maxPerMinute === undefined
        ? undefined
        : new SendingLimit(
            positive('maxPerMinute', options.maxPerMinute, 0, false),
            positive('burst', options.burst, 1, true),
            options.clock ?? (() => performance.now()),
            this.#sleep,
          );
  }

  #emit(event: DeliveryEvent): void {
    this.options.onEvent?.(event);
  }

  /** True once the signal has aborted (and says so once). */
  stopping(): boolean {
    if (!this.#signal.aborted) return false;
    if (!this.result.stopped) {
      this.result.stopped = true;
      this.#emit({ type: 'stopped' });
    }
    return true;
  }

  #resendWanted(recipient: string): boolean {
    return this.settled.resendAll || this.settled.resendTo.has(recipient.toLowerCase());
  }

  /** One delivery alone, or a group: the message rendered once, storing destinations first, their locations given to the others. */
  async deliverUnit(unit: ReadonlyArray<Planned>): Promise<void> {
    let rendered: Promise<DeliveryMessage> | undefined;
    const links: Array<{ url: string; label: string }> = [];
    for (const planned of unit) {
      if (this.stopping()) return;
      const render = () => {
        rendered ??= planned.delivery.message();
        return rendered;
      };
      const location = await this.#deliverOne(planned, render, [...links]);
      if (location !== undefined && planned.target.destination.stores) {
        links.push({ url: location, label: planned.ref.label });
      }
    }
  }

  /** Records a delivery as not sent, for `reason`. */
  #skip(ref: DeliveryRef, reason: SkipReason): undefined {
    this.result.skipped.push({ ...ref, reason });
    this.#emit({ type: 'skipped', ...ref, reason });
    return undefined;
  }

  /**
   * Whether the delivery is still to be sent after another run changed it: not when it is sent now
   * (unless a resend is wanted), claimed by a run sending it, or unknown and left (`unknown: 'skip'`).
   */
  #stillDue(ref: DeliveryRef, wasSent: boolean): SkipReason | undefined {
    const status = this.#ledger.status(ref.key);
    if (status === 'held') return 'claimed';
    if (status === 'sent' && !(wasSent && this.#resendWanted(ref.recipient))) return 'sent';
    if (status === 'unknown' && this.settled.unknown === 'skip' && !this.#resendWanted(ref.recipient)) {
      return 'unknown';
    }
    return undefined;
  }

  /** Delivers one (or skips it); resolves to where its documents now are, if it stores them. */
  async #deliverOne(
    planned: Planned,
    render: () => Promise<DeliveryMessage>,
    links: ReadonlyArray<{ url: string; label: string }>,
  ): Promise<string | undefined> {
    const { ref } = planned;
    const status = this.#ledger.status(ref.key);
    const wanted = this.#resendWanted(ref.recipient);
    if (status === 'sent' && !wanted) {
      this.result.skipped.push({ ...ref, reason: 'sent' });
      this.#emit({ type: 'skipped', ...ref, reason: 'sent' });
      return this.#ledger.get(ref.key)?.lastSent?.location;
    }
    if (status === 'held') return this.#skip(ref, 'claimed');
    if (status === 'unknown') {
      const leave = this.settled.unknown === 'skip' && !wanted;
      this.result.unknown.push({ ...ref, action: leave ? 'skipped' : 'resent' });
      this.#emit({ type: 'unknown', ...ref, action: leave ? 'skip' : 'resend' });
      if (leave) {
        this.result.skipped.push({ ...ref, reason: 'unknown' });
        this.#emit({ type: 'skipped', ...ref, reason: 'unknown' });
        return undefined;
      }
    }
    let message: DeliveryMessage;
    try {
      message = await render();
    } catch (error) {
      // Nothing was sent, so the ledger has nothing to record.
      const text = this.#redact(`the message could not be made: ${describe(error)}`);
      this.result.failed.push({ ...ref, error: text });
      this.#emit({ type: 'failed', ...ref, attempt: 0, error: text });
      return undefined;
    }
    return this.#send(planned, message, links);
  }

  /** The attempts of one delivery, each recorded around the send. */
  async #send(
    planned: Planned,
    message: DeliveryMessage,
    links: ReadonlyArray<{ url: string; label: string }>,
  ): Promise<string | undefined> {
    const { ref, delivery, target } = planned;
    const sha256 = Object.fromEntries(message.documents.map((d) => [d.filename, d.sha256]));
    const line = {
      key: ref.key,
      recipient: ref.recipient,
      target: ref.label,
      messageId: planned.messageId,
      sha256,
      ...delivery.record,
    };
    const context: SendContext = {
      key: ref.key,
      messageId: planned.messageId,
      settings: this.#settingsOf(target),
      signal: this.#signal,
      log: (text) => this.options.log?.(this.#redact(text)),
      links,
      shared: (name, create, dispose) => this.#share(target.destination.scheme, name, create, dispose),
    };
    const wasSent = this.#ledger.status(ref.key) === 'sent';
    let changes = 0;
    for (let tries = 1; ; tries++) {
      if (this.stopping()) return undefined;
      if (this.#limit && !(await this.#pace())) return undefined;
      const attempt = (this.#ledger.get(ref.key)?.last.attempt ?? 0) + 1;
      // The claim: the 'sending' line, written only if the delivery is as this run read it.
      if (!(await this.#ledger.claim({ ...line, state: 'sending', attempt }))) {
        // Another run changed it meanwhile (the ledger has read it again): decide anew.
        const reason = this.#stillDue(ref, wasSent);
        if (reason) {
          this.#skip(ref, reason);
          return reason === 'sent' ? this.#ledger.get(ref.key)?.lastSent?.location : undefined;
        }
        if (++changes > 5) {
          const text = `the ledger ${this.#ledger.location} kept changing under this delivery; run again`;
          this.result.failed.push({ ...ref, error: text });
          this.#emit({ type: 'failed', ...ref, attempt, error: text });
          return undefined;
        }
        tries--;
        continue;
      }
      this.#emit({ type: 'sending', ...ref, attempt });
      let receipt: SentReceipt;
      try {
        receipt = await target.destination.send(message, target.address, context);
      } catch (error) {
        // Stopped mid-send: the receiver may have it or not; the ledger's 'sending' says so (unknown).
        if (this.#signal.aborted) return void this.stopping();
        const text = this.#redact(describe(error));
        await this.#ledger.append({ ...line, state: 'failed', attempt, error: text });
        const lasting = error instanceof PermanentDeliveryError;
        if (lasting || tries >= this.settled.attempts) {
          this.result.failed.push({ ...ref, error: text });
          this.#emit({ type: 'failed', ...ref, attempt, error: text });
          return undefined;
        }
        const retryAfter = error instanceof RetryableDeliveryError ? error.retryAfterMs : undefined;
        const delayMs = retryDelayMs(tries - 1, retryAfter, { ...this.settled, random: this.#random });
        this.#emit({ type: 'retrying', ...ref, attempt, error: text, delayMs });
        try {
          await this.#sleep(delayMs, this.#signal);
        } catch {
          return void this.stopping();
        }
        continue;
      }
      // Recorded at once: nothing else is awaited between the receiver taking it and the ledger saying so.
      const id = this.#redact(typeof receipt?.id === 'string' ? receipt.id : String(receipt?.id ?? ''));
      const location = typeof receipt?.location === 'string' ? this.#redact(receipt.location) : undefined;
      await this.#ledger.append({ ...line, state: 'sent', attempt, id, ...(location ? { location } : {}) });
      this.result.sent.push({ ...ref, id, ...(location ? { location } : {}), attempts: tries });
      this.#emit({ type: 'sent', ...ref, attempt, id, ...(location ? { location } : {}) });
      return location;
    }
  }

  /** A target's settings: its destination's declared ones, and the variables the target needs (`teams:VARNAME`'s). */
  #settingsOf(target: ResolvedTarget): Readonly<Record<string, string | undefined>> {
    const own = this.settings.get(target.destination) ?? {};
    const needs = target.destination.needs?.(target.address) ?? [];
    if (needs.length === 0) return own;
    return { ...own, ...Object.fromEntries(needs.map((variable) => [variable, this.needed[variable]])) };
  }

  /** Waits for the sending limit; false when the run was stopped meanwhile. */
  async #pace(): Promise<boolean> {
    try {
      await this.#limit!.take(this.#signal, (delayMs) => this.#emit({ type: 'waiting', delayMs }));
      return true;
    } catch {
      this.stopping();
      return false;
    }
  }

  #share<T>(scheme: string, name: string, create: () => T, dispose: (value: T) => Promise<void> | void): T {
    const id = `${scheme}\0${name}`;
    const known = this.#shared.get(id);
    if (known) return known.value as T;
    const value = create();
    this.#shared.set(id, { scheme, value, dispose: dispose as (value: never) => Promise<void> | void });
    return value;
  }

  /** Disposes of what the destinations kept for the run (connection pools). */
  async close(): Promise<void> {
    for (const { scheme, value, dispose } of this.#shared.values()) {
      try {
        await dispose(value as never);
      } catch (error) {
        this.options.log?.(
          this.#redact(`closing what ${scheme} kept for the run failed: ${describe(error)}`),
        );
      }
    }
    this.#shared.clear();
  }
}
