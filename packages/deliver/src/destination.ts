/**
 * The destination API: a destination is declared once, like a report section, and says how a
 * message with its documents reaches one kind of target (`smtp`, `slack`, `teams`, `webhook`, `s3`,
 * `dir`, or another team's package), which settings it takes (secrets by environment variable name,
 * never in a config file's text), and how it fails: an error it may retry (429 with Retry-After,
 * 5xx, a timeout) or one it may not (a bad token, an unknown channel, another 4xx). A destination
 * only delivers: what is sent to whom is decided before (a plan, an alert rule), and every delivery
 * is recorded in the ledger around the send (see `deliverAll`).
 */

/** One document of a message: a file the render stage wrote. */
export interface DeliveryDocument {
  /** Where the file is on this machine. */
  path: string;
  /** The file's name as the receiver sees it (`orgreport-acme-2026-10-team-platform.pdf`). */
  filename: string;
  /** Its media type (`application/pdf`). */
  contentType: string;
  /** sha256 of the file's bytes, hex (recorded in the ledger). */
  sha256: string;
  /** Its size in bytes. */
  bytes: number;
}

/** A message with its documents, rendered once and delivered through any destination. */
export interface DeliveryMessage {
  /** What it is: a report for a reader, or an alert. */
  kind: 'report' | 'alert';
  /** One line: the mail's subject, a card's title. */
  subject: string;
  /** Plain-text body (the mail's text part; chat destinations show `summary` and `facts` instead). */
  text: string;
  /** HTML body for mail; destinations that cannot show HTML use `text`. */
  html?: string;
  /** One paragraph for chat: the report's "what changed", or the alert's sentence. */
  summary: string;
  /** Headline figures, formatted as the report prints them (card facts, message fields). */
  facts: ReadonlyArray<{ label: string; value: string }>;
  /** What to do this month (a scoped report's actions), one each: shown after the figures. */
  actions?: ReadonlyArray<{ title: string; text: string }>;
  documents: ReadonlyArray<DeliveryDocument>;
  /** Plain metadata for webhooks, object keys and logs: `month`, `scope`, `rule`, ... */
  meta: Readonly<Record<string, string>>;
}

/** One delivery: a message to one target, known by a key that is the same on every run. */
export interface Delivery {
  /**
   * The delivery's key, derived from what is sent and to whom (month, recipient, scope, formats,
   * target; see `deliveryKey`): the ledger's key, and the source of the message's Message-ID.
   */
  key: string;
  /** Who it is for (an e-mail address, a channel), as summaries name it and `--resend` matches it. */
  recipient: string;
  /** The target as configured: `cto@example.com`, `slack:#eng-leads`, `s3://bucket/prefix/`, ... */
  target: string;
  /** Plain fields recorded with the delivery in the ledger (`month`, `scope`, `formats`, ...). */
  record: Readonly<Record<string, string>>;
  /**
   * Deliveries of one message to several targets share a group: the targets that store documents
   * (an S3 bucket, a folder) are sent first, and the others (a Teams card, a webhook) receive
   * where the documents now are as `SendContext.links`.
   */
  group?: string;
  /** Renders the message when it is due: a delivery the ledger holds as sent renders nothing. */
  message: () => Promise<DeliveryMessage>;
}

/** What a destination's `send` receives besides the message and its target. */
export interface SendContext {
  /** The delivery's key. */
  key: string;
  /** The Message-ID derived from the key (`<orgreport.KEY@host>`): a receiver can drop a repeat by it. */
  messageId: string;
  /** The values of the destination's declared settings, by variable name (secrets are never printed). */
  settings: Readonly<Record<string, string | undefined>>;
  /** Aborted when the run gives up (a deadline, Ctrl-C). */
  signal: AbortSignal;
  /** A debug line; never pass it a secret or a signed URL. */
  log: (line: string) => void;
  /** Where this message's documents were stored by earlier deliveries of its group (none: nowhere yet). */
  links: ReadonlyArray<{ url: string; label: string }>;
  /**
   * A value kept for the rest of the run under `name` (a connection pool): made by `create` on first
   * use, given back on every later call, and handed to `dispose` when the run ends. Optional so a
   * context can be built by hand in a destination's own tests; `deliverAll` always provides it.
   */
  shared?: <T>(name: string, create: () => T, dispose: (value: T) => Promise<void> | void) => T;
}

/** What the receiving side said of a delivery, for the ledger. */
export interface SentReceipt {
  /** The receiver's id of what it took: a Message-ID, Slack file ids, an object key, an HTTP status. */
  id: string;
  /** Where the documents can be found from now on (an object URL without signature, a folder); none for mail. */
  location?: string;
}

/** One setting of a destination: an environment variable, secret or not. */
export interface DestinationSetting {
  /** The variable's name (`ORGREPORT_SLACK_TOKEN`). */
  env: string;
  /** One line of help. */
  help: string;
  /** Its value is never printed, logged or written (tokens, passwords, signing secrets, signed URLs). */
  secret?: boolean;
  /** A delivery to this destination is refused before anything is sent when it is unset. */
  required?: boolean;
}

