import { describe, expect, it } from 'vitest';
import {
  ApiError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  InternalServerError,
  NotFoundError,
  OrgReportError,
  PermissionDeniedError,
  RateLimitError,
  UnprocessableEntityError,
  ValidationError,
} from './errors.ts';

const base = { operation: 'orgUsers.list', method: 'GET', url: 'http://api.test/api/v0/organization/users' };

describe('ApiError.from', () => {
  it('picks the subclass of each status class', () => {
    const cases: Array<[number, new (...a: never[]) => ApiError]> = [
      [400, BadRequestError],
      [401, AuthenticationError],
      [403, PermissionDeniedError],
      [404, NotFoundError],
      [409, ConflictError],
      [422, UnprocessableEntityError],
      [429, RateLimitError],
      [500, InternalServerError],
      [503, InternalServerError],
    ];
    for (const [status, cls] of cases) {
      const e = ApiError.from({ ...base, status });
      expect(e, String(status)).toBeInstanceOf(cls);
      expect(e).toBeInstanceOf(ApiError);
      expect(e).toBeInstanceOf(OrgReportError);
      expect(e.status).toBe(status);
    }
    const other = ApiError.from({ ...base, status: 418 });
    expect(other.constructor).toBe(ApiError);
  });

  it('sends a 404 of a list to the base URL, and one of a resource by id to the id', () => {
    const list = ApiError.from({ ...base, status: 404, title: 'File not found' });
    expect(list.message).toMatch(/Check the base URL: this list always exists/);
    expect(list.message).not.toContain('Check the id');
    const session = ApiError.from({
      ...base,
      operation: 'sessions.get',
      url: 'http://api.test/s/1',
      status: 404,
    });
    expect(session.message).toContain('Check the id: it does not exist or the key cannot see it.');
  });

  it('carries title, detail, request id, operation, method and url in fields and message', () => {
    const e = ApiError.from({
      ...base,
      status: 400,
      title: 'Bad Request',
      detail: 'limit too big',
      requestId: 'req_9',
    });
    expect(e).toMatchObject({
      title: 'Bad Request',
      detail: 'limit too big',
      requestId: 'req_9',
      method: 'GET',
    });
    expect(e.message).toContain('orgUsers.list failed');
    expect(e.message).toContain('400 Bad Request: limit too big');
    expect(e.message).toContain('request id req_9');
    expect(e.name).toBe('BadRequestError');
  });

  it('says what to do: check the key on 401, get the Manager or Owner role on analytics 403', () => {
    expect(ApiError.from({ ...base, status: 401 }).message).toMatch(/Check the API key/);
    const analytics403 = ApiError.from({ ...base, operation: 'analytics.users', status: 403 });
    expect(analytics403.message).toMatch(/Manager or Owner role/);
    expect(ApiError.from({ ...base, status: 403 }).message).not.toMatch(/Manager or Owner/);
    expect(ApiError.from({ ...base, status: 429, retryAfterMs: 120_000 }).message).toMatch(/wait 120 s/);
  });
});

describe('ValidationError', () => {
  it('names the parameter, the value and the rule', () => {
    const e = new ValidationError('limit', 101, 'expected an integer from 1 to 100');
    expect(e.message).toBe('limit 101 is invalid: expected an integer from 1 to 100');
    expect(e).toMatchObject({ parameter: 'limit', value: 101, rule: 'expected an integer from 1 to 100' });
    expect(e).toBeInstanceOf(OrgReportError);
  });
});
