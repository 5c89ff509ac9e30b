import { describe, expect, it } from 'vitest';
import { parseKeys } from './emulator.ts';

describe('parseKeys', () => {
  it('reads role:key pairs, any subset', () => {
    expect(parseKeys('owner:K1,manager:K2,member:K3')).toEqual({ owner: 'K1', manager: 'K2', member: 'K3' });
    expect(parseKeys('manager:only')).toEqual({ manager: 'only' });
  });

  it('names a bad part without echoing a key', () => {
    expect(() => parseKeys('admin:secret-value')).toThrow(/--keys: .*got a part "admin:\.\.\."/);
    expect(() => parseKeys('owner')).toThrow(/got a part "owner"/);
    expect(() => parseKeys('owner:')).toThrow(/--keys/);
  });
});
