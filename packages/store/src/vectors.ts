/**
 * Numbers read off DuckDB's result vectors in bulk. `DuckDBVector.getItem` tests each item's
 * validity bit with BigInt arithmetic, some 40 ns an item: on a month of 10k users' user-day rows
 * (22 columns of 200k rows) that is most of the read. The vectors of DOUBLE and INTEGER columns
 * hold a typed array and a validity bitmap (64-bit words, bit set: not null); this reads them
 * directly, and falls back to `getItem` for any vector not of that shape.
 */
import { endianness } from 'node:os';
import type { DuckDBVector } from '@duckdb/node-api';

/** What @duckdb/node-api keeps in a numeric vector (its fields are private to TypeScript, not at run time). */
interface NumericVectorFields {
  items?: unknown;
  validity?: { data?: unknown; offset?: unknown };
}

/** The validity words are read as 32-bit halves, low half first: only on a little-endian machine. */
const LITTLE_ENDIAN = endianness() === 'LE';

/** The typed array of a vector's values and its validity bits (null: no null item), or null when the vector is not of the expected shape. */
function numericFields(
  vector: DuckDBVector,
): { items: Float64Array | Int32Array; valid: Uint32Array | null } | null {
  if (!LITTLE_ENDIAN) return null;
  const { items, validity } = vector as unknown as NumericVectorFields;
  if (!(items instanceof Float64Array || items instanceof Int32Array)) return null;
  if (validity?.offset !== 0) return null;
  if (validity.data === null) return { items, valid: null };
  if (!(validity.data instanceof BigUint64Array) || validity.data.length * 64 < items.length) return null;
  const words = validity.data;
  return { items, valid: new Uint32Array(words.buffer, words.byteOffset, words.length * 2) };
}

/**
 * Copies the `rows` items of `vector` into `out` from `offset` on: numbers, null for a null item.
 *
 * @example
 * copyItems(chunk.getColumnVector(0), values, 0, chunk.rowCount)
 */
export function copyItems(vector: DuckDBVector, out: unknown[], offset: number, rows: number): void {
  const fields = numericFields(vector);
  if (!fields) {
    for (let r = 0; r < rows; r++) out[offset + r] = vector.getItem(r);
    return;
  }
  const { items, valid } = fields;
  if (valid === null) {
    for (let r = 0; r < rows; r++) out[offset + r] = items[r];
    return;
  }
  for (let r = 0; r < rows; r++) {
    out[offset + r] = ((valid[r >>> 5]! >>> (r & 31)) & 1) === 1 ? items[r] : null;
  }
}

/** True when the first `rows` validity bits are all set (no null item). */
function allValid(valid: Uint32Array, rows: number): boolean {
  const words = rows >>> 5;
  for (let w = 0; w < words; w++) if (valid[w] !== 0xffffffff) return false;
  const rest = rows & 31;
  return rest === 0 || (valid[words]! & ((1 << rest) - 1)) >>> 0 === ((1 << rest) - 1) >>> 0;
}

/**
 * One result column read chunk by chunk into `rows` slots. Numbers go into a typed array of the
 * vectors' kind (a copy of each chunk's memory, and 8 or 4 bytes a value where a JS array of
 * doubles with a null among them boxes every one); from the first null item, or a vector of
 * another shape, on, the column is a JS array (null for a null item) as {@link copyItems} fills it.
 */
export class ColumnReader {
  private typed: Float64Array | Int32Array | null = null;
  private plain: unknown[] | null = null;
  private at = 0;

  constructor(private readonly rows: number) {}

  append(vector: DuckDBVector, count: number): void {
    if (this.plain === null) {
      const fields = numericFields(vector);
      if (fields && (fields.valid === null || allValid(fields.valid, count))) {
        const { items } = fields;
        this.typed ??=
          items instanceof Float64Array ? new Float64Array(this.rows) : new Int32Array(this.rows);
        if (items.constructor === this.typed.constructor) {
          this.typed.set(items.subarray(0, count), this.at);
          this.at += count;
          return;
        }
      }
      this.plain = new Array(this.rows);
      for (let i = 0; i < this.at; i++) this.plain[i] = this.typed![i];
      this.typed = null;
    }
    copyItems(vector, this.plain, this.at, count);
    this.at += count;
  }

  /** The column's values (a typed array while no item was null). */
  values(): Float64Array | Int32Array | unknown[] {
    return this.plain ?? this.typed ?? new Array(this.rows);
  }
}
