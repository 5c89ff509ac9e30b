/**
 * A report's JSON file: the bytes of `JSON.stringify(value, null, 2)` and a newline, written in
 * pieces. A 100,000-person month's model is about 75 MB of JSON, nearly all of it the users' rows:
 * as one string it is built whole, then copied whole into UTF-8, the process holding both at once.
 * Here the model's objects and its long arrays are walked, every other value is stringified as it
 * comes (indented to its depth), and each piece is encoded straight into a megabyte buffer that
 * goes to the file as it fills: no string of many pieces is joined (at 100k users, joining them
 * cost more than stringifying the rows).
 */
import { type FileHandle, open } from 'node:fs/promises';

/** Arrays longer than this are written element by element; shorter ones in one piece. */
const LONG_ARRAY = 256;
/** Objects are walked key by key above this depth: the model itself (its users are one long array). */
const WALKED_DEPTH = 1;
/** Bytes gathered before they are written. */
const BATCH_BYTES = 1 << 20;
/** The most bytes of UTF-8 one UTF-16 code unit of a string takes (a pair of them takes 4). */
const MAX_BYTES_PER_UNIT = 3;

/** A value JSON.stringify leaves out of an object (and writes as null in an array). */
function omitted(value: unknown): boolean {
  return value === undefined || typeof value === 'function' || typeof value === 'symbol';
}

/** A plain object or array that has no `toJSON` of its own (so stringify would walk it as it is). */
function walkable(value: unknown): value is Record<string, unknown> | unknown[] {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { toJSON?: unknown }).toJSON !== 'function'
  );
}

/** `value` stringified with two-space indentation as it stands at `indent` (its lines indented). */
function stringified(value: unknown, indent: string): string {
  const text = JSON.stringify(value, null, 2) ?? 'null';
  // Line breaks are only ever structure: a string's own are escaped as \n.
  return indent === '' ? text : text.replaceAll('\n', `\n${indent}`);
}

/** The pieces of `JSON.stringify(value, null, 2)` for `value` at `indent` and `depth`. */
function* pieces(value: unknown, indent: string, depth: number): Generator<string> {
  if (!walkable(value)) {
    yield stringified(value, indent);
    return;
  }
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length <= LONG_ARRAY) {
      yield stringified(value, indent);
      return;
    }
    yield '[';
    for (let i = 0; i < value.length; i++) {
      yield `${i === 0 ? '' : ','}\n${inner}`;
      const item = value[i];
      yield* pieces(omitted(item) ? null : item, inner, depth + 1);
    }
    yield `\n${indent}]`;
    return;
  }
  if (depth >= WALKED_DEPTH) {
    yield stringified(value, indent);
    return;
  }
  const keys = Object.keys(value).filter((k) => !omitted(value[k]));
  if (keys.length === 0) {
    yield '{}';
    return;
  }
  yield '{';
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    yield `${i === 0 ? '' : ','}\n${inner}${JSON.stringify(key)}: `;
    yield* pieces(value[key], inner, depth + 1);
  }
  yield `\n${indent}}`;
}

/** Writes `length` bytes of `buffer` to `handle`, however many calls the system takes. */
async function writeAll(handle: FileHandle, buffer: Buffer, length: number): Promise<void> {
  let done = 0;
  while (done < length) done += (await handle.write(buffer, done, length - done)).bytesWritten;
}

/** The pieces of the file: the value's, then the closing newline. */
function* fileText(value: unknown): Generator<string> {
  yield* pieces(value, '', 0);
  yield '\n';
}

/**
 * Writes `${JSON.stringify(value, null, 2)}\n` to `file`, in pieces (see the module's description).
 *
 * @example
 * await writeJsonFile('report.json', model)
 */
export async function writeJsonFile(file: string, value: unknown): Promise<void> {
  const handle = await open(file, 'w');
  try {
    const buffer = Buffer.allocUnsafe(BATCH_BYTES);
    let at = 0;
    for (const piece of fileText(value)) {
      const most = piece.length * MAX_BYTES_PER_UNIT;
      if (at + most > BATCH_BYTES) {
        await writeAll(handle, buffer, at);
        at = 0;
        // A piece larger than the buffer goes on its own.
        if (most > BATCH_BYTES) {
          const bytes = Buffer.from(piece, 'utf8');
          await writeAll(handle, bytes, bytes.length);
          continue;
        }
      }
      at += buffer.write(piece, at, 'utf8');
    }
    await writeAll(handle, buffer, at);
  } finally {
    await handle.close();
  }
}
