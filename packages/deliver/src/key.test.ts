/** Delivery keys and Message-IDs: stable across runs, blind to case and format order, sensitive to everything else. */
import { describe, expect, it } from 'vitest';
import { DestinationError, deliveryKey, messageIdOf, normalTarget } from './index.ts';

const parts = {
  month: '2026-10',
  recipient: 'CTO@Example.com',
  scope: 'org',
  formats: ['xlsx', 'pdf'],
  target: 'cto@example.com',
};

describe('deliveryKey', () => {
  it('is the first 32 hex characters of sha256 over the canonical array (pinned: a change would resend every delivery)', () => {
    // printf '%s' '["2026-10","cto@example.com","org",["pdf","xlsx"],"cto@example.com","report"]' | sha256sum
    expect(deliveryKey(parts)).toBe('9aec287204f7740a3ff54744a4dcff31');
  });

  it('ignores the case of the recipient and the order of the formats; kind defaults to report', () => {
    const key = deliveryKey(parts);
    expect(deliveryKey({ ...parts, recipient: 'cto@example.com' })).toBe(key);
    expect(deliveryKey({ ...parts, formats: ['pdf', 'xlsx'] })).toBe(key);
    expect(deliveryKey({ ...parts, kind: 'report' })).toBe(key);
  });

  it('changes with every other part', () => {
    const key = deliveryKey(parts);
    const variants = [
      { ...parts, month: '2026-11' },
      { ...parts, recipient: 'cfo@example.com' },
      { ...parts, scope: 'team:platform' },
      { ...parts, formats: ['pdf'] },
      { ...parts, target: 'dir:/srv/reports' },
      { ...parts, kind: 'alert' },
    ];
    const keys = new Set(variants.map(deliveryKey));
    expect(keys.size).toBe(variants.length);
    expect(keys.has(key)).toBe(false);
  });

  it('normalises an e-mail target itself: its case and mailto: make no other delivery', () => {
    const key = deliveryKey(parts);
    expect(deliveryKey({ ...parts, target: 'mailto:CTO@Example.com' })).toBe(key);
    expect(deliveryKey({ ...parts, target: 'CTO@example.COM' })).toBe(key);
    // Other targets are keyed as written.
    expect(deliveryKey({ ...parts, target: 'slack:#Eng' })).not.toBe(
      deliveryKey({ ...parts, target: 'slack:#eng' }),
    );
    expect(normalTarget('mailto:CTO@Example.com')).toBe('cto@example.com');
    expect(normalTarget('dir:/Srv/Reports')).toBe('dir:/Srv/Reports');
  });

  it('does not mistake one split of the parts for another (a JSON array, not a joined string)', () => {
    const a = deliveryKey({ ...parts, scope: 'a,b', formats: ['pdf'] });
    const b = deliveryKey({ ...parts, scope: 'a', formats: ['b', 'pdf'] });
    expect(a).not.toBe(b);
  });

  it('refuses parts of the wrong type', () => {
    expect(() => deliveryKey({ ...parts, formats: 'pdf' as unknown as string[] })).toThrow(DestinationError);
  });
});

describe('messageIdOf', () => {
  it('is <orgreport.KEY@host>', () => {
    expect(messageIdOf('9aec287204f7740a3ff54744a4dcff31', 'example.com')).toBe(
      '<orgreport.9aec287204f7740a3ff54744a4dcff31@example.com>',
    );
  });

  it('refuses a host or a key that would break the header', () => {
    expect(() => messageIdOf('abc', 'exa mple.com')).toThrow(DestinationError);
    expect(() => messageIdOf('abc', 'example.com>')).toThrow(DestinationError);
    expect(() => messageIdOf('a@b', 'example.com')).toThrow(DestinationError);
  });
});
