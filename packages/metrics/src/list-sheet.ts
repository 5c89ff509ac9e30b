/**
 * Lists as workbook sheets. A row's list (a user's languages, an MCP server's spellings) is not
 * joined into one cell, which no filter, count or pivot can take apart: it gets a long sheet of its
 * own, one row per row and item, with the columns that identify the row in front.
 */
import type { ReportModel } from './model.ts';
import type { SheetColumn, TableSheet } from './section.ts';

/** What {@link listSheet} needs: the rows, the columns that identify one, its list and an item's columns. */
export interface ListSheetSpec<Row, Item> {
  /** The sheet's name (at most 31 characters). */
  name: string;
  /** The rows whose lists the sheet holds, in order (the rows of the table sheet they belong to). */
  rows: (model: ReportModel) => readonly Row[];
  /** The columns that identify a row (a user's `user_id` and `email`), repeated on each of its items. */
  key: ReadonlyArray<SheetColumn<Row>>;
  /** The row's list. */
  items: (row: Row) => readonly Item[];
  /** The columns of one item. */
  columns: ReadonlyArray<SheetColumn<NoInfer<Item>>>;
}

/** One row of a list sheet: a row and one item of its list. */
export interface ListSheetRow<Row, Item> {
  row: Row;
  item: Item;
}

/**
 * A table sheet with one row per row and item of its list: the key columns, then the item's columns.
 *
 * @example
 * listSheet({
 *   name: 'User languages',
 *   rows: (model) => model.users,
 *   key: [field('user_id', 'text'), field('email', 'text')],
 *   items: (user) => user.languages.map((language, i) => ({ rank: i + 1, language })),
 *   columns: [
 *     { header: 'rank', kind: 'level', value: (l) => l.rank },
 *     { header: 'language', kind: 'text', value: (l) => l.language },
 *   ],
 * });
 */
export function listSheet<Row, Item>(spec: ListSheetSpec<Row, Item>): TableSheet<ListSheetRow<Row, Item>> {
  type Long = ListSheetRow<Row, Item>;
  const columns: SheetColumn<Long>[] = [
    ...spec.key.map((c) => ({ ...c, value: (r: Long) => c.value(r.row) })),
    ...spec.columns.map((c) => ({ ...c, value: (r: Long) => c.value(r.item) })),
  ];
  return {
    name: spec.name,
    columns: () => columns,
    rows: (model) => spec.rows(model).flatMap((row) => spec.items(row).map((item) => ({ row, item }))),
  };
}
