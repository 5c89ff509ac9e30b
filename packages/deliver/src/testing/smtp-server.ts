/**
 * A real SMTP server on loopback for the package's tests (smtp-server, mailparser): it keeps every
 * message whose data it received, parsed, and answers as a test tells it to: 250, a 4xx or 5xx reply
 * at RCPT TO or after DATA (as RFC 5321 servers do), a reply held back, a greeting held back, or a
 * login it refuses. Replies go through smtp-server's own `responseCode` mechanism, so the client
 * sees exactly what a real server would send.
 */
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  /** RCPT TO addresses of the SMTP envelope. */
  recipients: string[];
  from: string;
  /** The Message-ID header as sent. */
  messageId: string | undefined;
  parsed: ParsedMail;
  /** The code the server answered after DATA: 250, a refusal, or null while it holds its reply. */
  reply: number | null;
}

/** A reply other than 250: its code and text. */
export interface SmtpReply {
  code: number;
  message: string;
}

export interface TestSmtpOptions {
  /** The only login accepted (PLAIN/LOGIN, without TLS); none: no authentication. */
  auth?: { user: string; pass: string };
  /** The reply to RCPT TO for `address` (undefined: accept). */
  rcpt?: (address: string) => SmtpReply | undefined;
  /**
   * The reply once a message's data is in (undefined: 250). `index` counts messages from 1. A
   * promise holds the reply back until it settles.
   */
  reply?: (mail: ReceivedMail, index: number) => SmtpReply | undefined | Promise<SmtpReply | undefined>;
  /** Holds the greeting of connection number `index` (from 1) until the promise settles. */
  connect?: (index: number) => Promise<void> | undefined;
  /** Clients may die mid-mail (the crash tests kill them): their broken connections are expected. */
  clientsMayDie?: boolean;
}

export interface TestSmtp {
  /** `smtp://[user:pass@]127.0.0.1:PORT` (with the configured login when `withAuth`). */
  url(withAuth?: { user: string; pass: string }): string;
  port: number;
  /** Every message whose data the server received, in order. */
  received: ReceivedMail[];
  /** Messages the server took (250, or a reply still held): what a receiver ends up with. */
  taken(): ReceivedMail[];
  /** Recipients refused at RCPT TO, in order. */
  refused: string[];
  /** TCP connections accepted so far. */
  connections(): number;
  /** Connections closed so far (by either side). */
  closedConnections(): number;
  /** Logins refused so far. */
  failedLogins(): number;
  /** Errors of connections that broke while a mail was under way (a client killed mid-mail). */
  broken: NodeJS.ErrnoException[];
  /** Stops the server; fails when a connection broke mid-mail and the options did not expect it. */
  close(): Promise<void>;
}

function replyError(reply: SmtpReply): Error {
  return Object.assign(new Error(reply.message), { responseCode: reply.code });
}

/** Starts an SMTP server on 127.0.0.1 (any free port), without TLS. */
export async function startTestSmtp(options: TestSmtpOptions = {}): Promise<TestSmtp> {
  const received: ReceivedMail[] = [];
  const refused: string[] = [];
  let connections = 0;
  let closed = 0;
  let failedLogins = 0;
  const server = new SMTPServer({
    secure: false,
    disabledCommands: options.auth ? ['STARTTLS'] : ['STARTTLS', 'AUTH'],
    authOptional: !options.auth,
    allowInsecureAuth: true,
    authMethods: ['PLAIN', 'LOGIN'],
    logger: false,
    closeTimeout: 200,
    onConnect(_session, callback) {
      connections++;
      const held = options.connect?.(connections);
      if (held) held.then(() => callback(), callback);
      else callback();
    },
    onClose() {
      closed++;
    },
    onAuth(auth, _session, callback) {
      if (options.auth && auth.username === options.auth.user && auth.password === options.auth.pass) {
        callback(null, { user: auth.username });
        return;
      }
      failedLogins++;
      callback(replyError({ code: 535, message: '5.7.8 Authentication credentials invalid' }));
    },
    onRcptTo(address, _session, callback) {
      const reply = options.rcpt?.(address.address);
      if (reply) {
        refused.push(address.address);
        callback(replyError(reply));
      } else {
        callback();
      }
    },
    onData(stream, session, callback) {
      simpleParser(stream)
        .then(async (parsed) => {
          const headerId = parsed.headers.get('message-id');
          const mail: ReceivedMail = {
            recipients: session.envelope.rcptTo.map((r) => r.address),
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            messageId: typeof headerId === 'string' ? headerId : parsed.messageId,
            parsed,
            reply: null,
          };
          received.push(mail);
          const reply = await options.reply?.(mail, received.length);
          mail.reply = reply ? reply.code : 250;
          callback(reply ? replyError(reply) : null);
        })
        .catch(callback);
    },
  });
  // smtp-server emits a connection broken mid-mail on the server; unheard, it would be an uncaught
  // exception in whatever test runs then.
  const broken: NodeJS.ErrnoException[] = [];
  server.on('error', (err: NodeJS.ErrnoException) => broken.push(err));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    port,
    url: (login) =>
      login
        ? `smtp://${encodeURIComponent(login.user)}:${encodeURIComponent(login.pass)}@127.0.0.1:${port}`
        : `smtp://127.0.0.1:${port}`,
    received,
    taken: () => received.filter((m) => m.reply === null || m.reply === 250),
    refused,
    connections: () => connections,
    closedConnections: () => closed,
    failedLogins: () => failedLogins,
    broken,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      if (broken.length > 0 && !options.clientsMayDie) {
        throw new Error(`a connection broke mid-mail: ${broken.map((e) => e.code ?? e.message).join(', ')}`);
      }
    },
  };
}
