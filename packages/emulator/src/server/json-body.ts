/**
 * JSON bodies that may be too large for one string: `{"data":[...rows],"meta":{...}}` written row
 * by row. A body shorter than the threshold is returned as one string, exactly as
 * `JSON.stringify({ data, meta })` (so small responses keep their Content-Length and whole-body
 * faults); a longer one continues as a byte stream that produces rows only as fast as the client
 * reads them.
 */
import { Readable } from 'node:stream';

/** Bodies longer than this many characters are streamed by default. */
export const DEFAULT_STREAM_ABOVE = 4 * 1024 * 1024;
/** Rows are gathered into chunks of about this many characters before they are written. */
const CHUNK_CHARS = 64 * 1024;

/** A row already serialized as JSON, in pieces (a long row need not be one string); written as is. */
export class JsonText {
  constructor(readonly parts: Iterable<string>) {}
}

/** The text of the rows, comma-separated, piece by piece. */
async function* rowsText(rows: AsyncIterable<unknown>): AsyncGenerator<string> {
  let first = true;
  for await (const row of rows) {
    if (!first) yield ',';
    first = false;
    if (row instanceof JsonText) yield* row.parts;
    else yield JSON.stringify(row);
  }
}

/** The `{"data":[...],"meta":...}` body of `rows`: a string when short, else a stream (see module comment). */
export async function dataEnvelope(
  rows: AsyncIterable<unknown>,
  meta: unknown,
  streamAbove: number,
): Promise<string | Readable> {
  const tail = `],"meta":${JSON.stringify(meta)}}`;
  const text = rowsText(rows);
  let head = '{"data":[';
  for (;;) {
    if (head.length > streamAbove) return Readable.from(rest(head, text, tail), { objectMode: false });
    const step = await text.next();
    if (step.done) return head + tail;
    head += step.value;
  }
}

async function* rest(head: string, text: AsyncGenerator<string>, tail: string): AsyncGenerator<Buffer> {
  let chunk = head;
  try {
    for (;;) {
      if (chunk.length >= CHUNK_CHARS) {
        yield Buffer.from(chunk);
        chunk = '';
      }
      const step = await text.next();
      if (step.done) break;
      chunk += step.value;
    }
    yield Buffer.from(chunk + tail);
  } finally {
    // The client went away (or the body is complete): stop producing rows.
    await text.return(undefined);
  }
}

/** A stream that passes `source` through and reports how many bytes went by. */
export function countingStream(source: Readable, onBytes: (total: number) => void): Readable {
  let total = 0;
  const counted = async function* () {
    for await (const chunk of source) {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
      total += bytes.length;
      onBytes(total);
      yield bytes;
    }
  };
  return Readable.from(counted(), { objectMode: false });
}
