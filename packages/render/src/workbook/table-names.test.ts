import { describe, expect, it } from 'vitest';
import { TableNames, tableName } from './table-names.ts';

describe('table names', () => {
  it('derive from the sheet name: tbl_ and its letters and digits in lower case', () => {
    expect(tableName('Users')).toBe('tbl_users');
    expect(tableName('Dormant seats')).toBe('tbl_dormant_seats');
    expect(tableName('Data quality details')).toBe('tbl_data_quality_details');
    expect(tableName('Users (2)')).toBe('tbl_users_2');
    expect(tableName('Équipes')).toBe('tbl_equipes');
    expect(tableName('🚀')).toBe('tbl_sheet');
  });

  it('are unique in a workbook, ignoring case', () => {
    const names = new TableNames();
    expect(['Users', 'users', 'USERS!', 'Teams'].map((n) => names.claim(n))).toEqual([
      'tbl_users',
      'tbl_users_2',
      'tbl_users_3',
      'tbl_teams',
    ]);
  });
});
