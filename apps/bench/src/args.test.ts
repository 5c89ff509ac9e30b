import { describe, expect, it } from 'vitest';
import { DEFAULT_LATENCIES_MS, DEFAULT_USERS, parseBenchArgs } from './args.ts';

describe('parseBenchArgs', () => {
  it('runs every size at every latency by default', () => {
    const args = parseBenchArgs([]);
    expect(args.cases).toHaveLength(DEFAULT_USERS.length * DEFAULT_LATENCIES_MS.length);
    expect(args.cases[0]).toEqual({ users: 1000, latencyMs: 0 });
    expect(args.month).toBe('2026-10');
    expect(args.today).toBe('2026-11-22');
  });

  it('runs one case with --users and --latency (pnpm passes a lone --)', () => {
    expect(parseBenchArgs(['--', '--users', '10000', '--latency', '80']).cases).toEqual([
      { users: 10_000, latencyMs: 80 },
    ]);
  });

  it('accepts comma lists, repeats and a k suffix', () => {
    const { cases } = parseBenchArgs(['--users', '1k,2000', '--latency', '0', '--latency', '5']);
    expect(cases).toEqual([
      { users: 1000, latencyMs: 0 },
      { users: 2000, latencyMs: 0 },
      { users: 1000, latencyMs: 5 },
      { users: 2000, latencyMs: 5 },
    ]);
  });

  it('rejects bad values', () => {
    expect(() => parseBenchArgs(['--users', '0'])).toThrow(/--users/);
    expect(() => parseBenchArgs(['--latency', '-1'])).toThrow(/--latency/);
    expect(() => parseBenchArgs(['--month', '2026-1'])).toThrow(/--month/);
    expect(() => parseBenchArgs(['--skip', 'email'])).toThrow(/--skip/);
    expect(() => parseBenchArgs(['--bogus'])).toThrow();
  });

  it('reads skips and switches', () => {
    const args = parseBenchArgs(['--skip', 'pdf,xlsx', '--no-floor', '--profile']);
    expect(args.skip).toEqual(['pdf', 'xlsx']);
    expect(args.noFloor).toBe(true);
    expect(args.profile).toBe(true);
  });
});
