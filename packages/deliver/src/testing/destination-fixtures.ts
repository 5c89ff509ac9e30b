/**
 * What the destinations' tests share: a message with real files, a send context that keeps its
 * log lines, a small retry loop standing in for `deliverAll`'s (which retries what a destination
 * calls retryable), and a search of every error and log line for secrets.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import {
  type DeliveryDocument,
  type DeliveryMessage,
  type DestinationDeclaration,
  RetryableDeliveryError,
  type SendContext,
  type SentReceipt,
} from '../destination.ts';

export interface TestFiles {
  dir: string;
  write(filename: string, contentType: string, content: Buffer | string): Promise<DeliveryDocument>;
  remove(): Promise<void>;
}

/** A scratch folder for documents, removed by `remove()`. */
export async function testFiles(): Promise<TestFiles> {
  const dir = await mkdtemp(join(tmpdir(), 'orgreport-deliver-'));
  return {
    dir,
    async write(filename, contentType, content) {
      const bytes = typeof content === 'string' ? Buffer.from(content) : content;
      const path = join(dir, filename);
      await writeFile(path, bytes);
      return {
        path,
        filename,
        contentType,
        sha256: createHash('sha256').update(bytes).digest('hex'),
        bytes: bytes.length,
      };
    },
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}

/** A report's message for October 2026 with the documents given. */
export function reportMessage(
  documents: ReadonlyArray<DeliveryDocument>,
  overrides: Partial<DeliveryMessage> = {},
): DeliveryMessage {
  return {
    kind: 'report',
    subject: 'Acme usage report, October 2026 (team Platform)',
    text: 'Usage report for October 2026.\nActive users: 182 (+12 on September).',
    html: '<p>Usage report for October 2026.</p>',
    summary: 'Active users rose to 182 (+12); tool calls per user fell 4 % as the code-review rollout ended.',
    facts: [
      { label: 'Active users', value: '182' },
      { label: 'Tool calls', value: '48,210' },
      { label: 'Credits', value: '1,204.5' },
    ],
    documents,
    meta: { month: '2026-10', scope: 'team-platform', org: 'acme' },
    ...overrides,
  };
}

export interface TestContext extends SendContext {
  lines: string[];
}

/** A send context whose log lines are kept in `lines`. */
export function sendContext(
  settings: Record<string, string | undefined>,
  overrides: Partial<SendContext> = {},
): TestContext {
  const lines: string[] = [];
  return {
    key: 'dlv-2026-10-platform-0001',
    messageId: '<orgreport.dlv-2026-10-platform-0001@orgreport.test>',
    settings,
    signal: new AbortController().signal,
    log: (line) => lines.push(line),
    links: [],
    ...overrides,
    lines,
  };
}

/** Parses a target and sends through the declaration, as the core does. */
export function sendTo<A>(
  destination: DestinationDeclaration<A>,
  target: string,
  message: DeliveryMessage,
  context: SendContext,
): Promise<SentReceipt> {
  return destination.send(message, destination.parse(target), context);
}

/**
 * Sends until it succeeds, at most `attempts` times, retrying only {@link RetryableDeliveryError}s
 * (without waiting: the servers' Retry-After is checked on the errors instead). The errors met on
 * the way are returned with the receipt.
 */
export async function sendWithRetries(
  send: () => Promise<SentReceipt>,
  attempts = 4,
): Promise<{ receipt: SentReceipt; errors: RetryableDeliveryError[] }> {
  const errors: RetryableDeliveryError[] = [];
  for (let attempt = 1; ; attempt++) {
    try {
      return { receipt: await send(), errors };
    } catch (error) {
      if (!(error instanceof RetryableDeliveryError) || attempt >= attempts) throw error;
      errors.push(error);
    }
  }
}

/** Runs `send` and returns what it threw (fails if it did not throw). */
export async function failureOf(send: () => Promise<unknown>): Promise<Error> {
  try {
    await send();
  } catch (error) {
    if (error instanceof Error) return error;
    throw new Error(`threw a non-error: ${String(error)}`);
  }
  throw new Error('expected the delivery to fail, and it succeeded');
}

/**
 * The secrets found in errors (inspected deeply: message, stack, cause, every property) and log
 * lines; an empty list when none leaked.
 */
export function leakedSecrets(
  outputs: ReadonlyArray<unknown>,
  secrets: ReadonlyArray<string>,
): Array<{ secret: string; in: string }> {
  const leaks: Array<{ secret: string; in: string }> = [];
  for (const output of outputs) {
    const text = typeof output === 'string' ? output : inspect(output, { depth: 10, showHidden: true });
    for (const secret of secrets) {
      if (text.includes(secret)) leaks.push({ secret, in: text.slice(0, 200) });
    }
  }
  return leaks;
}
