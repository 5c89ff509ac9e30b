/**
 * `smtp`: e-mail through an SMTP server (nodemailer, loaded on first send). The server is one URL,
 * `ORGREPORT_SMTP_URL` (secret: it holds the password); the sender is `ORGREPORT_MAIL_FROM`, or the
 * SMTP user when that is an address. The message goes out with the delivery's Message-ID, so a
 * receiver can drop a repeat, and the documents attached. One pooled connection serves every
 * message of a run and is closed when the run ends. SMTP's 4xx replies and connection failures may
 * pass (retryable), its 5xx replies will not (permanent); messages name the server's host and port,
 * never its user or password.
 */
import type { Transporter } from 'nodemailer';
import {
  DestinationError,
  defineDestination,
  PermanentDeliveryError,
  RetryableDeliveryError,
} from '../destination.ts';

const URL_SETTING = 'ORGREPORT_SMTP_URL';
const FROM_SETTING = 'ORGREPORT_MAIL_FROM';

/** An address as a target gives it: one `@`, no spaces, no list or display-name characters. */
const ADDRESS = /^[^\s@<>()[\],;:"]+@[^\s@<>()[\],;:"]+$/;
/** A sender: an address, or `Name <address>`. */
const SENDER = /^(?:[^<>]*<[^\s@<>()[\],;:"]+@[^\s@<>()[\],;:"]+>|[^\s@<>()[\],;:"]+@[^\s@<>()[\],;:"]+)$/;
const PREFIX = /^(?:mailto|smtp):/i;

/** Error codes of nodemailer that mean the server refused what it was given (no reply code to go by). */
const REFUSED_CODES = new Set(['EAUTH', 'EENVELOPE', 'EMESSAGE', 'ETLS', 'ECONFIG']);

/** The SMTP URL, read; undefined when it is not an smtp:// or smtps:// URL with a host. */
function serverUrl(value: string | undefined): URL | undefined {
  if (value === undefined || !URL.canParse(value)) return undefined;
  const url = new URL(value);
  return (url.protocol === 'smtp:' || url.protocol === 'smtps:') && url.hostname !== '' ? url : undefined;
}

/** The sender: the setting, or the SMTP user when it is an address. */
function sender(settings: Readonly<Record<string, string | undefined>>): string | undefined {
  const from = settings[FROM_SETTING]?.trim();
  if (from) return from;
  const user = serverUrl(settings[URL_SETTING])?.username;
  const decoded = user ? decodeURIComponent(user) : '';
  return ADDRESS.test(decoded) ? decoded : undefined;
}

/** The server as it may be printed: host and port, never user or password. */
function serverLabel(url: URL): string {
  return url.host;
}

/** Turns a nodemailer failure into a retryable or permanent delivery error. */
function deliveryError(error: unknown, server: string, address: string): Error {
  const e = error as { message?: unknown; responseCode?: unknown; code?: unknown };
  const reply = typeof e?.responseCode === 'number' ? e.responseCode : undefined;
  const text = `sending to ${address} through ${server} failed: ${String(e?.message ?? error)}`;
  if (reply !== undefined && reply >= 500) return new PermanentDeliveryError(address, text, { cause: error });
  if (reply !== undefined && reply >= 400) {
    return new RetryableDeliveryError(address, text, undefined, { cause: error });
  }
  if (typeof e?.code === 'string' && REFUSED_CODES.has(e.code)) {
    return new PermanentDeliveryError(address, text, { cause: error });
  }
  return new RetryableDeliveryError(address, text, undefined, { cause: error });
}

/** The `smtp` destination: `cto@example.com` or `mailto:cto@example.com`. */
export const smtpDestination = defineDestination<string>({
  scheme: 'smtp',
  title: 'E-mail',
  syntax: 'an e-mail address (cto@example.com) or mailto:ADDRESS',
  settings: [
    {
      env: URL_SETTING,
      help: 'the SMTP server: smtp://user:password@host:587 (STARTTLS when offered) or smtps://...:465',
      secret: true,
      required: true,
    },
    { env: FROM_SETTING, help: 'the sender (default: the SMTP user, when it is an address)' },
  ],
  claims: (target) => PREFIX.test(target) || ADDRESS.test(target),
  check(settings) {
    if (!serverUrl(settings[URL_SETTING])) {
      throw new DestinationError(`${URL_SETTING} is not an smtp:// or smtps:// URL with a host`);
    }
    const from = sender(settings);
    if (!from) throw new DestinationError(`${FROM_SETTING} is not set and the SMTP user is not an address`);
    if (!SENDER.test(from) || /[\r\n]/.test(from)) {
      throw new DestinationError(`${FROM_SETTING} is not an address or "Name <address>" on one line`);
    }
  },
  parse(target) {
    const address = target.replace(PREFIX, '').trim();
    if (!ADDRESS.test(address)) throw new DestinationError('not an e-mail address');
    return address;
  },
  label: (address) => address,
  async send(message, address, context) {
    const url = serverUrl(context.settings[URL_SETTING]);
    const from = sender(context.settings);
    if (!url || !from)
      throw new PermanentDeliveryError(address, `${URL_SETTING} or ${FROM_SETTING} is unusable`);
    const server = serverLabel(url);
    const { createTransport } = await import('nodemailer');
    const open = (): Transporter => {
      const pooled = new URL(url);
      pooled.searchParams.set('pool', 'true');
      pooled.searchParams.set('maxConnections', '1');
      return createTransport(pooled.toString());
    };
    const shared = context.shared;
    const transport = shared ? shared(`smtp ${url.href}`, open, (t) => t.close()) : open();
    // The run giving up (a signal, a deadline) ends a send under way now, its outcome unknown to
    // the ledger, rather than when the server answers; the connection is dropped with it.
    let giveUp = () => {};
    const givenUp = new Promise<never>((_, reject) => {
      giveUp = () => {
        reject(context.signal.reason);
        transport.close();
      };
    });
    givenUp.catch(() => {});
    context.signal.addEventListener('abort', giveUp, { once: true });
    try {
      if (context.signal.aborted) throw context.signal.reason;
      context.log(`smtp: ${address} through ${server}`);
      const sending = transport.sendMail({
        messageId: context.messageId,
        from,
        to: address,
        subject: message.subject,
        text: message.text,
        ...(message.html === undefined ? {} : { html: message.html }),
        attachments: message.documents.map((d) => ({
          filename: d.filename,
          path: d.path,
          contentType: d.contentType,
        })),
      });
      sending.catch(() => {}); // when given up, its late failure is nobody's
      const info = await Promise.race([sending, givenUp]);
      if (Array.isArray(info.rejected) && info.rejected.length > 0) {
        throw new PermanentDeliveryError(address, `${server} refused the recipient ${address}`);
      }
      return { id: String(info.messageId ?? context.messageId) };
    } catch (error) {
      if (error instanceof PermanentDeliveryError) throw error;
      throw deliveryError(error, server, address);
    } finally {
      context.signal.removeEventListener('abort', giveUp);
      if (!shared) transport.close();
    }
  },
});
