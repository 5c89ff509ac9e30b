/**
 * Records the requests a client makes (through its `onRequest`/`onResponse` hooks): their URLs in
 * order with the operation that made them, and the most requests in flight at once.
 */
import { writeFile } from 'node:fs/promises';

/** One recorded request. */
export interface RecordedRequest {
  /** The operation of the client (`analytics.users`, ...): requests of one operation form a chain. */
  operation: string;
  url: string;
}

/** What the responses of one path added up to. */
export interface PathTotals {
  responses: number;
  bytes: number;
  /** Summed time from sending each request to having read its body. */
  ms: number;
}

/** Collects requests as they start and finish. */
export class RequestRecorder {
  readonly requests: RecordedRequest[] = [];
  #inFlight = 0;
  #maxInFlight = 0;
  #distinctInFlight = new Map<string, number>();
  #maxDistinctOperations = 0;
  #byPath = new Map<string, PathTotals>();

  /** The most requests in flight at once. */
  get maxInFlight(): number {
    return this.#maxInFlight;
  }

  /** The most different operations (endpoints) in flight at once: above 1 means they overlapped. */
  get maxOverlappingOperations(): number {
    return this.#maxDistinctOperations;
  }

  started(url: string, operation: string): void {
    this.requests.push({ operation, url });
    this.#inFlight++;
    this.#maxInFlight = Math.max(this.#maxInFlight, this.#inFlight);
    this.#distinctInFlight.set(operation, (this.#distinctInFlight.get(operation) ?? 0) + 1);
    this.#maxDistinctOperations = Math.max(this.#maxDistinctOperations, this.#distinctInFlight.size);
  }

  finished(operation: string, url: string, bytes: number, durationMs: number): void {
    const path = new URL(url).pathname;
    const totals = this.#byPath.get(path) ?? { responses: 0, bytes: 0, ms: 0 };
    totals.responses++;
    totals.bytes += bytes;
    totals.ms += durationMs;
    this.#byPath.set(path, totals);
    this.#inFlight--;
    const left = (this.#distinctInFlight.get(operation) ?? 1) - 1;
    if (left > 0) this.#distinctInFlight.set(operation, left);
    else this.#distinctInFlight.delete(operation);
  }

  /** Responses, body bytes and summed response times per URL path (without the query). */
  totalsByPath(): Record<string, PathTotals> {
    return Object.fromEntries(this.#byPath);
  }

  /** Writes the requests as JSON lines. */
  async save(file: string): Promise<void> {
    await writeFile(file, this.requests.map((r) => `${JSON.stringify(r)}\n`).join(''));
  }
}
