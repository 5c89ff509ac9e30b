import { describe, expect, it } from 'vitest';
import { dropJsonMembers } from './json-member-filter.ts';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Runs `text` through the filter cut into chunks at `cuts` (byte offsets); returns the kept text. */
function filtered(text: string, cuts: number[] = []): string {
  const bytes = encoder.encode(text);
  const filter = dropJsonMembers('by_user');
  let from = 0;
  for (const cut of [...cuts, bytes.length]) {
    filter.push(bytes.subarray(from, cut));
    from = cut;
  }
  return decoder.decode(filter.end());
}

/** The filtered text at every single split point and as one byte per chunk must equal the unsplit one. */
function expectSameAtEverySplit(text: string): string {
  const whole = filtered(text);
  const length = encoder.encode(text).length;
  for (let cut = 0; cut <= length; cut++) expect(filtered(text, [cut])).toBe(whole);
  const everyByte = Array.from({ length }, (_, i) => i);
  expect(filtered(text, everyByte)).toBe(whole);
  return whole;
}

describe('dropJsonMembers("by_user")', () => {
  it('drops the member in the middle, first and last position of each day, with one comma', () => {
    const body =
      '{"data":[{"date":"2026-10-01","by_user":[{"user_id":"u1"}],"billable_tokens":3},' +
      '{"by_user":[],"date":"2026-10-02"},{"date":"2026-10-03","by_user":[{"a":[1,{"b":2}]}]}],' +
      '"meta":{"org_id":"o"}}';
    const kept = expectSameAtEverySplit(body);
    expect(JSON.parse(kept)).toEqual({
      data: [{ date: '2026-10-01', billable_tokens: 3 }, { date: '2026-10-02' }, { date: '2026-10-03' }],
      meta: { org_id: 'o' },
    });
  });

  it('copies a body without by_user unchanged, byte for byte', () => {
    const body = '{"data":[{"date":"2026-10-01","by_model":[{"model_id":"m"}]}],"meta":{}}';
    expect(expectSameAtEverySplit(body)).toBe(body);
  });

  it('keeps strings that contain the key, quotes, brackets and escapes, and does not match key look-alikes', () => {
    const body =
      '{"data":[{"note":"\\"by_user\\": [ { } ] \\\\","by_user_count":2,"x":"by_user",' +
      '"by_user":[{"user_email":"a\\"],}b\\\\","z":"\\u005d"}],"by_users":1}]}';
    const kept = expectSameAtEverySplit(body);
    expect(JSON.parse(kept)).toEqual({
      data: [{ note: '"by_user": [ { } ] \\', by_user_count: 2, x: 'by_user', by_users: 1 }],
    });
  });

  it('handles whitespace and newlines around keys, colons, values and commas', () => {
    const body =
      '{ "data" : [\n  { "by_user" :\n [ 1 , 2 ] ,\n "date" : "2026-10-01" } ,\n' +
      '  { "date" : "2026-10-02" ,\t"by_user"  :  [ ]  }\n ] }\n';
    const kept = expectSameAtEverySplit(body);
    expect(JSON.parse(kept)).toEqual({ data: [{ date: '2026-10-01' }, { date: '2026-10-02' }] });
  });

  it('drops scalar, string, object and null values, and a day whose only member is by_user', () => {
    const body =
      '[{"by_user":12.5e3},{"by_user":"s,}]","a":1},{"a":1,"by_user":null},{"by_user":{"k":[true]}},' +
      '{"by_user":false , "b":2}]';
    const kept = expectSameAtEverySplit(body);
    expect(JSON.parse(kept)).toEqual([{}, { a: 1 }, { a: 1 }, {}, { b: 2 }]);
  });

  it('keeps multi-byte UTF-8 intact when chunks split a character', () => {
    const body = '{"data":[{"name":"Zoë 🚀","by_user":[{"user_email":"é@x"}],"city":"Kraków"}]}';
    expect(JSON.parse(expectSameAtEverySplit(body))).toEqual({ data: [{ name: 'Zoë 🚀', city: 'Kraków' }] });
  });

  it('leaves a cut or malformed body unparseable', () => {
    const cutInsideByUser = '{"data":[{"date":"2026-10-01","by_user":[{"user_id":"u1"}';
    expect(() => JSON.parse(filtered(cutInsideByUser))).toThrow();
    const cutInString = '{"data":[{"date":"2026-10';
    expect(() => JSON.parse(filtered(cutInString))).toThrow();
    // Taking back `,"by_user":` would otherwise turn these into valid JSON.
    expect(() => JSON.parse(filtered('{"a":1,"by_user":}'))).toThrow();
    expect(() => JSON.parse(filtered('{"a":1,"by_user"}'))).toThrow();
    expect(() => JSON.parse(filtered('{"a":1,"by_user":,"b":2}'))).toThrow();
  });

  it('scans a large by_user in big chunks to the same result as JSON.parse and delete', () => {
    const users = Array.from({ length: 2000 }, (_, i) => ({
      user_id: `u${i}`,
      user_email: i % 7 === 0 ? null : `user"${i}\\@example.com`,
      billable_tokens: i * 3,
      by_model: [{ model_id: 'm', billable_tokens: i }],
    }));
    const days = Array.from({ length: 5 }, (_, d) => ({
      date: `2026-10-0${d + 1}`,
      billable_tokens: d,
      by_user: users,
      by_model: [],
    }));
    const body = JSON.stringify({ data: days, meta: { org_id: 'o' } }, null, 2);
    const cuts = Array.from({ length: 40 }, (_, i) => Math.floor((i * encoder.encode(body).length) / 40));
    const expected = JSON.parse(body);
    for (const day of expected.data) delete day.by_user;
    expect(JSON.parse(filtered(body, cuts))).toEqual(expected);
  });
});
