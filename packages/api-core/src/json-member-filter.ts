/**
 * A byte-level filter that drops every object member with a given key from a JSON text while it
 * streams in, so a huge member (such as `/tokens`' `by_user`) never becomes one string or one
 * parsed value. It tracks strings, escapes and nesting only; it does not validate: whatever it
 * copies is checked by `JSON.parse` afterwards, so a malformed or cut body stays malformed.
 */

/** Receives a body chunk by chunk and returns the bytes kept. */
export interface BodyFilter {
  /** Scans one chunk (chunks may split tokens, strings and escapes anywhere). */
  push(chunk: Uint8Array): void;
  /** The kept bytes once the body has ended. */
  end(): Uint8Array;
  /** Bytes kept so far (what the caller will hold), for its size limit. */
  readonly kept: number;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;

/** Where the filter is while it drops a member. */
enum Skip {
  /** Copying. */
  None,
  /** After the dropped key, before its colon. */
  Colon,
  /** Before the dropped value. */
  ValueStart,
  /** Inside a dropped container, string or scalar. */
  Value,
  /** After the dropped value of an object's first member: the comma after it goes too. */
  TrailingComma,
}

/**
 * A {@link BodyFilter} that removes every member named `key` (compared as raw bytes of the key as
 * sent, without unescaping) from every object at any depth, with the comma that separated it.
 *
 * @example
 * const filter = dropJsonMembers('by_user');
 * for (const chunk of chunks) filter.push(chunk);
 * JSON.parse(new TextDecoder().decode(filter.end()));
 */
export function dropJsonMembers(key: string): BodyFilter {
  return new MemberDropper(new TextEncoder().encode(JSON.stringify(key)));
}

class MemberDropper implements BodyFilter {
  readonly #quotedKey: Uint8Array;
  #out = new Uint8Array(1 << 16);
  #length = 0;
  /** One entry per open container: true for an object. */
  readonly #objects: boolean[] = [];
  #inString = false;
  #escaped = false;
  /** The next string of the current object is a key. */
  #expectKey = false;
  #inKey = false;
  #keyStart = 0;
  /** Output offset of the comma before the current member, or -1 for an object's first member. */
  #commaAt = -1;
  #skip = Skip.None;
  /** Open containers inside the dropped value. */
  #skipDepth = 0;
  #skipInString = false;
  #skipEscaped = false;
  #skipScalar = false;
  #dropTrailingComma = false;
  /** Set when the body cannot be JSON; {@link end} then returns no bytes, which never parse. */
  #malformed = false;

  constructor(quotedKey: Uint8Array) {
    this.#quotedKey = quotedKey;
  }

  get kept(): number {
    return this.#length;
  }

