import {
  toEpochDay,
  USER_DAY_COLUMNS,
  USER_DAY_TEXT_COLUMNS,
  type UserDay,
  type UserDayCodes,
  userDayColumnsFromRows,
  withUserDayCodes,
} from '@orgreport/api-core';
import { describe, expect, it } from 'vitest';
import { encodeUserDays, type UserDayData } from './user-days.ts';

/** Codes as a reader would hand them over: each text's sorted distinct values, lists joined by U+0001. */
function readerCodes(rows: ReadonlyArray<Partial<UserDay>>): UserDayCodes {
  const text = {} as Record<string, { codes: Array<number | null>; values: string[] }>;
  for (const c of USER_DAY_TEXT_COLUMNS) {
    const raw = rows.map((r) => {
      const v = r[c] ?? null;
      return Array.isArray(v) ? v.join('\u0001') : (v as string | null);
    });
    const values = [...new Set(raw.filter((v): v is string => v !== null))].sort();
    text[c] = { codes: raw.map((v) => (v === null ? null : values.indexOf(v))), values };
  }
  return { date: rows.map((r) => toEpochDay(r.date as string)), text: text as UserDayCodes['text'] };
}

/** What an encoding holds, its table as plain columns. */
function contents(data: UserDayData) {
  const { table, ...dictionaries } = data;
  const columns = Object.fromEntries(
    ['uid', 'day', 'wk', 'lvl', 'mdl', 'lng', 'active'].map((c) => [
      c,
      Array.from(table.array(c) as ArrayLike<number>),
    ]),
  );
  return { columns, ...dictionaries };
}

describe('encodeUserDays', () => {
  // Rows in the store's order (user, day), with nulls, a tier first missing then given, an empty
  // and a null list of languages, an e-mail that changes and one that goes missing.
  const rows: Array<Partial<UserDay>> = [
    {
      user_id: 'a',
      user_email: 'a@x.test',
      date: '2026-09-30',
      tool_calls: 0,
      messages: 0,
      sessions: 0,
      primary_model: 'm2',
      primary_model_tier: null,
      delegation_level: 'manual',
      languages: ['Go', 'Go'],
    },
    {
      user_id: 'a',
      user_email: null,
      date: '2026-10-01',
      tool_calls: 3,
      messages: 1,
      sessions: 1,
      primary_model: 'm1',
      primary_model_tier: 'thinking',
      delegation_level: null,
      languages: [],
    },
    {
      user_id: 'a',
      user_email: 'A@new.test',
      date: '2026-10-05',
      tool_calls: 1,
      messages: 0,
      sessions: 0,
      primary_model: 'm2',
      primary_model_tier: 'standard',
      delegation_level: 'auto-high',
      languages: null as unknown as string[],
    },
    {
      user_id: 'b',
      user_email: null,
      date: '2026-10-02',
      tool_calls: 0,
      messages: 2,
      sessions: 0,
      primary_model: null,
      primary_model_tier: null,
      delegation_level: 'manual',
      languages: ['Rust', 'Go'],
    },
    {
      user_id: 'c',
      user_email: 'c@x.test',
      date: '2026-10-06',
      tool_calls: 0,
      messages: 0,
      sessions: 0,
      primary_model: 'm1',
      primary_model_tier: null,
      delegation_level: 'manual',
      languages: ['Go'],
    },
  ];

  it("gives the same table and dictionaries from a reader's codes as from the values", () => {
    const fromValues = encodeUserDays(userDayColumnsFromRows(rows));
    const fromCodes = encodeUserDays(withUserDayCodes(userDayColumnsFromRows(rows), readerCodes(rows)));
    expect(contents(fromCodes)).toEqual(contents(fromValues));
  });

  it("reads the text and dates through a reader's codes, never its decoded columns", () => {
    const columns = withUserDayCodes(userDayColumnsFromRows(rows), readerCodes(rows));
    // The store's read makes these when first read: the encoding must not read them.
    for (const c of [...USER_DAY_TEXT_COLUMNS, 'date'] as const) {
      Object.defineProperty(columns, c, {
        get() {
          throw new Error(`the ${c} column was read`);
        },
      });
    }
    const { table } = encodeUserDays(columns);
    const plain = encodeUserDays(userDayColumnsFromRows(rows)).table;
    for (const c of USER_DAY_COLUMNS) expect(table.array(c), c).toEqual(plain.array(c));
    expect(table.array('languages')).toEqual([['Go', 'Go'], [], null, ['Rust', 'Go'], ['Go']]);
    expect(table.array('date')).toEqual([
      '2026-09-30',
      '2026-10-01',
      '2026-10-05',
      '2026-10-02',
      '2026-10-06',
    ]);
  });

  it('codes in order of first appearance, hand-checked', () => {
    const data = encodeUserDays(withUserDayCodes(userDayColumnsFromRows(rows), readerCodes(rows)));
    expect(data.userIds).toEqual(['a', 'b', 'c']);
    expect(data.emails).toEqual(['A@new.test', null, 'c@x.test']);
    expect(data.models).toEqual(['m2', 'm1', null]);
    expect(data.modelTiers).toEqual(['standard', 'thinking', null]);
    expect(data.levels).toEqual(['manual', null, 'auto-high']);
    // A list is keyed as it reads (Go twice is not Go once); an empty and a null list are one key.
    expect(data.languageSets).toEqual([['Go'], [], ['Rust', 'Go'], ['Go']]);
    expect(Array.from(data.table.array('lng') as ArrayLike<number>)).toEqual([0, 1, 1, 2, 3]);
    expect(Array.from(data.table.array('active') as ArrayLike<number>)).toEqual([0, 1, 1, 1, 0]);
    expect(data.lastActiveDay).toEqual([
      toEpochDay('2026-10-05'),
      toEpochDay('2026-10-02'),
      Number.NEGATIVE_INFINITY,
    ]);
  });
});
