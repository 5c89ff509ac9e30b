/**
 * A delivery's key: the same on every run for the same thing sent to the same target, so the ledger
 * can tell a rerun from a new delivery, and the Message-ID derived from it lets a receiver drop a repeat.
 */
import { createHash } from 'node:crypto';
import { DestinationError } from './destination.ts';

/** What a delivery's key is made of. */
export interface DeliveryKeyParts {
  /** The report's month, `YYYY-MM` (an alert: its period). */
  month: string;
  /** Who it is for: an e-mail address, a channel (compared without case). */
  recipient: string;
  /** The scope of the report (`org`, `team:platform`, ...). */
  scope: string;
  /** The document formats sent (their order does not matter). */
  formats: ReadonlyArray<string>;
  /** The target as configured (`cto@example.com`, `slack:#eng-leads`); an e-mail address is keyed as {@link normalTarget} writes it. */
  target: string;
  /** `report` (the default) or `alert`, or another kind of message a caller sends. */
  kind?: string;
}

/**
 * The key of a delivery: sha256 over a canonical JSON array of its parts (the recipient in lower
 * case, the formats sorted, the target as {@link normalTarget} writes it), hex, first 32 characters
 * (128 bits). So `CTO@Example.com` and `mailto:cto@example.com` are one delivery, whoever calls it.
 *
 * @example
 * deliveryKey({ month: '2026-10', recipient: 'CTO@example.com', scope: 'org', formats: ['xlsx', 'pdf'], target: 'cto@example.com' })
 * // === deliveryKey({ month: '2026-10', recipient: 'cto@example.com', scope: 'org', formats: ['pdf', 'xlsx'], target: 'cto@example.com', kind: 'report' })
 */
export function deliveryKey(parts: DeliveryKeyParts): string {
  for (const name of ['month', 'recipient', 'scope', 'target'] as const) {
    if (typeof parts[name] !== 'string') throw new DestinationError(`deliveryKey: ${name} must be a string`);
  }
  if (!Array.isArray(parts.formats) || parts.formats.some((f) => typeof f !== 'string')) {
    throw new DestinationError('deliveryKey: formats must be a list of strings');
  }
  const canonical = JSON.stringify([
    parts.month,
    parts.recipient.toLowerCase(),
    parts.scope,
    [...parts.formats].sort(),
    normalTarget(parts.target),
    parts.kind ?? 'report',
  ]);
  return createHash('sha256').update(canonical).digest('hex').slice(0, 32);
}

/** An e-mail target: an address, plain or as `mailto:`. */
const EMAIL_TARGET = /^(mailto:)?[^\s@:/]+@[^\s@]+$/i;

/**
 * A target as one delivery has it, however it was written: an e-mail address in lower case without
 * `mailto:`; any other target as it is.
 *
 * @example
 * normalTarget('mailto:CTO@Example.com') // 'cto@example.com'
 * normalTarget('slack:#Eng') // 'slack:#Eng'
 */
export function normalTarget(target: string): string {
  return EMAIL_TARGET.test(target) ? target.replace(/^mailto:/i, '').toLowerCase() : target;
}

const HOST = /^[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?$/;

/**
 * The Message-ID of a delivery: `<orgreport.KEY@host>`, the same on every run, so a receiver that
 * keeps Message-IDs drops a message sent again after a crash.
 *
 * @example
 * messageIdOf('0123abcd', 'example.com') // '<orgreport.0123abcd@example.com>'
 */
export function messageIdOf(key: string, host: string): string {
  if (!/^[A-Za-z0-9_-]+$/.test(key)) throw new DestinationError(`messageIdOf: not a delivery key: ${key}`);
  if (!HOST.test(host)) throw new DestinationError(`messageIdOf: not a host name: ${JSON.stringify(host)}`);
  return `<orgreport.${key}@${host}>`;
}
