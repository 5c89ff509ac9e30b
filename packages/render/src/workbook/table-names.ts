/**
 * Names of the workbook's Excel tables, derived from their sheets' names so that they are stable
 * from month to month (a query or pivot refers to a table by name): `tbl_` and the sheet's name in
 * lower case with every run of other characters than ASCII letters and digits as one underscore
 * (`Dormant seats` -> `tbl_dormant_seats`, `Users (2)` -> `tbl_users_2`). Excel wants table names
 * unique in the workbook ignoring case; the prefix keeps them from reading as a cell reference.
 */

/** Longest table name Excel accepts. */
const MAX_TABLE_NAME_LENGTH = 255;

/** The table name of a sheet name (not yet unique). */
export function tableName(sheetName: string): string {
  const slug = sheetName
    .normalize('NFKD')
    .replace(/\p{M}/gu, '') // accents off their letters: É -> E
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  return `tbl_${slug || 'sheet'}`.slice(0, MAX_TABLE_NAME_LENGTH);
}

/** Hands out table names that are unique within one workbook (`tbl_users`, `tbl_users_2`, ...). */
export class TableNames {
  private readonly taken = new Set<string>();

  /** Returns the table name of `sheetName`, numbered when already taken, and reserves it. */
  claim(sheetName: string): string {
    const base = tableName(sheetName);
    let name = base;
    for (let n = 2; this.taken.has(name); n++) {
      const suffix = `_${n}`;
      name = base.slice(0, MAX_TABLE_NAME_LENGTH - suffix.length) + suffix;
    }
    this.taken.add(name);
    return name;
  }
}
