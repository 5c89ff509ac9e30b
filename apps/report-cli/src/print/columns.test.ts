import { describe, expect, it } from 'vitest';
import { alignColumns } from './columns.ts';

describe('alignColumns', () => {
  it('makes each column as wide as its widest cell, numbers aligned right, the header underlined', () => {
    const lines = alignColumns(
      [
        ['name', 'n'],
        ['a-very-long-address@example.com', '7'],
        ['b@x', '12'],
      ],
      { right: [false, true], header: true },
    );
    expect(lines).toEqual([
      'name                             n',
      '-------------------------------  --',
      'a-very-long-address@example.com   7',
      'b@x                              12',
    ]);
    expect(
      alignColumns([
        ['a', ''],
        ['bb', 'c'],
      ]),
    ).toEqual(['a', 'bb  c']);
  });
});
