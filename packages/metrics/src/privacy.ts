/**
 * Privacy by construction: the one place every document passes through before it is written (the
 * renderer applies {@link protectModel} to the model each format reads, and the message of a
 * delivery is made from the same protected model). Three rules:
 * - per-person rows (users, dormant seats, top users, user languages) only where the reader may see
 *   them: everyone's (the organization report's named readers), their scope's people (a manager),
 *   or nobody's (a cost-center owner);
 * - where the reader may not see everyone's rows, no group (team, cost center, delegation level...)
 *   under the minimum group size shows figures: its row is held back, with as many of the next
 *   smallest as it takes for what is held back to reach the minimum itself (so no total minus the
 *   rows shown singles it out), and the held-back rows are merged into one row where a section can;
 * - nobody the reader may not see is named anywhere in the document: every e-mail, user id and full
 *   name of the organization's other people is withheld from every text of the model.
 * Sections declare how their own figures are protected (`ReportSection.privacy`); a section of
 * another package that declares nothing is left out of documents for readers who may not see
 * everyone's rows.
 */
import { DELEGATION_LEVELS, type Snapshot } from '@orgreport/api-core';
import { DEFAULT_MIN_GROUP_SIZE } from './defaults.ts';
import type { PeopleDirectory } from './inputs.ts';
import { displayName } from './internal/transforms/people-names.ts';
import type { ReportModel, ReportPrivacy } from './model.ts';
import type { ReportSection, SectionPrivacy } from './section.ts';

export type { SectionPrivacy } from './section.ts';

import { READING_ORDER } from './sections/definitions/index.ts';

/** Whose per-person rows a reader may see. */
export type PersonRows = 'all' | 'scope' | 'none';

/** The privacy rules of one document (one reader). */
export interface PrivacyPolicy {
  /** Groups under this many people show no figures to a reader who may not see everyone's rows. */
  minGroupSize: number;
  /** Whose per-person rows the reader may see: everyone's, the scope's people's, or nobody's. */
  personRows: PersonRows;
  /** The e-mails and user ids are keyed pseudonyms (stated on the definitions page). */
  pseudonymized?: boolean;
}

/** The organization report's policy for its named readers: every row, as the report has always had. */
export const OPEN_POLICY: PrivacyPolicy = { minGroupSize: DEFAULT_MIN_GROUP_SIZE, personRows: 'all' };

/** One person of the organization as documents may name them. */
export interface Identity {
  id?: string | null;
  email?: string | null;
  name?: string | null;
}

/** What {@link protectModel} needs beside the model. */
export interface ProtectOptions {
  policy: PrivacyPolicy;
  /** The report's sections (their privacy hooks); default: the built-in ones. */
  sections: ReadonlyArray<ReportSection>;
  /** Everyone of the organization who might be named (see {@link identitiesOf}): those the reader may not see are withheld. */
  people: ReadonlyArray<Identity>;
  /** People the reader may see besides their scope's (the reader themself, a scope's manager). */
  reader?: ReadonlyArray<string>;
}

/** What stands where a person the reader may not see was named. */
export const WITHHELD = '(withheld)';

/**
 * Everyone a document of this snapshot might name: the organization's users (id, e-mail, name),
 * the `/users` rows' ids and e-mails, the control history's authors and the directory's people.
 */
