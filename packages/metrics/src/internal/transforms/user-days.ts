/**
 * The `/users` rows as an arquero table with dictionary-encoded integer keys (user, day, delegation
 * level, model, language set), so every grouping of the per-user transforms is on one integer
 * column: a 10k-user month groups in milliseconds instead of hashing composite string keys.
 */

import {
  codedListItems,
  type DayRange,
  fromEpochDay,
  type OrgUser,
  toEpochDay,
  USER_DAY_COLUMNS,
  type UserDayCodes,
  type UserDayColumns,
  userDayCodesOf,
  userDayRowCount,
} from '@orgreport/api-core';
import type { ColumnTable } from 'arquero';
import * as aq from 'arquero';
import { BitSet } from 'arquero';
import { sumBy } from './sum-by.ts';

/** The encoded table and the dictionaries that decode its integer columns. */
export interface UserDayData {
  /**
   * The snapshot's columns (not copied) plus `uid` (index into `userIds`), `day` (days since
   * 1970-01-01), `lvl` (index into `levels`), `mdl` (index into `models`), `lng` (index into
   * `languageSets`), `wk` (ISO week as Mondays since the epoch, see {@link isoWeekNumber}) and
   * `active` (1 when tool calls, messages or sessions > 0, else 0).
   */
  table: ColumnTable;
  userIds: string[];
  /**
   * Each user's e-mail (by uid): the latest non-null one of their rows, else their seat's (the
   * rule that places a person in the month's allocation and a scope, see `personEmails`).
   */
  emails: Array<string | null>;
  /** Each user's last day with activity in the snapshot, as an epoch day (by uid; -Infinity: none). */
  lastActiveDay: number[];
  levels: Array<string | null>;
  models: Array<string | null>;
  /** Model tier seen with each model (the first non-null one). */
  modelTiers: Array<string | null>;
  languageSets: string[][];
}

/** Encodes values as dense integer codes (first seen, first code). */
function dictionary<T>(): { codes: Map<T, number>; values: T[]; code(value: T): number } {
  const codes = new Map<T, number>();
  const values: T[] = [];
  // Rows usually come user by user, so the previous value is the likeliest: check it first.
  let last: T | undefined;
  let lastCode = -1;
  return {
    codes,
    values,
    code(value: T) {
      if (value === last && lastCode >= 0) return lastCode;
      let c = codes.get(value);
      if (c === undefined) {
        c = values.length;
        codes.set(value, c);
        values.push(value);
      }
      last = value;
      lastCode = c;
      return c;
    },
  };
}

/**
 * Wraps the snapshot's `/users` columns in a table with integer-coded keys and the `active` flag.
 * A user whose rows carry no e-mail takes their seat's from `seats` (the snapshot's `orgUsers`);
 * with `known` (user id to e-mail), every user it names has that e-mail instead (a scope's rows are
 * part of the organization's, which may know someone by a later e-mail).
 *
 * @example
 * const { table, userIds } = encodeUserDays(snapshot.userDays, snapshot.orgUsers);
 */
export function encodeUserDays(
  columns: UserDayColumns,
  seats: readonly OrgUser[] = [],
  known?: ReadonlyMap<string, string>,
): UserDayData {
  const codes = userDayCodesOf(columns);
  const data = codes ? encodeCoded(columns, codes) : encodeValues(columns);
  if (known) data.emails = data.userIds.map((id, u) => known.get(id) ?? data.emails[u] ?? null);
  else withSeatEmails(data, seats);
  return data;
}

/** Fills the e-mail of each user whose rows have none with their seat's, where they have one. */
function withSeatEmails(data: UserDayData, seats: readonly OrgUser[]): void {
  if (!data.emails.includes(null)) return;
  const seatEmails = new Map<string, string>();
  for (const s of seats) if (s.email) seatEmails.set(s.id, s.email);
  data.emails.forEach((email, u) => {
    if (email === null) data.emails[u] = seatEmails.get(data.userIds[u]!) ?? null;
  });
}

