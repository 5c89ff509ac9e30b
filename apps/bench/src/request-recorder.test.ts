import { describe, expect, it } from 'vitest';
import { descendantsRssKb } from './descendants-rss.ts';
import { RequestRecorder } from './request-recorder.ts';

describe('RequestRecorder', () => {
  it('counts requests in flight, overlapping operations and totals per path', () => {
    const r = new RequestRecorder();
    r.started('http://h/api/v1/analytics/users?cursor=a', 'users');
    r.started('http://h/api/v1/analytics/tokens', 'tokens');
    r.finished('users', 'http://h/api/v1/analytics/users?cursor=a', 100, 10);
    r.started('http://h/api/v1/analytics/users?cursor=b', 'users');
    r.finished('users', 'http://h/api/v1/analytics/users?cursor=b', 50, 5);
    r.finished('tokens', 'http://h/api/v1/analytics/tokens', 7, 1);
    expect(r.maxInFlight).toBe(2);
    expect(r.maxOverlappingOperations).toBe(2);
    expect(r.totalsByPath()).toEqual({
      '/api/v1/analytics/users': { responses: 2, bytes: 150, ms: 15 },
      '/api/v1/analytics/tokens': { responses: 1, bytes: 7, ms: 1 },
    });
    expect(r.requests.map((q) => q.operation)).toEqual(['users', 'tokens', 'users']);
  });
});

describe('descendantsRssKb', () => {
  it('sums the whole subtree and nothing else', () => {
    const table = new Map([
      [1, { ppid: 0, rssKb: 1000 }],
      [10, { ppid: 1, rssKb: 5 }],
      [11, { ppid: 10, rssKb: 7 }],
      [12, { ppid: 11, rssKb: 11 }],
      [20, { ppid: 1, rssKb: 100 }],
    ]);
    expect(descendantsRssKb(table, 10)).toBe(18);
    expect(descendantsRssKb(table, 1)).toBe(123);
    expect(descendantsRssKb(table, 12)).toBe(0);
  });
});
