/** What the package's tests share: scratch folders, documents with their real sha256, deliveries of them, and time that does not pass. */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Delivery, DeliveryDocument, DeliveryMessage } from '../destination.ts';
import { deliveryKey } from '../key.ts';

const scratch: string[] = [];

/** A fresh folder under the system's temporary folder, removed by {@link removeScratch}. */
export function scratchDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'orgreport-deliver-'));
  scratch.push(dir);
  return dir;
}

/** Removes every folder {@link scratchDir} made (call it in `afterAll`). */
export function removeScratch(): void {
  for (const dir of scratch.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** Writes a document into `dir` and describes it as the render stage would. */
export async function writeDocument(
  dir: string,
  filename: string,
  content: string | Buffer,
  contentType = 'application/pdf',
): Promise<DeliveryDocument> {
  const path = join(dir, filename);
  const bytes = Buffer.from(content);
  await writeFile(path, bytes);
  return {
    path,
    filename,
    contentType,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    bytes: bytes.length,
  };
}

/** A report message for `recipient` with `documents`. */
export function reportMessage(
  recipient: string,
  documents: ReadonlyArray<DeliveryDocument>,
): DeliveryMessage {
  return {
    kind: 'report',
    subject: `Acme Robotics, October 2026 (for ${recipient})`,
    text: `The October report of Acme Robotics.\n`,
    html: '<p>The October report of Acme Robotics.</p>',
    summary: 'Credits rose 12 %.',
    facts: [{ label: 'Credits', value: '1,234' }],
    documents,
    meta: { month: '2026-10', scope: 'org' },
  };
}

export interface TestDeliveryOptions {
  /** The target (default: the recipient, an e-mail address). */
  target?: string;
  group?: string;
  /** Counts how often the message is made. */
  rendered?: { count: number };
  /** Makes the message fail to render. */
  renderError?: Error;
}

/** A delivery of the October report to `recipient`, keyed as the CLI keys it. */
export function reportDelivery(
  recipient: string,
  documents: ReadonlyArray<DeliveryDocument>,
  options: TestDeliveryOptions = {},
): Delivery {
  const target = options.target ?? recipient;
  const formats = documents.map((d) => d.filename.split('.').pop() ?? '');
  return {
    key: deliveryKey({ month: '2026-10', recipient, scope: 'org', formats, target }),
    recipient,
    target,
    record: { month: '2026-10', scope: 'org', formats: formats.join(',') },
    ...(options.group === undefined ? {} : { group: options.group }),
    message: async () => {
      if (options.rendered) options.rendered.count++;
      if (options.renderError) throw options.renderError;
      return reportMessage(recipient, documents);
    },
  };
}

/** Time for `deliverAll` that passes only when it sleeps: the waits it asked for, and a clock they advance. */
export function stillTime(): {
  sleeps: number[];
  sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  clock: () => number;
  random: () => number;
} {
  let now = 0;
  const sleeps: number[] = [];
  return {
    sleeps,
    sleep: async (ms, signal) => {
      if (signal.aborted) throw signal.reason;
      sleeps.push(ms);
      now += ms;
    },
    clock: () => now,
    random: () => 0,
  };
}

/** A fixed ledger clock, one second further at each call. */
export function ticking(start = '2026-11-01T06:00:00.000Z'): () => Date {
  let t = Date.parse(start);
  return () => {
    const d = new Date(t);
    t += 1000;
    return d;
  };
}