/**
 * What both encodings build row by row: the integer key columns and the `active` flag, per user
 * the last day with activity and the latest non-null e-mail by day, per model the first non-null
 * tier seen with it. `E` and `T` are the e-mails' and tiers' texts, or a reader's codes of them.
 */
class EncodedRows<E, T> {
  readonly uid: Int32Array;
  readonly day: Int32Array;
  readonly wk: Int32Array;
  readonly lvl: Int32Array;
  readonly mdl: Int32Array;
  readonly lng: Int32Array;
  readonly active: Uint8Array;
  readonly lastActiveDay: number[] = [];
  readonly emails: Array<E | null> = [];
  private readonly emailDay: number[] = [];
  readonly modelTiers: Array<T | null> = [];

  constructor(private readonly columns: UserDayColumns) {
    const n = userDayRowCount(columns);
    this.uid = new Int32Array(n);
    this.day = new Int32Array(n);
    this.wk = new Int32Array(n);
    this.lvl = new Int32Array(n);
    this.mdl = new Int32Array(n);
    this.lng = new Int32Array(n);
    this.active = new Uint8Array(n);
  }

  /** Row `i`'s codes (its day `d` as days since 1970-01-01). */
  set(
    i: number,
    u: number,
    d: number,
    level: number,
    model: number,
    tier: T | null,
    languages: number,
    email: E | null,
  ): void {
    const c = this.columns;
    this.uid[i] = u;
    this.day[i] = d;
    this.wk[i] = isoWeekNumber(d);
    this.lvl[i] = level;
    this.mdl[i] = model;
    this.lng[i] = languages;
    const { modelTiers, lastActiveDay, emails, emailDay } = this;
    if (modelTiers.length <= model) modelTiers.push(tier);
    else if (modelTiers[model] === null) modelTiers[model] = tier;
    const active = (c.tool_calls[i] ?? 0) > 0 || (c.messages[i] ?? 0) > 0 || (c.sessions[i] ?? 0) > 0;
    this.active[i] = active ? 1 : 0;
    while (lastActiveDay.length <= u) lastActiveDay.push(Number.NEGATIVE_INFINITY);
    if (active && d > (lastActiveDay[u] as number)) lastActiveDay[u] = d;
    if (u >= emails.length) {
      emails.push(email);
      emailDay.push(email === null ? Number.NEGATIVE_INFINITY : d);
    } else if (email !== null && d >= (emailDay[u] as number)) {
      emails[u] = email;
      emailDay[u] = d;
    }
  }

  /**
   * The snapshot's columns (not copied) with the key columns and `active`. With the reader's
   * `codes`, the text and date columns are read through them (see {@link CodedColumn}), so the
   * snapshot's decoded text is never made for the table.
   */
  table(codes?: UserDayCodes): ColumnTable {
    const { uid, day, wk, lvl, mdl, lng, active } = this;
    const snapshotColumns = this.columns as unknown as Record<string, unknown>;
    const columns: Record<string, unknown> = {};
    for (const name of USER_DAY_COLUMNS) {
      const text = codes?.text[name as keyof UserDayCodes['text']];
      if (text) columns[name] = new CodedColumn(text.codes, textValues(name, text.values));
      else if (codes && name === 'date') columns[name] = new CodedColumn(codes.date, dayTexts());
      else columns[name] = snapshotColumns[name];
    }
    return aq.table(columns).assign(aq.table({ uid, day, wk, lvl, mdl, lng, active }));
  }
}

/**
 * A column of a reader's codes, read as the values they stand for (arquero reads any column with
 * `length`, `at` and an iterator): the table gives each text the snapshot's column would hold,
 * made when asked for instead of 2M of them held.
 */
