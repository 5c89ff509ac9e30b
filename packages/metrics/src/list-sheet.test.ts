import { describe, expect, it } from 'vitest';
import { buildReportModel, listSheet, type UserMonthRow } from './index.ts';
import { field } from './internal/sheet-columns.ts';
import { sampleSnapshot } from './testing/index.ts';

const model = buildReportModel(sampleSnapshot(), { generatedAt: '2026-11-01T00:00:00.000Z' });

describe('listSheet', () => {
  it('writes one row per row and item, the key columns first, in the rows’ and lists’ order', () => {
    const sheet = listSheet({
      name: 'User languages',
      rows: (m) => m.users,
      key: [field<UserMonthRow, 'user_id'>('user_id', 'text'), field<UserMonthRow, 'email'>('email', 'text')],
      items: (user) => user.languages.map((language, i) => ({ rank: i + 1, language })),
      columns: [
        { header: 'rank', kind: 'level', value: (l) => l.rank },
        { header: 'language', kind: 'text', value: (l) => l.language },
      ],
    });
    const columns = sheet.columns(model);
    expect(columns.map((c) => [c.header, c.kind])).toEqual([
      ['user_id', 'text'],
      ['email', 'text'],
      ['rank', 'level'],
      ['language', 'text'],
    ]);
    const cells = sheet.rows(model).map((r) => columns.map((c) => c.value(r)));
    const expected = model.users.flatMap((u) => u.languages.map((l, i) => [u.user_id, u.email, i + 1, l]));
    expect(expected.length).toBeGreaterThan(model.users.length); // some user has several languages
    expect(cells).toEqual(expected);
  });

  it('has no row for a row whose list is empty', () => {
    const sheet = listSheet({
      name: 'Empty',
      rows: () => [{ id: 'a', tags: [] as string[] }],
      key: [{ header: 'id', kind: 'text', value: (r) => r.id }],
      items: (r) => r.tags,
      columns: [{ header: 'tag', kind: 'text', value: (t) => t }],
    });
    expect(sheet.rows(model)).toEqual([]);
  });
});
