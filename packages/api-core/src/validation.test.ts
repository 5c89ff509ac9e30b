import { describe, expect, it } from 'vitest';
import { stubClient } from './__fixtures__/stub-fetch.ts';
import { ValidationError } from './errors.ts';

// The stub client's clock says 2026-11-22 08:00 UTC, so the last valid endDate is 2026-11-21.
const { client, calls } = stubClient([{ status: 500 }]);

function rejects(call: () => unknown, parameter: string, value: unknown, rule: RegExp) {
  let error: unknown;
  try {
    call();
  } catch (e) {
    error = e;
  }
  expect(error, `${parameter} should be rejected`).toBeInstanceOf(ValidationError);
  const v = error as ValidationError;
  expect(v.parameter).toBe(parameter);
  expect(v.value).toEqual(value);
  expect(v.rule).toMatch(rule);
  expect(v.message).toContain(parameter);
}

/** Calls something that must pass validation; the request itself is ignored. */
function accepts(call: () => Promise<unknown> | PromiseLike<unknown>) {
  expect(() => {
    const p = call();
    if (p instanceof Promise) p.catch(() => undefined);
  }).not.toThrow();
}

describe('validation before sending', () => {
  it('dates must be real YYYY-MM-DD days', () => {
    rejects(
      () => client.analytics.tokens({ startDate: '2026-02-30', endDate: '2026-03-01' }),
      'startDate',
      '2026-02-30',
      /real calendar day/,
    );
    rejects(
      () => client.analytics.tools({ startDate: '2026-10-01', endDate: '2026-10-1' }),
      'endDate',
      '2026-10-1',
      /YYYY-MM-DD/,
    );
    rejects(
      () => client.analytics.users({ startDate: '01/10/2026', endDate: '2026-10-02' }),
      'startDate',
      '01/10/2026',
      /YYYY-MM-DD/,
    );
  });

  it('startDate <= endDate, startDate >= 2026-01-14 and endDate before today (UTC, injected clock)', () => {
    rejects(
      () => client.analytics.activity({ startDate: '2026-10-05', endDate: '2026-10-04' }),
      'startDate',
      '2026-10-05',
      /after endDate/,
    );
    rejects(
      () => client.analytics.productivity({ startDate: '2026-01-13', endDate: '2026-01-20' }),
      'startDate',
      '2026-01-13',
      /2026-01-14/,
    );
    rejects(
      () => client.analytics.tokens({ startDate: '2026-11-01', endDate: '2026-11-22' }),
      'endDate',
      '2026-11-22',
      /before today.*2026-11-22/,
    );
    accepts(() =>
      client.analytics.tokens({ startDate: '2026-01-14', endDate: '2026-11-21' }, { maxRetries: 0 }),
    );
  });

  it('without a clock the "before today" rule is left to the server', () => {
    const noClock = stubClient([{ status: 400 }], { now: undefined });
    accepts(() => noClock.client.analytics.tokens({ startDate: '2026-11-01', endDate: '2099-01-01' }));
  });

  it('limits stay in range: 1..100 for /users, org users and history; positive integer for readiness', () => {
    const range = { startDate: '2026-10-01', endDate: '2026-10-31' };
    rejects(() => client.analytics.users({ ...range, limit: 0 }), 'limit', 0, /1 to 100/);
    rejects(() => client.analytics.users({ ...range, limit: 101 }), 'limit', 101, /1 to 100/);
    rejects(() => client.orgUsers.list({ limit: 101 }), 'limit', 101, /1 to 100/);
    rejects(() => client.orgUsers.list({ limit: 2.5 }), 'limit', 2.5, /integer/);
    rejects(() => client.controls.history({ limit: 0 }), 'limit', 0, /1 to 100/);
    rejects(() => client.readiness.list({ limit: 0 }), 'limit', 0, />= 1/);
    rejects(() => client.readiness.list({ limit: -3 }), 'limit', -3, />= 1/);
    rejects(() => client.readiness.list({ maxItems: -1 }), 'maxItems', -1, />= 0/);
    expect(() => client.readiness.list({ limit: 5000 })).not.toThrow();
    expect(() => client.orgUsers.list({ limit: 100 })).not.toThrow();
  });

  it('group_by takes only the value the endpoint allows', () => {
    const range = { startDate: '2026-10-01', endDate: '2026-10-31' };
    rejects(
      () => client.analytics.tokens({ ...range, groupBy: 'client' } as never),
      'groupBy',
      'client',
      /"model"/,
    );
    rejects(
      () => client.analytics.tools({ ...range, groupBy: 'model' } as never),
      'groupBy',
      'model',
      /"tool_name"/,
    );
    rejects(
      () => client.analytics.activity({ ...range, groupBy: 'tool_name' } as never),
      'groupBy',
      'tool_name',
      /"client"/,
    );
    rejects(
      () => client.analytics.productivity({ ...range, groupBy: 'model' } as never),
      'groupBy',
      'model',
      /cannot be grouped/,
    );
    rejects(
      () => client.analytics.users({ ...range, groupBy: 'model' } as never),
      'groupBy',
      'model',
      /cannot be grouped/,
    );
  });

  it('cwd is 1..4096 characters, ids are non-empty, request settings exclude response-only fields', () => {
    rejects(() => client.sessions.create({ computerId: 'c', cwd: '' }), 'cwd', '', /1 to 4096/);
    const long = 'x'.repeat(4097);
    rejects(() => client.sessions.create({ computerId: 'c', cwd: long }), 'cwd', long, /1 to 4096/);
    accepts(() => client.sessions.create({ computerId: 'c', cwd: 'x'.repeat(4096) }));
    rejects(() => client.sessions.create({ computerId: '' }), 'computerId', '', /non-empty/);
    rejects(() => client.sessions.get(''), 'sessionId', '', /non-empty/);
    rejects(() => client.sessions.messages.get('s', ''), 'messageId', '', /non-empty/);
    const usage = { inputTokens: 1 };
    rejects(
      () => client.sessions.update('s', { sessionSettings: { tokenUsage: usage } as never }),
      'sessionSettings',
      { tokenUsage: usage },
      /unrecognized key/i,
    );
    rejects(
      () => client.sessions.create({ computerId: 'c', sessionSettings: { runInWorktree: 'yes' } as never }),
      'sessionSettings.runInWorktree',
      'yes',
      /boolean/,
    );
  });

  it('sends nothing when validation fails', () => {
    // Only the calls that passed validation above reached fetch.
    expect(calls.map((c) => `${c.method} ${c.url.pathname}`)).toEqual([
      'GET /api/v1/analytics/tokens',
      'POST /api/v0/sessions',
    ]);
  });
});
