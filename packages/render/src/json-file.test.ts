import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeJsonFile } from './json-file.ts';

const scratch = mkdtempSync(join(tmpdir(), 'orgreport-json-file-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** What the file holds after writeJsonFile, and what JSON.stringify gives. */
async function both(value: unknown): Promise<[string, string]> {
  const file = join(scratch, `v${Math.random().toString(36).slice(2)}.json`);
  await writeJsonFile(file, value);
  return [readFileSync(file, 'utf8'), `${JSON.stringify(value, null, 2)}\n`];
}

describe('writeJsonFile', () => {
  it('writes the bytes of JSON.stringify(value, null, 2) for values it walks and values it does not', async () => {
    const row = (i: number) => ({
      id: `u${i}`,
      name: i % 3 === 0 ? 'Zoë "Z" Ünal\n<b>' : null,
      skip: undefined,
      fn: () => i,
      n: i % 7 === 0 ? Number.NaN : i / 3,
      tags: i % 2 === 0 ? [] : ['a', { deep: { deeper: [1, 2, { x: i }] } }],
      when: new Date(Date.UTC(2026, 9, 1 + (i % 28))),
      empty: {},
    });
    const long = Array.from({ length: 600 }, (_, i) => row(i));
    const value = {
      title: 'Acme · 2026-10',
      nothing: undefined,
      users: long,
      nested: { a: { b: { c: { d: long.slice(0, 300) } } }, holes: [1, undefined, () => 2, 3], e: {} },
      sparse: Array.from({ length: 300 }, (_, i) => (i % 5 === 0 ? undefined : i % 5 === 1 ? null : [i])),
      'key "quoted"\n': 1,
      toJson: { toJSON: () => ({ made: 'by toJSON' }) },
      empty: [],
    };
    const [written, expected] = await both(value);
    expect(written.length).toBeGreaterThan(100_000);
    expect(written).toBe(expected);
  });

  it('writes several megabytes of text in any script, and a piece larger than its buffer, byte for byte', async () => {
    // Rows of one- to four-byte characters cross the writer's megabyte buffers at every offset; the
    // long note (a member not walked, about 2 MB of UTF-8) is larger than a buffer on its own.
    const scripts = ['ascii', 'Zoë Ünal', 'Ελένη', '李小龍', 'emoji 🚀👩‍💻', 'mixed é李🚀'];
    const users = Array.from({ length: 20_000 }, (_, i) => ({
      id: `u${i}`,
      name: `${scripts[i % scripts.length]} ${i}`.repeat(1 + (i % 5)),
    }));
    const value = { users, note: { text: '李'.repeat(700_000) } };
    const [written, expected] = await both(value);
    expect(Buffer.byteLength(written)).toBeGreaterThan(4_000_000);
    expect(written).toBe(expected);
  });

  it('writes a value that is not an object as stringify does', async () => {
    for (const value of [null, 3, 'text', [1, 2], Array.from({ length: 1000 }, (_, i) => i)]) {
      const [written, expected] = await both(value);
      expect(written).toBe(expected);
    }
  });
});