class CodedColumn<T> {
  readonly length: number;
  constructor(
    private readonly codes: ArrayLike<number | null>,
    private readonly value: (code: number) => T,
  ) {
    this.length = codes.length;
  }
  at(row: number): T | null {
    const code = this.codes[row];
    return code === null || code === undefined ? null : this.value(code);
  }
  *[Symbol.iterator](): Iterator<T | null> {
    for (let row = 0; row < this.length; row++) yield this.at(row);
  }
}

/** A coded text column's value of a code, as the snapshot's column holds it (a list as its items). */
function textValues(column: string, values: readonly string[]): (code: number) => unknown {
  if (column !== 'languages') return (code) => values[code];
  const lists = values.map(codedListItems);
  return (code) => lists[code];
}

/** A day's text (`YYYY-MM-DD`) of its epoch day, each made once. */
function dayTexts(): (day: number) => string {
  const texts = new Map<number, string>();
  return (day) => {
    let text = texts.get(day);
    if (text === undefined) {
      text = fromEpochDay(day);
      texts.set(day, text);
    }
    return text;
  };
}

/** {@link encodeUserDays} of columns made from JS values: each row's strings hashed into dictionaries. */
function encodeValues(columns: UserDayColumns): UserDayData {
  const n = columns.user_id.length;
  const rows = new EncodedRows<string, string>(columns);
  const users = dictionary<string>();
  const levels = dictionary<string | null>();
  const models = dictionary<string | null>();
  const sets = dictionary<string>();
  const setLists: string[][] = [];
  const dayCodes = new Map<string, number>();
  const c = columns;
  for (let i = 0; i < n; i++) {
    const date = c.date[i] as string;
    let d = dayCodes.get(date);
    if (d === undefined) {
      d = toEpochDay(date);
      dayCodes.set(date, d);
    }
    const langs = c.languages[i] ?? [];
    // Most rows hold zero or one language: key those without building a string.
    const key = langs.length === 0 ? '' : langs.length === 1 ? (langs[0] as string) : langs.join('\u0001');
    const s = sets.code(key);
    if (setLists.length <= s) setLists.push([...new Set(langs)]);
    rows.set(
      i,
      users.code(c.user_id[i] as string),
      d,
      levels.code(c.delegation_level[i] ?? null),
      models.code(c.primary_model[i] ?? null),
      c.primary_model_tier[i] ?? null,
      s,
      c.user_email[i] ?? null,
    );
  }
  return {
    table: rows.table(),
    userIds: users.values,
    emails: rows.emails,
    lastActiveDay: rows.lastActiveDay,
    levels: levels.values,
    models: models.values,
    modelTiers: rows.modelTiers,
    languageSets: setLists,
  };
}

/**
 * Dense codes in order of first appearance of a reader's codes (null as one more code): the same
 * codes {@link dictionary} gives the texts they stand for, found by indexing instead of hashing.
 */
class FirstSeen {
  private readonly dense: Int32Array;
  /** The reader's codes in order of first appearance (`nullCode` for null). */
  private readonly order: number[] = [];
  private readonly nullCode: number;

  constructor(size: number) {
    this.dense = new Int32Array(size + 1).fill(-1);
    this.nullCode = size;
  }

  code(readerCode: number | null | undefined): number {
    const k = readerCode ?? this.nullCode;
    let c = this.dense[k]!;
    if (c < 0) {
      c = this.order.length;
      this.dense[k] = c;
      this.order.push(k);
    }
    return c;
  }

  /** The values of the dense codes, in order (`ofCode` gives a reader's code's value; null for null). */
  values<T>(ofCode: (readerCode: number) => T, ofNull: T): T[] {
    return this.order.map((k) => (k === this.nullCode ? ofNull : ofCode(k)));
  }
}

/**
 * {@link encodeUserDays} of columns whose reader recorded their codes (the store's read): the same
 * table and dictionaries, each row's keys found by indexing the reader's codes.
 */
