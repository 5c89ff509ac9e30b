import { describe, expect, it } from 'vitest';
import { userDay } from '../__fixtures__/samples.ts';
import { envelope, stubClient } from '../__fixtures__/stub-fetch.ts';
import { ResponseValidationError } from '../errors.ts';
import { analyticsResponseSchema, userDaySchema } from '../schemas.ts';
import { isPlainUsersPage } from './user-day-check.ts';

const range = { startDate: '2026-10-01', endDate: '2026-10-31' };
const COUNTS = {
  files_created: 1,
  files_edited: 2,
  git_commits: 0,
  git_prs_created: 0,
  mcp_calls: 0,
  skill_calls: 0,
  slash_commands: 0,
  hooks: 0,
  sessions: 1,
  messages: 4,
  user_messages: 2,
  assistant_messages: 2,
};
/** A row with every defaulted field present, as the API sends it. */
const fullRow = (id: string, date = '2026-10-01') => ({
  ...userDay(id, date),
  ...COUNTS,
  autonomy_ratio: 0.5,
});
const schema = analyticsResponseSchema(userDaySchema);

describe('isPlainUsersPage', () => {
  it('accepts a full page, exactly when zod returns it unchanged', () => {
    const page = envelope([fullRow('u1'), { ...fullRow('u2', '2026-10-02'), user_email: null, extra: 1 }], {
      has_more: true,
      next_cursor: 'c',
    });
    expect(isPlainUsersPage(page)).toBe(true);
    expect(schema.parse(page)).toEqual(page);
  });

  it('rejects pages zod would change or refuse', () => {
    const variants: Array<[string, unknown]> = [
      ['a defaulted counter missing', envelope([userDay('u1')])],
      ['a counter as a string', envelope([{ ...fullRow('u1'), sessions: '1' }])],
      ['a bad date', envelope([fullRow('u1'), fullRow('u2', '2026-1-02')])],
      ['a language that is not a string', envelope([{ ...fullRow('u1'), languages: [1] }])],
      ['user_email missing', envelope([{ ...fullRow('u1'), user_email: undefined }])],
      ['delegation_level a number', envelope([{ ...fullRow('u1'), delegation_level: 3 }])],
      ['a cursor that is a number', envelope([fullRow('u1')], { next_cursor: 5 })],
      ['no meta', { data: [fullRow('u1')] }],
      ['a row that is an array', envelope([[]])],
    ];
    for (const [what, page] of variants) {
      expect(isPlainUsersPage(JSON.parse(JSON.stringify(page))), what).toBe(false);
      if (what !== 'a defaulted counter missing') {
        expect(schema.safeParse(JSON.parse(JSON.stringify(page))).success, what).toBe(false);
      }
    }
  });

  it('leaves defaults and error paths to zod through the client', async () => {
    const { client } = stubClient([
      { body: envelope([fullRow('u1'), userDay('u2')], { has_more: false }) },
      { body: envelope([fullRow('u1'), { ...fullRow('u2'), tool_calls: 'x' }], { has_more: false }) },
    ]);
    const rows = await client.analytics.users(range).toArray();
    expect(rows[1]).toMatchObject({ user_id: 'u2', sessions: 0, hooks: 0 });
    const err = await client.analytics
      .users(range)
      .toArray()
      .catch((e) => e);
    expect(err).toBeInstanceOf(ResponseValidationError);
    expect(err.message).toContain('data[1].tool_calls');
  });
});