/**
 * A destination. `Address` is what `parse` makes of a target (a channel, a bucket and prefix, ...).
 */
export interface DestinationDeclaration<Address = unknown> {
  /** The scheme targets start with (`slack` for `slack:#eng`, `s3` for `s3://bucket/`); lower-case. */
  scheme: string;
  /** Its name for people: `Slack channel`. */
  title: string;
  /** How a target is written, for help and errors: `slack:#channel or slack:C0123456789`. */
  syntax: string;
  /** The destination's settings. */
  settings: ReadonlyArray<DestinationSetting>;
  /** It keeps the documents where others can fetch them (a bucket, a folder): sent first in a group. */
  stores?: boolean;
  /**
   * Whether a target without a scheme belongs to this destination (`smtp` takes plain e-mail
   * addresses); targets with a scheme go to the destination of that scheme.
   */
  claims?: (target: string) => boolean;
  /**
   * Checks the values of the settings before anything is sent (a malformed URL, a mode that is not
   * octal); throws {@link DestinationError} naming the variable, never its value. Presence of the
   * `required` ones is checked before it is called.
   */
  check?: (settings: Readonly<Record<string, string | undefined>>) => void;
  /**
   * The variables a target reads beside the declared settings (`teams:VARNAME` reads VARNAME), all
   * required: a delivery to it is refused before anything is sent when one is unset.
   */
  needs?: (address: Address) => ReadonlyArray<string>;
  /** Reads a target; throws {@link DestinationError} saying what is wrong and how it is written. */
  parse: (target: string) => Address;
  /** The target as it may be printed: no token, no signature, no password. */
  label: (address: Address) => string;
  /**
   * Delivers one message. Throws {@link RetryableDeliveryError} for what may succeed later and
   * {@link PermanentDeliveryError} for what will not; any other error counts as retryable.
   */
  send: (message: DeliveryMessage, address: Address, context: SendContext) => Promise<SentReceipt>;
}

/** A declaration that cannot be used, or a target a destination cannot read. */
export class DestinationError extends Error {
  override readonly name: string = 'DestinationError';
}

/** A delivery that failed; `destination` names the target as it may be printed. */
export class DeliveryError extends Error {
  override readonly name: string = 'DeliveryError';
  constructor(
    readonly destination: string,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/** A failure that may pass: 429, 5xx, a timeout, a dropped connection. */
export class RetryableDeliveryError extends DeliveryError {
  override readonly name = 'RetryableDeliveryError';
  constructor(
    destination: string,
    message: string,
    /** How long the receiver asked to wait (Retry-After), in ms. */
    readonly retryAfterMs?: number,
    options?: ErrorOptions,
  ) {
    super(destination, message, options);
  }
}

/** A failure that will not pass by retrying: a bad token, an unknown channel, another 4xx. */
export class PermanentDeliveryError extends DeliveryError {
  override readonly name = 'PermanentDeliveryError';
}

const SCHEME = /^[a-z][a-z0-9+.-]{0,31}$/;

/**
 * Checks and returns a destination declaration, so that a mistake in a package's destination is
 * named when it is loaded, not halfway through a delivery.
 *
 * @example
 * export const destination = defineDestination({ scheme: 'pager', title: 'Pager', syntax: 'pager:TEAM', settings: [], parse: (t) => t.slice(6), label: (a) => `pager:${a}`, send: async () => ({ id: 'ok' }) });
 */
export function defineDestination<Address>(
  destination: DestinationDeclaration<Address>,
): DestinationDeclaration<Address> {
  if (destination === null || typeof destination !== 'object') {
    throw new DestinationError('a destination must be an object');
  }
  const what = `destination ${JSON.stringify(destination.scheme)}`;
  if (typeof destination.scheme !== 'string' || !SCHEME.test(destination.scheme)) {
    throw new DestinationError(`${what}: the scheme must be lower-case letters, digits, +, - or .`);
  }
  for (const key of ['title', 'syntax'] as const) {
    if (typeof destination[key] !== 'string' || destination[key].trim() === '') {
      throw new DestinationError(`${what}: ${key} is required`);
    }
  }
  for (const key of ['parse', 'label', 'send'] as const) {
    if (typeof destination[key] !== 'function')
      throw new DestinationError(`${what}: ${key} must be a function`);
  }
  for (const key of ['claims', 'check', 'needs'] as const) {
    if (destination[key] !== undefined && typeof destination[key] !== 'function') {
      throw new DestinationError(`${what}: ${key} must be a function`);
    }
  }
  if (!Array.isArray(destination.settings)) throw new DestinationError(`${what}: settings must be a list`);
  for (const s of destination.settings) {
    if (typeof s?.env !== 'string' || !/^[A-Z_][A-Z0-9_]*$/.test(s.env)) {
      throw new DestinationError(`${what}: every setting needs the name of an environment variable`);
    }
  }
  return destination;
}
