/**
 * A Parquet footer walked without decoding it: the Thrift compact encoding of `FileMetaData` must
 * end exactly where the footer's length says and hold its required fields (version, schema, number
 * of rows, row groups). What the damage check reads of every partition instead of asking the engine.
 */

/** Thrift compact types (the low nibble of a field header or a list header). */
const T = {
  TRUE: 1,
  FALSE: 2,
  BYTE: 3,
  I16: 4,
  I32: 5,
  I64: 6,
  DOUBLE: 7,
  BINARY: 8,
  LIST: 9,
  SET: 10,
  MAP: 11,
  STRUCT: 12,
} as const;

/** Deeper than any Parquet footer nests (schema elements are a flat list). */
const MAX_DEPTH = 32;

class Malformed extends Error {}

/** A cursor over the footer's bytes that refuses to read past them. */
class Reader {
  offset = 0;
  constructor(private readonly bytes: Uint8Array) {}

  byte(): number {
    if (this.offset >= this.bytes.length) throw new Malformed('runs past its end');
    return this.bytes[this.offset++]!;
  }

  skip(n: number): void {
    if (n < 0 || this.offset + n > this.bytes.length) throw new Malformed('runs past its end');
    this.offset += n;
  }

  /** An unsigned LEB128 varint (at most 10 bytes); only its size matters here. */
  varint(): number {
    let value = 0;
    let scale = 1;
    for (let i = 0; i < 10; i++) {
      const b = this.byte();
      value += (b & 0x7f) * scale;
      if ((b & 0x80) === 0) return value;
      scale *= 128;
    }
    throw new Malformed('has a varint longer than 10 bytes');
  }
}

function skipValue(r: Reader, type: number, depth: number): void {
  switch (type) {
    case T.TRUE:
    case T.FALSE:
      return;
    case T.BYTE:
      r.skip(1);
      return;
    case T.I16:
    case T.I32:
    case T.I64:
      r.varint();
      return;
    case T.DOUBLE:
      r.skip(8);
      return;
    case T.BINARY:
      r.skip(r.varint());
      return;
    case T.LIST:
    case T.SET: {
      const header = r.byte();
      const size = header >> 4 === 15 ? r.varint() : header >> 4;
      const element = header & 0x0f;
      for (let i = 0; i < size; i++) {
        // Booleans in a list take a byte each.
        if (element === T.TRUE || element === T.FALSE) r.skip(1);
        else skipValue(r, element, depth + 1);
      }
      return;
    }
    case T.MAP: {
      const size = r.varint();
      if (size === 0) return;
      const types = r.byte();
      for (let i = 0; i < size; i++) {
        skipValue(r, types >> 4, depth + 1);
        skipValue(r, types & 0x0f, depth + 1);
      }
      return;
    }
    case T.STRUCT:
      skipStruct(r, depth + 1);
      return;
    default:
      throw new Malformed(`has an unknown Thrift type ${type}`);
  }
}

/** Skips a struct; returns the ids of its fields. */
function skipStruct(r: Reader, depth: number): Set<number> {
  if (depth > MAX_DEPTH) throw new Malformed('nests too deep');
  const ids = new Set<number>();
  let id = 0;
  for (;;) {
    const header = r.byte();
    if (header === 0) return ids;
    const delta = header >> 4;
    if (delta === 0) {
      const zigzag = r.varint();
      id = zigzag % 2 === 0 ? zigzag / 2 : -(zigzag + 1) / 2;
    } else id += delta;
    ids.add(id);
    skipValue(r, header & 0x0f, depth);
  }
}

/** What is wrong with a footer's bytes (`FileMetaData`, Thrift compact); null when it is whole. */
export function footerProblem(bytes: Uint8Array): string | null {
  const r = new Reader(bytes);
  try {
    const ids = skipStruct(r, 0);
    // FileMetaData: 1 version, 2 schema, 3 num_rows, 4 row_groups are required.
    const missing = [1, 2, 3, 4].filter((i) => !ids.has(i));
    if (missing.length > 0) return `lacks required fields (${missing.join(', ')})`;
    if (r.offset !== bytes.length) return `ends after ${r.offset} of its ${bytes.length} bytes`;
    return null;
  } catch (error) {
    if (error instanceof Malformed) return error.message;
    throw error;
  }
}