function encodeCoded(columns: UserDayColumns, coded: UserDayCodes): UserDayData {
  const n = userDayRowCount(columns);
  const { date, text } = coded;
  const rows = new EncodedRows<number, number>(columns);
  const users = new FirstSeen(text.user_id.values.length);
  const levels = new FirstSeen(text.delegation_level.values.length);
  const models = new FirstSeen(text.primary_model.values.length);
  // A list with no item and a null list are both no language (the key '').
  const languageValues = text.languages.values;
  const noLanguage = languageValues.indexOf('');
  const sets = new FirstSeen(languageValues.length);
  const { user_id: userCodes, delegation_level: levelCodes, primary_model: modelCodes } = text;
  const tierCodes = text.primary_model_tier.codes;
  const emailCodes = text.user_email.codes;
  const languageCodes = text.languages.codes;
  for (let i = 0; i < n; i++) {
    const l = languageCodes[i];
    rows.set(
      i,
      users.code(userCodes.codes[i]),
      date[i] as number,
      levels.code(levelCodes.codes[i]),
      models.code(modelCodes.codes[i]),
      tierCodes[i] ?? null,
      sets.code(l === null || l === undefined ? (noLanguage >= 0 ? noLanguage : null) : l),
      emailCodes[i] ?? null,
    );
  }
  const textOf = (values: readonly string[]) => (k: number) => values[k] as string;
  const tiers = text.primary_model_tier.values;
  const emails = text.user_email.values;
  return {
    table: rows.table(coded),
    userIds: users.values(textOf(userCodes.values), null as unknown as string),
    emails: rows.emails.map((k) => (k === null ? null : (emails[k] as string))),
    lastActiveDay: rows.lastActiveDay,
    levels: levels.values<string | null>(textOf(levelCodes.values), null),
    models: models.values<string | null>(textOf(modelCodes.values), null),
    modelTiers: rows.modelTiers.map((k) => (k === null ? null : (tiers[k] as string))),
    // Each set's items once, as the rows' lists would give them.
    languageSets: sets.values((k) => {
      const key = languageValues[k] as string;
      return [...new Set(codedListItems(key))];
    }, []),
  };
}

/**
 * The rows of a span of days (a filter: no column is copied).
 *
 * @example
 * withinSpan(data.table, { start: '2026-03-01', end: '2026-03-31' })
 */
export function withinSpan(userDays: ColumnTable, span: DayRange): ColumnTable {
  // The filter's bits set straight from the `day` column: an arquero expression would call a
  // column accessor per row.
  const days = userDays.column('day') as unknown as ArrayLike<number>;
  const start = toEpochDay(span.start);
  const end = toEpochDay(span.end);
  const n = userDays.totalRows();
  const filter = new BitSet(n);
  for (let i = 0; i < n; i++) {
    const d = days[i]!;
    if (d >= start && d <= end) filter.set(i);
  }
  const mask = userDays.mask();
  return userDays.create({ filter: mask ? filter.and(mask) : filter });
}

/**
 * The ISO week of an epoch day as a count of Mondays since the epoch (1970-01-01 was a Thursday),
 * the `wk` column of {@link encodeUserDays}.
 *
 * @example
 * isoWeekNumber(toEpochDay('2026-03-02')) - isoWeekNumber(toEpochDay('2026-03-01')) // 1
 */
export function isoWeekNumber(epochDay: number): number {
  return Math.floor((epochDay + 3) / 7);
}

/**
 * One row per user of the rows with `active_days`, `tool_calls` and `user_messages`: what active
 * users, seats and autonomy need. `activeColumn` is `active` on user-day rows and `active_days`
 * on `userWeekLevels` rows.
 *
 * @example
 * perUserActivity(withinSpan(data.table, comparison)) // table of uid, active_days, tool_calls, user_messages
 */
export function perUserActivity(
  rows: ColumnTable,
  activeColumn: 'active' | 'active_days' = 'active',
): ColumnTable {
  const users = sumBy(rows, ['uid'], [activeColumn, 'tool_calls', 'user_messages']);
  return activeColumn === 'active' ? users.rename({ active: 'active_days' }) : users;
}
