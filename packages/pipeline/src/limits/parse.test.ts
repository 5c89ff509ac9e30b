import { describe, expect, it } from 'vitest';
import { parseLimitsCsv, parseLimitsJson, parseLimitsText } from './parse.ts';

describe('parseLimitsCsv', () => {
  it('reads email and limit columns in any order and case, numbering rows by line (header = 1)', () => {
    const parsed = parseLimitsCsv(
      'Limit,Name,EMAIL\n1000,Ann,ann@example.com\n2.5,Bob,bob@example.com\n',
      'l.csv',
    );
    expect(parsed.errors).toEqual([]);
    expect(parsed.rows).toEqual([
      { row: 2, email: 'ann@example.com', limit: 1000 },
      { row: 3, email: 'bob@example.com', limit: 2.5 },
    ]);
  });

  it('names each bad row, keeps the good ones and leaves the users whose limit is empty', () => {
    const csv = [
      'email,limit',
      'ok@example.com,10',
      'not-an-email,10',
      'x@example.com,',
      'y@example.com,-5',
      'z@example.com,1e3',
      'OK@example.com,20',
      ',7',
      'w@example.com,  ',
      ',',
      'typo@example,',
      'ok@example.com,',
    ].join('\n');
    const parsed = parseLimitsCsv(csv, 'l.csv');
    expect(parsed.rows).toEqual([{ row: 2, email: 'ok@example.com', limit: 10 }]);
    // An empty limit is no error: that user is left as they are (a row of an e-mail set above too).
    expect(parsed.left).toEqual([
      { row: 4, email: 'x@example.com' },
      { row: 9, email: 'w@example.com' },
      { row: 12, email: 'ok@example.com' },
    ]);
    expect(parsed.errors.map((e) => [e.row, e.message])).toEqual([
      [3, 'email "not-an-email" is not an e-mail address'],
      [5, 'limit "-5" is not a non-negative number'],
      [6, 'limit "1e3" is not a non-negative number'],
      [7, 'duplicate of row 2'],
      [8, 'email is empty'],
      // Row 10 has neither: no row. A mistyped e-mail is named even without a limit.
      [11, 'email "typo@example" is not an e-mail address'],
    ]);
  });

  it('refuses a file without the two columns, naming the file', () => {
    expect(() => parseLimitsCsv('mail,amount\na@b.co,1\n', 'f.csv')).toThrow(
      /f\.csv: the first line must name/,
    );
  });
});

describe('parseLimitsJson', () => {
  it('reads an array of {email, limit} and names bad entries by position', () => {
    const parsed = parseLimitsJson(
      '[{"email":"a@example.com","limit":5},{"email":"b@example.com","limit":"x"},3,{"email":"c@example.com","limit":null}]',
      'l.json',
    );
    expect(parsed.rows).toEqual([{ row: 1, email: 'a@example.com', limit: 5 }]);
    expect(parsed.left).toEqual([{ row: 4, email: 'c@example.com' }]);
    expect(parsed.errors.map((e) => e.row)).toEqual([2, 3]);
  });

  it('refuses something that is not an array', () => {
    expect(() => parseLimitsJson('{"users":[]}', 'l.json')).toThrow(/expected a JSON array/);
  });

  it('is chosen by extension or a leading bracket', () => {
    expect(parseLimitsText(' [{"email":"a@example.com","limit":1}]', 'limits.txt').rows).toHaveLength(1);
    expect(parseLimitsText('email,limit\na@example.com,1', 'limits.csv').rows).toHaveLength(1);
  });
});
