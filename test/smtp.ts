/** A real SMTP server on loopback for the mail tests: it keeps every message it receives, parsed and raw. */
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  /** RCPT TO addresses of the SMTP envelope. */
  recipients: string[];
  from: string;
  parsed: ParsedMail;
  /** The message as it came over the wire: headers and body, every attachment encoded. */
  raw: Buffer;
}

export interface TestSmtp {
  url: string;
  received: ReceivedMail[];
  /** Errors of connections that broke while a mail was under way (a client killed mid-mail). */
  broken: NodeJS.ErrnoException[];
  /** Stops the server; fails when a connection broke mid-mail and the options did not expect it. */
  close(): Promise<void>;
}

export interface TestSmtpOptions {
  /**
   * Holds the server's reply to message `index` (from 1, counted once its data is in) until the
   * promise settles: the message is then the server's, and the client does not know it yet.
   */
  hold?: (index: number) => Promise<void> | undefined;
  /** Clients may die mid-mail (the crash tests kill them): their broken connections are expected. */
  clientsMayDie?: boolean;
}

/** Starts an SMTP server on 127.0.0.1 (any free port), without TLS or authentication. */
export async function startSmtp(options: TestSmtpOptions = {}): Promise<TestSmtp> {
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    secure: false,
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks);
        simpleParser(raw)
          .then(async (parsed) => {
            received.push({
              recipients: session.envelope.rcptTo.map((r) => r.address),
              from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
              parsed,
              raw,
            });
            await options.hold?.(received.length);
            callback();
          })
          .catch(callback);
      });
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
    url: `smtp://127.0.0.1:${port}`,
    received,
    broken,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      if (broken.length > 0 && !options.clientsMayDie) {
        throw new Error(`a connection broke mid-mail: ${broken.map((e) => e.code ?? e.message).join(', ')}`);
      }
    },
  };
}