export function identitiesOf(snapshot: Snapshot, directory?: PeopleDirectory): Identity[] {
  const out: Identity[] = [];
  for (const u of snapshot.orgUsers) out.push({ id: u.id, email: u.email ?? null, name: displayName(u) });
  const seen = new Set<string>();
  const { user_id: ids, user_email: emails } = snapshot.userDays;
  for (let i = 0; i < ids.length; i++) {
    const key = `${ids[i]}\u0000${emails[i] ?? ''}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ id: ids[i]!, email: emails[i] ?? null });
  }
  for (const c of snapshot.controls)
    out.push({ id: c.user?.id ?? null, email: c.user?.email ?? null, name: c.user?.name ?? null });
  for (const p of directory?.people ?? []) out.push({ email: p.email }, { email: p.manager });
  return out;
}

/**
 * Rows of groups under the minimum size held back (see the module's description): returns the rows
 * kept, in order, and those held back. `sizeOf` gives a row's people (null: not a group, such as a
 * total, never held back).
 *
 * @example
 * holdBackSmallGroups(teams, (t) => t.members, 5).held.length
 */
export function holdBackSmallGroups<Row>(
  rows: readonly Row[],
  sizeOf: (row: Row) => number | null,
  minGroupSize: number,
): { kept: Row[]; held: Row[]; people: number } {
  const groups = rows.map((row, i) => ({ row, i, size: sizeOf(row) })).filter((g) => g.size !== null);
  const held = new Set(groups.filter((g) => g.size! < minGroupSize).map((g) => g.i));
  let people = groups.filter((g) => held.has(g.i)).reduce((a, g) => a + g.size!, 0);
  // What is held back must not be a small group itself: hold back the next smallest too.
  const rest = groups.filter((g) => !held.has(g.i)).sort((a, b) => a.size! - b.size! || a.i - b.i);
  while (held.size > 0 && people < minGroupSize && rest.length > 0) {
    const next = rest.shift()!;
    held.add(next.i);
    people += next.size!;
  }
  return {
    kept: rows.filter((_, i) => !held.has(i)),
    held: rows.filter((_, i) => held.has(i)),
    people,
  };
}

/** A mix of people by level (counts and shares) with the levels under the minimum held back. */
export function holdBackMix(
  counts: Readonly<Record<string, number>>,
  minGroupSize: number,
): { counts: Record<string, number>; held: string[]; people: number } {
  const levels = Object.keys(counts).filter((k) => (counts[k] ?? 0) > 0);
  const { kept, held, people } = holdBackSmallGroups(levels, (k) => counts[k] ?? 0, minGroupSize);
  return { counts: Object.fromEntries(kept.map((k) => [k, counts[k]!])), held, people };
}

/** Everyone's identities, indexed once per list of people (a distribution protects hundreds of documents with one). */
interface IdentityIndex {
  /** Every e-mail and id (lower-cased) and full name: the identities that name someone. */
  tokens: Set<string>;
  names: Set<string>;
  /** The records of a person by their e-mail or id (lower-cased). */
  byKey: Map<string, Identity[]>;
  /** The most words a full name has. */
  longestName: number;
  /**
   * Texts seen to name nobody of the index (whatever the reader): a distribution protects hundreds
   * of documents whose definitions and settings repeat, so each such text is read once.
   */
  clean: Set<string>;
}

const identityIndexes = new WeakMap<ReadonlyArray<Identity>, IdentityIndex>();

const lowerOf = (v: string | null | undefined) => v?.trim().toLowerCase() || undefined;

function identityIndex(people: ReadonlyArray<Identity>): IdentityIndex {
  const known = identityIndexes.get(people);
  if (known) return known;
  const index: IdentityIndex = {
    tokens: new Set(),
    names: new Set(),
    byKey: new Map(),
    longestName: 0,
    clean: new Set(),
  };
  for (const p of people) {
    const email = lowerOf(p.email);
    const id = lowerOf(p.id);
    if (email) index.tokens.add(email);
    // Ids shorter than 4 characters could be any word.
    if (id && id.length >= 4) index.tokens.add(id);
    const name = p.name?.trim();
    if (name?.includes(' ')) {
      index.names.add(name);
      index.longestName = Math.max(index.longestName, name.split(/\s+/).length);
    }
    for (const key of [email, id]) {
      if (!key) continue;
      const records = index.byKey.get(key) ?? [];
      records.push(p);
      index.byKey.set(key, records);
    }
  }
  identityIndexes.set(people, index);
  return index;
}

/** What a reader may not see: every identity of the index but those of the people allowed (by e-mail or id). */
interface Withheld {
  index: IdentityIndex;
  /** The identities of the people allowed: their e-mails, ids and names. */
  allowed: Set<string>;
}

function withheldFor(people: ReadonlyArray<Identity>, allowed: ReadonlySet<string>): Withheld {
  const index = identityIndex(people);
  const open = new Set<string>();
  for (const key of allowed) {
    open.add(key);
    for (const p of index.byKey.get(key) ?? []) {
      for (const v of [lowerOf(p.email), lowerOf(p.id)]) if (v) open.add(v);
      if (p.name) open.add(p.name.trim());
    }
  }
  return { index, allowed: open };
}

/** Word-like runs of a text that can be an e-mail or an id. */
const TOKEN = /[\p{L}\p{N}_.+\-@]+/gu;

const isWithheld = (w: Withheld, token: string) => w.index.tokens.has(token) && !w.allowed.has(token);

/** Texts remembered as naming nobody, at most (then the memory starts again). */
const CLEAN_TEXTS = 50_000;

/** A text with every identity the reader may not see replaced by {@link WITHHELD}. */
function withholdIn(text: string, w: Withheld): string {
  if (w.index.clean.has(text)) return text;
  // Whether the text names anyone of the index at all, allowed to this reader or not.
  let names = false;
  let out = text.replace(TOKEN, (token) => {
    const t = token.toLowerCase();
    // A token may end in punctuation (an e-mail at a sentence's end).
    const trimmed = t.replace(/[.\-+]+$/, '');
    if (w.index.tokens.has(t) || w.index.tokens.has(trimmed)) names = true;
    if (isWithheld(w, t)) return WITHHELD;
    return trimmed !== t && isWithheld(w, trimmed) ? WITHHELD + token.slice(trimmed.length) : token;
  });
  if (w.index.names.size > 0 && out.includes(' ')) {
    // Full names: runs of up to the longest name's words, looked up whole.
    const words = out.split(' ');
    const kept: string[] = [];
    for (let i = 0; i < words.length; ) {
      let matched = 0;
      for (let n = Math.min(w.index.longestName, words.length - i); n >= 2 && matched === 0; n--) {
        // A name may end a sentence or a list: its last word's punctuation is not part of it.
        const candidate = words
          .slice(i, i + n)
          .join(' ')
          .replace(/[.,;:!?)\]]+$/, '');
        if (w.index.names.has(candidate)) names = true;
        if (w.index.names.has(candidate) && !w.allowed.has(candidate)) matched = n;
      }
      const tail = matched > 0 ? (words[i + matched - 1]!.match(/[.,;:!?)\]]+$/)?.[0] ?? '') : '';
      kept.push(matched > 0 ? WITHHELD + tail : words[i]!);
      i += Math.max(matched, 1);
    }
    out = kept.join(' ');
  }
  if (!names) {
    if (w.index.clean.size >= CLEAN_TEXTS) w.index.clean.clear();
    w.index.clean.add(text);
  }
  return out;
}

/** Every string of a JSON value passed through `fix`. */
function mapStrings<T>(value: T, fix: (s: string) => string): T {
  if (typeof value === 'string') return fix(value) as T;
  // What no string of changes is kept as it is (shared, not copied): most of a model names nobody.
  if (Array.isArray(value)) {
    let changed = false;
    const out = value.map((v) => {
      const m = mapStrings(v, fix);
      if (m !== v) changed = true;
      return m;
    });
    return (changed ? out : value) as T;
  }
  if (value !== null && typeof value === 'object') {
    let changed = false;
    const entries = Object.entries(value).map(([k, v]) => {
      const key = fix(k);
      const m = mapStrings(v, fix);
      if (key !== k || m !== v) changed = true;
      return [key, m] as const;
    });
    return (changed ? Object.fromEntries(entries) : value) as T;
  }
  return value;
}

/**
 * A JSON value (every string in it, keys included) with every identity of `people` a reader may not
 * see replaced by {@link WITHHELD}: the rule {@link protectModel} applies to a document's texts, for
 * what is not a report model (an alert's sentence, figures and query). `allowed` are the e-mails or
 * ids (any case) of the people the reader may see; their other identities (name, id) stay too.
 *
 * @example
 * withholdPeople({ by: 'Eve Fox <eve@acme.test>' }, [{ email: 'eve@acme.test', name: 'Eve Fox' }], [])
 * // { by: '(withheld) <(withheld)>' }
 */
export function withholdPeople<T>(value: T, people: ReadonlyArray<Identity>, allowed: Iterable<string>): T {
  const open = new Set<string>();
  for (const key of allowed) {
    const lower = lowerOf(key);
    if (lower) open.add(lower);
  }
  const withheld = withheldFor(people, open);
  return mapStrings(value, (s) => withholdIn(s, withheld));
}

/** The rule in plain language, with the document's settings (definitions page). */
export function privacyDefinition(privacy: ReportPrivacy): string {
  const rows = {
    all: 'This document includes every person\u2019s rows: its readers may see everyone\u2019s.',
    scope:
      'This document includes per-person rows for the people of its scope, whom its reader is responsible for.',
    none: 'This document includes no per-person rows: its reader sees groups only.',
  }[privacy.personRows];
  const groups =
    privacy.personRows !== 'none'
      ? ''
      : ` No group (team, cost center, delegation level) of fewer than ${privacy.minGroupSize} people shows figures, counting the people whose rows make its figures (its active users): such a group is held back, with as many of the next smallest as it takes for what is held back to have at least ${privacy.minGroupSize} people, and the groups held back are shown together as one row where the section can. The minimum protects people, not budgets: a report for a cost center or a team never holds back its own cost center\u2019s or team\u2019s totals, nor those of the teams inside the cost center whose owner reads it; a team\u2019s autonomy and delegation describe how its people work, not a budget, and are held back whenever fewer than ${privacy.minGroupSize} people make them.`;
  const pseudonyms = privacy.pseudonymized
    ? ' E-mails and user ids are keyed pseudonyms: the same person has the same pseudonym every month, and nothing in the document tells who they are.'
    : '';
  return `Minimum group size: ${privacy.minGroupSize} people. ${rows}${groups}${heldBackText(privacy)} People outside the document\u2019s readership are not named anywhere in it: where one was, it says ${WITHHELD}.${pseudonyms}`;
}

/**
 * What this document held back, where (so that a reader of any format, the workbook's included,
 * knows an empty cell or an "Other" row for what it is); empty when nothing was.
 */
function heldBackText({ suppressed, minGroupSize }: ReportPrivacy): string {
  if (suppressed.length === 0) return '';
  const each = suppressed.map(
    (s) =>
      `${s.where} (${s.group}, ${s.people === null ? `fewer than ${minGroupSize}` : s.people} ${s.people === 1 ? 'person' : 'people'})`,
  );
  return ` Held back in this report\u2019s figures (in one or more of its formats): ${each.join('; ')}.`;
}

/**
 * The model as a reader may see it under `policy`: per-person rows only where allowed, groups under
 * the minimum size held back where the reader may not see everyone's rows, and nobody named whom the
 * reader may not see. The model records the rules (`privacy`) and the definitions page states them.
 */
export function protectModel(model: ReportModel, options: ProtectOptions): ReportModel {
  const { policy } = options;
  const personRows =
    policy.personRows === 'all' || (policy.personRows === 'scope' && model.scope !== undefined);
  const suppressed: ReportPrivacy['suppressed'] = [];
  const rules: SectionPrivacy = {
    minGroupSize: policy.minGroupSize,
    personRows,
    heldBack: (where, groups, people) => {
      if (groups > 0)
        suppressed.push({
          where,
          group: `${groups} group${groups === 1 ? '' : 's'}`,
          people: people >= policy.minGroupSize ? people : null,
        });
    },
    scope: model.scope ? { kind: model.scope.kind, name: model.scope.name } : null,
  };
  // Only a reader of groups changes the model's members in place (the delegation mixes): the others
  // get a new top level, members replaced whole (a 10k model's deep copy costs 40 ms for nothing).
  let out: ReportModel = personRows ? { ...model } : structuredClone(model);
  if (!personRows) {
    out.users = [];
    out.seats = { ...out.seats, dormant_users: [], ...(out.seats.used_outside && { used_outside: [] }) };
    protectDelegation(out, rules);
    protectTurnover(out, rules);
  }
  // Each section protects its own figures; one that cannot say how is left out for a restricted reader.
  if (out.sections) {
    const sections: Record<string, unknown> = {};
    for (const [id, data] of Object.entries(out.sections)) {
      const section = options.sections.find((s) => s.id === id);
      if (section?.privacy) sections[id] = section.privacy(data, rules);
      else if (policy.personRows === 'all') sections[id] = data;
    }
    out.sections = sections;
  }
  const privacy: ReportPrivacy = {
    minGroupSize: policy.minGroupSize,
    personRows: personRows ? (policy.personRows === 'all' ? 'all' : 'scope') : 'none',
    pseudonymized: policy.pseudonymized ?? false,
    suppressed,
  };
  out.privacy = privacy;
  // The rules stand after the other built-in terms, before those of other packages' sections.
  const definitions = out.definitions.filter((d) => d.id !== 'privacy');
  const builtin = definitions.reduce((last, d, i) => (READING_ORDER.includes(d.id) ? i : last), -1);
  definitions.splice(builtin + 1, 0, { id: 'privacy', term: 'Privacy', text: privacyDefinition(privacy) });
  out.definitions = definitions;
  if (policy.personRows !== 'all') {
    const allowed = new Set(
      [
        ...(options.reader ?? []),
        // A manager's report is named after the manager: naming them tells nobody anything new.
        ...(out.scope?.kind === 'manager' ? [out.scope.name] : []),
        ...out.users.flatMap((u) => [u.email, u.user_id]),
        ...out.seats.dormant_users.flatMap((d) => [d.email, d.id]),
        // A scope's seat holders who used the agent only before they moved in are its people too.
        ...(out.seats.used_outside ?? []).flatMap((d) => [d.email, d.id]),
      ]
        .filter((v): v is string => typeof v === 'string' && v !== '')
        .map((v) => v.toLowerCase()),
    );
    const withheld = withheldFor(options.people, allowed);
    out = mapStrings(out, (s) => withholdIn(s, withheld));
  }
  return out;
}

/**
 * Who started, stopped or moved, where fewer people than the minimum did one of them: the breakdown
 * is left out whole ("1 moved out" names someone to a reader who knows of the move; the active users
 * before and after would give one count left alone), and the active users' change stays.
 */
function protectTurnover(model: ReportModel, rules: SectionPrivacy): void {
  const users = model.whatChanged.find((f) => f.kind === 'users');
  if (users?.kind !== 'users') return;
  const counts = [users.new, users.lost, users.movedIn ?? 0, users.movedOut ?? 0];
  const small = counts.filter((n) => n > 0 && n < rules.minGroupSize);
  if (small.length === 0) return;
  const held = counts.filter((n) => n > 0);
  rules.heldBack(
    'What changed: new, no longer active and moved users',
    held.length,
    held.reduce((a, n) => a + n, 0),
  );
  model.whatChanged = model.whatChanged.filter((f) => f !== users);
}

/** The month's and weeks' delegation mixes with levels under the minimum held back. */
function protectDelegation(model: ReportModel, rules: SectionPrivacy): void {
  const month = model.behaviour.month.delegation;
  const { counts, held, people } = holdBackMix(month.counts, rules.minGroupSize);
  rules.heldBack('Delegation levels of the month', held.length, people);
  model.behaviour.month.delegation = {
    active_users: month.active_users,
    counts,
    shares: Object.fromEntries(Object.keys(counts).map((k) => [k, month.shares[k] ?? null])),
  };
  for (const week of model.behaviour.weeks) {
    const mix = holdBackMix(week.delegation.counts, rules.minGroupSize);
    // Each week on its own: a person is in every week they were active, so weeks' people do not add up.
    rules.heldBack(`Delegation levels of the week ${week.span}`, mix.held.length, mix.people);
    week.delegation = {
      active_users: week.delegation.active_users,
      counts: mix.counts,
      shares: Object.fromEntries(Object.keys(mix.counts).map((k) => [k, week.delegation.shares[k] ?? null])),
    };
    const row = model.weekly.find((w) => w.week === week.span);
    if (!row) continue;
    for (const level of mix.held) {
      const key: string = `delegation_${level.replace(/-/g, '_')}`;
      if (key in row) (row as unknown as Record<string, unknown>)[key] = null;
    }
    // "Other" is the levels outside the five: held back only with one of them, not for a known level's sake.
    const known: readonly string[] = DELEGATION_LEVELS;
    if (mix.held.some((level) => !known.includes(level))) row.delegation_other = null;
  }
}
