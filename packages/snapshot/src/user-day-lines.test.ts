import { USER_DAY_COLUMNS, type UserDay, userDayColumnsFromRows } from '@orgreport/api-core';
import { describe, expect, it } from 'vitest';
import { userDayLines } from './user-day-lines.ts';

const base: UserDay = {
  user_id: 'u1',
  user_email: 'u1@example.com',
  date: '2026-10-01',
  tool_calls: 12,
  billable_tokens: 9_007_199_254_740_991,
  primary_model: 'model-a',
  primary_model_tier: 'standard',
  files_created: 0,
  files_edited: 10,
  git_commits: 1,
  git_prs_created: 0,
  mcp_calls: 100,
  skill_calls: 0,
  slash_commands: 0,
  hooks: 0,
  sessions: 3,
  messages: 7,
  user_messages: 3,
  assistant_messages: 4,
  autonomy_ratio: 4 / 3,
  delegation_level: 'auto-high',
  languages: ['TypeScript'],
};

/** What the lines must be: each row's object, keys in column order, through JSON.stringify. */
function reference(rows: UserDay[]): string {
  return rows
    .map((row) => `${JSON.stringify(Object.fromEntries(USER_DAY_COLUMNS.map((c) => [c, row[c] ?? null])))}\n`)
    .join('');
}

describe('userDayLines', () => {
  it('writes each row as JSON.stringify would, for awkward numbers and strings', () => {
    const rows: UserDay[] = [
      base,
      {
        ...base,
        user_id: 'u"2\\',
        user_email: null,
        tool_calls: -5,
        billable_tokens: 1e21,
        files_edited: 0.1 + 0.2,
        git_commits: Number.NaN,
        mcp_calls: Number.POSITIVE_INFINITY,
        sessions: -0,
        autonomy_ratio: null,
        primary_model: 'Zoë 🚀 \u2028 \n tab\t',
        languages: [],
      },
      { ...base, user_id: 'u3', delegation_level: undefined, languages: ['Go', 'Rust "x"'], messages: 10 },
      { ...base, languages: ['TypeScript'], date: '2026-10-02' },
    ];
    const text = Buffer.concat([...userDayLines(userDayColumnsFromRows(rows))]).toString('utf8');
    expect(text).toBe(reference(rows));
    const parsed = text
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(parsed[1]).toMatchObject({ tool_calls: -5, git_commits: null, mcp_calls: null, sessions: 0 });
  });

  it('splits many rows into several buffers without losing or repeating any', () => {
    const rows = Array.from({ length: 4500 }, (_, i) => ({
      ...base,
      user_id: `u${i % 321}`,
      tool_calls: i,
      autonomy_ratio: i / 7,
    }));
    const chunks = [...userDayLines(userDayColumnsFromRows(rows))];
    expect(chunks.length).toBeGreaterThan(1);
    expect(Buffer.concat(chunks).toString('utf8')).toBe(reference(rows));
    expect([...userDayLines(userDayColumnsFromRows([]))]).toEqual([]);
  });
});