  push(chunk: Uint8Array): void {
    let runStart = 0;
    let i = 0;
    const n = chunk.length;
    while (i < n) {
      if (this.#skip !== Skip.None) {
        i = this.#skipFrom(chunk, i);
        runStart = i;
        continue;
      }
      const byte = chunk[i] as number;
      if (this.#inString) {
        if (this.#escaped) this.#escaped = false;
        else if (byte === BACKSLASH) this.#escaped = true;
        else if (byte === QUOTE) {
          this.#inString = false;
          if (this.#inKey) {
            this.#inKey = false;
            this.#append(chunk, runStart, i + 1);
            runStart = i + 1;
            if (this.#isDroppedKey()) this.#startDrop();
          }
        }
        i++;
        continue;
      }
      const objects = this.#objects;
      switch (byte) {
        case QUOTE:
          this.#inString = true;
          if (this.#expectKey) {
            this.#expectKey = false;
            this.#inKey = true;
            this.#keyStart = this.#length + (i - runStart);
          }
          break;
        case OPEN_OBJECT:
          objects.push(true);
          this.#expectKey = true;
          this.#commaAt = -1;
          break;
        case OPEN_ARRAY:
          objects.push(false);
          this.#expectKey = false;
          break;
        case CLOSE_OBJECT:
        case CLOSE_ARRAY:
          objects.pop();
          this.#expectKey = false;
          break;
        case COMMA:
          if (objects[objects.length - 1] === true) {
            this.#expectKey = true;
            this.#commaAt = this.#length + (i - runStart);
          }
          break;
      }
      i++;
    }
    if (this.#skip === Skip.None) this.#append(chunk, runStart, n);
  }

  end(): Uint8Array {
    // A body cut inside a dropped value or a string must not parse as the part before it.
    const cut = this.#inString || (this.#skip !== Skip.None && this.#skip !== Skip.TrailingComma);
    if (this.#malformed || cut) return new Uint8Array(0);
    return this.#out.subarray(0, this.#length);
  }

  #isDroppedKey(): boolean {
    const key = this.#quotedKey;
    if (this.#length - this.#keyStart !== key.length) return false;
    const out = this.#out;
    for (let j = 0; j < key.length; j++) if (out[this.#keyStart + j] !== key[j]) return false;
    return true;
  }

  /** Takes back the key (and the comma before it, else the one after the value goes). */
  #startDrop(): void {
    if (this.#commaAt >= 0) {
      this.#length = this.#commaAt;
      this.#dropTrailingComma = false;
    } else {
      this.#length = this.#keyStart;
      this.#dropTrailingComma = true;
    }
    this.#skip = Skip.Colon;
  }

  /** Advances through dropped bytes from `i`; returns the index of the first byte to copy again. */
  #skipFrom(chunk: Uint8Array, start: number): number {
    const n = chunk.length;
    let i = start;
    while (i < n) {
      const byte = chunk[i] as number;
      switch (this.#skip) {
        case Skip.Colon:
          if (byte === COLON) this.#skip = Skip.ValueStart;
          else if (!isWhitespace(byte)) return this.#resume(i); // malformed: let JSON.parse see it
          i++;
          break;
        case Skip.ValueStart:
          if (isWhitespace(byte)) {
            i++;
            break;
          }
          this.#skip = Skip.Value;
          this.#skipDepth = 0;
          this.#skipInString = false;
          this.#skipEscaped = false;
          this.#skipScalar = false;
          if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) this.#skipDepth = 1;
          else if (byte === QUOTE) this.#skipInString = true;
          else if (byte === COMMA || byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) {
            return this.#resume(i); // no value at all: malformed, copy on so JSON.parse fails
          } else this.#skipScalar = true;
          i++;
          break;
        case Skip.Value:
          if (this.#skipScalar) {
            // A number, true, false or null ends at the first delimiter, which is not part of it.
            if (byte === COMMA || byte === CLOSE_OBJECT || byte === CLOSE_ARRAY || isWhitespace(byte)) {
              if (!this.#valueDone()) return i;
              break;
            }
            i++;
            break;
          }
          i = this.#skipContainerOrString(chunk, i);
          break;
        case Skip.TrailingComma:
          if (isWhitespace(byte)) {
            i++;
            break;
          }
          this.#skip = Skip.None;
          // Back in the object: a comma there is the separator of the dropped first member.
          if (byte === COMMA) {
            this.#expectKey = true;
            this.#commaAt = -1;
            return i + 1;
          }
          return i;
        default:
          return i;
      }
    }
    return i;
  }

  /** The hot loop over a dropped string or container; returns where it stopped. */
  #skipContainerOrString(chunk: Uint8Array, start: number): number {
    const n = chunk.length;
    let i = start;
    let depth = this.#skipDepth;
    let inString = this.#skipInString;
    let escaped = this.#skipEscaped;
    for (; i < n; i++) {
      const byte = chunk[i] as number;
      if (inString) {
        if (escaped) escaped = false;
        else if (byte === BACKSLASH) escaped = true;
        else if (byte === QUOTE) {
          inString = false;
          if (depth === 0) {
            i++;
            break;
          }
        }
      } else if (byte === QUOTE) inString = true;
      else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) depth++;
      else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) {
        depth--;
        if (depth === 0) {
          i++;
          break;
        }
      }
    }
    this.#skipDepth = depth;
    this.#skipInString = inString;
    this.#skipEscaped = escaped;
    if (depth === 0 && !inString) this.#valueDone();
    return i;
  }

  /** Ends the dropped value; returns true when a trailing comma is still to be dropped. */
  #valueDone(): boolean {
    this.#expectKey = false;
    this.#skip = this.#dropTrailingComma ? Skip.TrailingComma : Skip.None;
    return this.#dropTrailingComma;
  }

  /** Stops at a malformed spot: taking back the key could have made the text valid, so it is flagged. */
  #resume(i: number): number {
    this.#skip = Skip.None;
    this.#malformed = true;
    return i;
  }

  #append(chunk: Uint8Array, from: number, to: number): void {
    const size = to - from;
    if (size <= 0) return;
    if (this.#length + size > this.#out.length) {
      let capacity = this.#out.length * 2;
      while (capacity < this.#length + size) capacity *= 2;
      const grown = new Uint8Array(capacity);
      grown.set(this.#out.subarray(0, this.#length));
      this.#out = grown;
    }
    this.#out.set(chunk.subarray(from, to), this.#length);
    this.#length += size;
  }
}

function isWhitespace(byte: number): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
}
