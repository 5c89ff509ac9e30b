import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { SfntFormatError, sfntToWoff } from './woff.ts';

/** An sfnt of the given tables (tag -> bytes), laid out one after another as a font file is. */
function sfnt(tables: Array<[string, Buffer]>, checksums: number[]): Buffer {
  const header = Buffer.alloc(12 + tables.length * 16);
  header.writeUInt32BE(0x00010000, 0);
  header.writeUInt16BE(tables.length, 4);
  let offset = header.length;
  const data: Buffer[] = [];
  tables.forEach(([tag, bytes], i) => {
    header.write(tag, 12 + i * 16, 'latin1');
    header.writeUInt32BE(checksums[i]!, 12 + i * 16 + 4);
    header.writeUInt32BE(offset, 12 + i * 16 + 8);
    header.writeUInt32BE(bytes.length, 12 + i * 16 + 12);
    const padded = Buffer.alloc((bytes.length + 3) & ~3);
    bytes.copy(padded);
    data.push(padded);
    offset += padded.length;
  });
  return Buffer.concat([header, ...data]);
}

/** The WOFF's table directory as read back: tag, offset, stored length, length, checksum. */
function directory(woff: Buffer) {
  return Array.from({ length: woff.readUInt16BE(12) }, (_, i) => {
    const at = 44 + i * 20;
    return {
      tag: woff.toString('latin1', at, at + 4),
      offset: woff.readUInt32BE(at + 4),
      stored: woff.readUInt32BE(at + 8),
      length: woff.readUInt32BE(at + 12),
      checksum: woff.readUInt32BE(at + 16),
    };
  });
}

describe('sfntToWoff', () => {
  const zeros = Buffer.alloc(1000); // shrinks under zlib
  const tiny = Buffer.from('abcde'); // grows under zlib: stored as it is
  const font = sfnt(
    [
      ['cmap', zeros],
      ['head', tiny],
    ],
    [0x11111111, 0x22222222],
  );
  const woff = sfntToWoff(font);

  it('writes the WOFF header: signature, flavor, length, tables and the sfnt size it decodes to', () => {
    expect(woff.toString('latin1', 0, 4)).toBe('wOFF');
    expect(woff.readUInt32BE(4)).toBe(0x00010000);
    expect(woff.readUInt32BE(8)).toBe(woff.length);
    expect(woff.readUInt16BE(12)).toBe(2);
    // 12 + 2 * 16 of headers, 1000 and 5 -> 8 bytes of tables.
    expect(woff.readUInt32BE(16)).toBe(1052);
    expect(woff.subarray(20, 44).every((b) => b === 0)).toBe(true);
  });

  it('compresses a table that shrinks, stores one that does not, each at a 4-byte boundary', () => {
    const [cmap, head] = directory(woff);
    expect(cmap).toMatchObject({ tag: 'cmap', offset: 84, length: 1000, checksum: 0x11111111 });
    expect(cmap!.stored).toBeLessThan(1000);
    expect(inflateSync(woff.subarray(cmap!.offset, cmap!.offset + cmap!.stored))).toEqual(zeros);
    expect(head).toMatchObject({ tag: 'head', stored: 5, length: 5, checksum: 0x22222222 });
    expect(head!.offset).toBe(84 + ((cmap!.stored + 3) & ~3));
    expect(woff.subarray(head!.offset, head!.offset + 5)).toEqual(tiny);
    expect(woff.length).toBe(head!.offset + 8);
  });

  it('refuses bytes too short for their table directory or tables', () => {
    expect(() => sfntToWoff(font.subarray(0, 20))).toThrow(SfntFormatError);
    expect(() => sfntToWoff(font.subarray(0, 60))).toThrow(SfntFormatError);
  });
});
