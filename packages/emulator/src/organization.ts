/**
 * The synthetic organization as a pure object (no HTTP): users, their per-day activity, daily
 * totals, readiness reports, the control history and computers. Users and their days are derived
 * on demand from (seed, user index, day), so a 100k-user organization costs nothing up front;
 * profiles, distinct-user bitsets and each day's totals with its users' figures (`day-data.ts`,
 * one generation pass per day serves `/tokens`, the other totals and `/users`) are cached as they
 * are first needed.
 */
import {
  type ActivityByClientRow,
  type ActivityDay,
  addDays,
  type Computer,
  type ControlChange,
  type DayRange,
  EARLIEST_DATA_DATE,
  fromEpochDay,
  type IsoDate,
  isIsoDate,
  type OrgUser,
  type ProductivityDay,
  type ReadinessReport,
  type TokensByModelRow,
  type TokensDay,
  type ToolsByNameRow,
  type ToolsDay,
  toEpochDay,
  type UserDay,
} from '@orgreport/api-core';
import { figuresOf, type UserDayDetail, type UserDayFigures, userDayDetail, userDayRow } from './activity.ts';
import { LANGUAGES } from './catalog.ts';
import { buildComputers, buildSeedSessions, computerCount, type StoredSession } from './computers.ts';
import { buildControlHistory } from './controls.ts';
import { type DayData, DayDataBuilder } from './day-data.ts';
import { DRIFT, driftControlChange, driftUserDay, usesDriftClient, withExtraFields } from './drift.ts';
import {
  buildIdentity,
  buildProfile,
  DATA_START_DAY,
  isActiveOn,
  lastSignInOf,
  type OrgConfig,
  type UserIdentity,
  type UserProfile,
  userIndexOf,
  userIndexOfEmail,
} from './people.ts';
import { checkPlants, creditSpikes, type Plant } from './plants.ts';
import { hash32 } from './prng.ts';
import { buildReadinessReports, buildRepositories, type Repository } from './readiness.ts';
import {
  activityByClientRows,
  activityRow,
  type DayTotals,
  productivityRow,
  type TokensByUser,
  tokensByModelRows,
  tokensByUser,
  tokensByUserJson,
  tokensRow,
  toolsByNameRows,
  toolsRow,
} from './totals.ts';

/** What the synthetic organization is derived from. */
export interface OrganizationOptions {
  /** Any integer; the same options always give the same organization. Default 1. */
  seed?: number;
  /** Number of users. Default 50. */
  users?: number;
  /** Number of repositories with readiness reports. Default 5. */
  repos?: number;
  /** The emulated "today" (UTC, `YYYY-MM-DD`): data runs from 2026-01-14 to the day before. Required. */
  today: IsoDate;
  /** Plant hostile strings in names, e-mails, tool names, repository URLs, rationales and settings. */
  hostile?: boolean;
  /**
   * Simulate schema drift: unknown fields on every resource and row, renamed and removed settings in
   * some revisions, a client type and a delegation level the spec does not list (see `drift.ts`).
   */
  drift?: boolean;
  /** Organization id. Default derived from the seed. */
  orgId?: string;
  /** Organization name. Default "Acme Robotics". */
  orgName?: string;
  /**
   * Events planted on known days (see `plants.ts`): a security setting changed by an admin, one
   * user's credits multiplied from a day on. Default none: the natural organization.
   */
  plant?: readonly Plant[];
}

/** Active users generated between two pauses of a day's computation (a few milliseconds of work). */
const USERS_PER_SLICE = 512;
/** Profiles built between two pauses. */
const PROFILES_PER_SLICE = 4096;

/** Roles of the first users: the owner and two managers; everyone else is a member. */
export const ADMIN_ROLES = ['owner', 'manager', 'manager'] as const;

/** The synthetic organization; see the module comment. */
export interface Organization {
  readonly seed: number;
  readonly userCount: number;
  readonly today: IsoDate;
  /** First and last day with analytics data (the last is the day before `today`). */
  readonly firstDay: IsoDate;
  readonly lastDay: IsoDate;
  readonly orgId: string;
  readonly orgName: string;
  readonly domain: string;
  readonly hostile: boolean;
  readonly drift: boolean;
  identity(index: number): UserIdentity;
  profile(index: number): UserProfile;
  /** The organization-users resource of a user. */
  orgUser(index: number): OrgUser;
  /** Every organization user, in index order. */
  users(): Generator<OrgUser>;
  userIndexOf(id: string): number | undefined;
  userIndexOfEmail(email: string): number | undefined;
  isActive(index: number, date: IsoDate): boolean;
  /** The user's activity detail on a day, or undefined when they were not active. */
  userDayDetail(index: number, date: IsoDate): UserDayDetail | undefined;
  /** The user's `/users` row on a day, or undefined when they were not active. */
  userDay(index: number, date: IsoDate): UserDay | undefined;
  /** Every `/users` row in a range, user by user (index order), each user's days in date order. */
  userDays(range: DayRange): Generator<UserDay>;
  /** A user's `/users` rows in a range, in date order (empty when they were not active). */
  userDaysOf(index: number, range: DayRange): UserDay[];
  /** Whether the user has at least one active day in the range. */
  hasActivity(index: number, range: DayRange): boolean;
  /**
   * Computes and caches a day's totals and per-user figures (see `day-data.ts`), yielding to the
   * event loop as it goes so other requests interleave with a long computation.
   */
  prepareDay(date: IsoDate): Promise<void>;
  /** The organization's totals of a day (cached). */
  dailyTotals(date: IsoDate): DayTotals;
  /** Distinct active users over the days of a range (days before 2026-01-14 count as empty). */
  distinctActiveUsers(range: DayRange): number;
  tokensDay(date: IsoDate): TokensDay;
  /** `JSON.stringify(tokensDay(date))`, written without building the `by_user` objects. */
  tokensDayJson(date: IsoDate): string;
  /** The text of {@link tokensDayJson} in pieces of at most `usersPerPiece` `by_user` items. */
  tokensDayJsonParts(date: IsoDate, usersPerPiece?: number): Generator<string>;
  toolsDay(date: IsoDate): ToolsDay;
  activityDay(date: IsoDate): ActivityDay;
  productivityDay(date: IsoDate): ProductivityDay;
  /** The `/tokens?group_by=model` rows of a day. */
  tokensByModelRows(date: IsoDate): TokensByModelRow[];
  /** The `/tools?group_by=tool_name` rows of a day. */
  toolsByNameRows(date: IsoDate): ToolsByNameRow[];
  /** The `/activity?group_by=client` rows of a day. */
  activityByClientRows(date: IsoDate): ActivityByClientRow[];
  readonly repositories: readonly Repository[];
  /** Readiness reports, newest first. */
  readonly readinessReports: readonly ReadinessReport[];
  /** Enterprise-control changes, revision descending. */
  readonly controlHistory: readonly ControlChange[];
  readonly computers: readonly Computer[];
  /** Fresh copies of the pre-existing sessions (a server mutates its own copy). */
  seedSessions(): StoredSession[];
}

function slugOf(name: string): string {
  return (
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || 'org'
  );
}

/** Builds the synthetic organization; throws a RangeError for invalid options. */
export function createOrganization(options: OrganizationOptions): Organization {
  const seed = options.seed ?? 1;
  const userCount = options.users ?? 50;
  const repoCount = options.repos ?? 5;
  const today = options.today;
  if (!Number.isSafeInteger(seed)) throw new RangeError(`seed must be an integer, got ${seed}`);
  if (!Number.isSafeInteger(userCount) || userCount < 1 || userCount > 10_000_000) {
    throw new RangeError(`users must be an integer from 1 to 10000000, got ${userCount}`);
  }
  if (!Number.isSafeInteger(repoCount) || repoCount < 0 || repoCount > 1000) {
    throw new RangeError(`repos must be an integer from 0 to 1000, got ${repoCount}`);
  }
  if (!isIsoDate(today) || today <= EARLIEST_DATA_DATE) {
    throw new RangeError(
      `today must be a day after ${EARLIEST_DATA_DATE} as YYYY-MM-DD, got ${String(today)}`,
    );
  }
  const hostile = options.hostile ?? false;
  const drift = options.drift ?? false;
  const plants = options.plant ?? [];
  checkPlants(plants, userCount, today);
  /** Adds drift's unknown fields to a row when drifting. */
  const extra = <T extends object>(row: T, tag: string): T => (drift ? withExtraFields(row, tag) : row);
  const orgName = options.orgName ?? 'Acme Robotics';
  const orgId = options.orgId ?? `org_${hash32(seed, 0x0e9).toString(16).padStart(8, '0')}`;
  const orgSlug = slugOf(orgName);
  const domain = `${orgSlug}.example.com`;
  const config: OrgConfig = { seed, users: userCount, today, hostile, domain };
  const lastDayNumber = toEpochDay(today) - 1;

  const identities: (UserIdentity | undefined)[] = new Array(userCount);
  const profiles: (UserProfile | undefined)[] = new Array(userCount);
  const identity = (i: number): UserIdentity => {
    let v = identities[i];
    if (!v) identities[i] = v = buildIdentity(config, i);
    return v;
  };
  const profile = (i: number): UserProfile => {
    let v = profiles[i];
    if (!v) profiles[i] = v = buildProfile(config, i);
    return v;
  };
  const inWindow = (day: number) => day >= DATA_START_DAY && day <= lastDayNumber;
  const primaryLanguage = (i: number) =>
    LANGUAGES[profile(i).languages[0]?.index ?? 0]?.language ?? 'TypeScript';
  const spiked = creditSpikes(plants);
  /** A user's day as generated, with the planted credit spikes applied. */
  const detailOf = (i: number, day: number): UserDayDetail => spiked(userDayDetail(config, profile(i), day));

  // One bit per user per day: who was active. Distinct counts over windows are OR-ed bitsets.
  const words = Math.ceil(userCount / 32);
  const bitsets = new Map<number, Uint32Array>();
  const activeBits = (day: number): Uint32Array => {
    let bits = bitsets.get(day);
    if (!bits) {
      bits = new Uint32Array(words);
      if (inWindow(day)) {
        for (let i = 0; i < userCount; i++) {
          if (isActiveOn(config, profile(i), day))
            bits[i >>> 5] = (bits[i >>> 5] as number) | (1 << (i & 31));
        }
      }
      bitsets.set(day, bits);
    }
    return bits;
  };
  const popcount = (x: number) => {
    let v = x - ((x >>> 1) & 0x55555555);
    v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
    return (Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) as number;
  };
  const distinctActiveUsers = (range: DayRange): number => {
    const union = new Uint32Array(words);
    for (let d = Math.max(toEpochDay(range.start), DATA_START_DAY); d <= toEpochDay(range.end); d++) {
      const bits = activeBits(d);
      for (let w = 0; w < words; w++) union[w] = (union[w] as number) | (bits[w] as number);
    }
    let n = 0;
    for (let w = 0; w < words; w++) n += popcount(union[w] as number);
    return n;
  };

  const detailOn = (i: number, day: number): UserDayDetail | undefined =>
    inWindow(day) && isActiveOn(config, profile(i), day) ? detailOf(i, day) : undefined;
  const dates = new Map<number, IsoDate>();
  const dateOf = (day: number): IsoDate => {
    let date = dates.get(day);
    if (date === undefined) {
      date = fromEpochDay(day);
      dates.set(day, date);
    }
    return date;
  };
  const languageNameLists: (string[] | undefined)[] = new Array(userCount);
  /** The names of a user's profile languages, in profile order. */
  const languageNames = (i: number): string[] => {
    let v = languageNameLists[i];
    if (!v) languageNameLists[i] = v = profile(i).languages.map((l) => LANGUAGES[l.index]?.language ?? '');
    return v;
  };

  // Each day is generated once, in one pass that yields its totals and every user's figures.
  const days = new Map<number, DayData>();
  const pendingDays = new Map<number, Promise<void>>();
  /** The work of building a day; it pauses (yields) every few thousand users. */
  function* buildDay(day: number): Generator<void, DayData> {
    // The first day of a large organization builds every profile (about 1 s for 100k users).
    if (!bitsets.has(day)) {
      let built = 0;
      for (let i = 0; i < userCount; i++) {
        if (profiles[i] === undefined) {
          profile(i);
          if (++built % PROFILES_PER_SLICE === 0) yield;
        }
      }
    }
    const bits = activeBits(day);
    let active = 0;
    for (let w = 0; w < words; w++) active += popcount(bits[w] as number);
    const builder = new DayDataBuilder(dateOf(day), active);
    let added = 0;
    for (let i = 0; i < userCount; i++) {
      if ((bits[i >>> 5] as number) & (1 << (i & 31))) {
        builder.add(i, detailOf(i, day), languageNames(i));
        if (++added % USERS_PER_SLICE === 0) yield;
      }
    }
    return builder.finish();
  }
  const dayData = (day: number): DayData => {
    let data = days.get(day);
    if (!data) {
      const work = buildDay(day);
      let step = work.next();
      while (!step.done) step = work.next();
      data = step.value;
      days.set(day, data);
    }
    return data;
  };
  const prepareDay = (date: IsoDate): Promise<void> => {
    const day = toEpochDay(date);
    if (days.has(day)) return Promise.resolve();
    let pending = pendingDays.get(day);
    if (!pending) {
      pending = (async () => {
        const work = buildDay(day);
        let step = work.next();
        while (!step.done) {
          await new Promise<void>((resolve) => setImmediate(resolve));
          step = work.next();
        }
        if (!days.has(day)) days.set(day, step.value);
      })().finally(() => pendingDays.delete(day));
      pendingDays.set(day, pending);
    }
    return pending;
  };
  const dailyTotals = (date: IsoDate): DayTotals => dayData(toEpochDay(date)).totals;

  // Drift: the active users of a day who also used the client type the spec does not list.
  const driftClientCounts = new Map<number, number>();
  const driftClientUsers = (day: number): number => {
    let n = driftClientCounts.get(day);
    if (n === undefined) {
      n = 0;
      const bits = activeBits(day);
      for (let i = 0; i < userCount; i++) {
        if ((bits[i >>> 5] as number) & (1 << (i & 31)) && usesDriftClient(seed, i, day)) n++;
      }
      driftClientCounts.set(day, n);
    }
    return n;
  };
  const userDayOf = (i: number, day: number): UserDay | undefined => {
    if (!inWindow(day)) return undefined;
    let figures: UserDayFigures;
    const data = days.get(day);
    if (data) {
      const position = data.positionOf(i);
      if (position < 0) return undefined;
      figures = data.figures(position, languageNames(i));
    } else {
      if (!isActiveOn(config, profile(i), day)) return undefined;
      figures = figuresOf(detailOf(i, day));
    }
    const row = userDayRow(figures, identity(i), dateOf(day), primaryLanguage(i));
    return drift ? driftUserDay(row, seed, i, day) : row;
  };
  const userDaysOf = (i: number, range: DayRange): UserDay[] => {
    const rows: UserDay[] = [];
    const last = toEpochDay(range.end);
    for (let day = toEpochDay(range.start); day <= last; day++) {
      const row = userDayOf(i, day);
      if (row) rows.push(row);
    }
    return rows;
  };

  const orgUser = (i: number): OrgUser => {
    const id = identity(i);
    const p = profile(i);
    return extra(
      {
        id: id.id,
        email: id.email,
        createdAt: new Date(p.createdAtMs).toISOString(),
        metadata: { role: ADMIN_ROLES[i as 0 | 1 | 2] ?? 'member' },
        firstName: id.firstName,
        lastName: id.lastName,
        lastSignInAt: lastSignInOf(config, p),
      },
      'orgUsers',
    );
  };

  const admins = [0, 1, 2].filter((i) => i < userCount).map(identity);
  const repositories = buildRepositories(repoCount, orgSlug, hostile);
  const computers = buildComputers(seed, computerCount(userCount), today, orgId, identity, userCount);

  return {
    seed,
    userCount,
    today,
    firstDay: EARLIEST_DATA_DATE,
    lastDay: addDays(today, -1),
    orgId,
    orgName,
    domain,
    hostile,
    drift,
    identity,
    profile,
    orgUser,
    *users() {
      for (let i = 0; i < userCount; i++) yield orgUser(i);
    },
    userIndexOf: (id) => userIndexOf(config, id),
    userIndexOfEmail: (email) => userIndexOfEmail(config, email, identity),
    isActive: (i, date) => inWindow(toEpochDay(date)) && isActiveOn(config, profile(i), toEpochDay(date)),
    userDayDetail: (i, date) => detailOn(i, toEpochDay(date)),
    userDay: (i, date) => userDayOf(i, toEpochDay(date)),
    *userDays(range) {
      for (let i = 0; i < userCount; i++) yield* userDaysOf(i, range);
    },
    userDaysOf,
    hasActivity(i, range) {
      for (let day = toEpochDay(range.start); day <= toEpochDay(range.end); day++) {
        if (inWindow(day) && isActiveOn(config, profile(i), day)) return true;
      }
      return false;
    },
    prepareDay,
    dailyTotals,
    distinctActiveUsers,
    tokensDay(date) {
      const data = dayData(toEpochDay(date));
      const byUser: TokensByUser[] = new Array(data.size);
      for (let k = 0; k < data.size; k++) {
        const id = identity(data.users[k] as number);
        byUser[k] = tokensByUser({ models: data.models(k) }, id.id, id.email);
      }
      return extra(tokensRow(data.totals, byUser), 'tokens');
    },
    tokensDayJson(date) {
      return [...this.tokensDayJsonParts(date, Number.POSITIVE_INFINITY)].join('');
    },
    *tokensDayJsonParts(date, usersPerPiece = 1000) {
      const data = dayData(toEpochDay(date));
      // by_user is the row's last field, drifted or not: write the row with it empty, then fill it.
      const empty = JSON.stringify(extra(tokensRow(data.totals, []), 'tokens'));
      if (!empty.endsWith('"by_user":[]}')) {
        yield JSON.stringify(this.tokensDay(date));
        return;
      }
      let piece = empty.slice(0, -2);
      for (let k = 0; k < data.size; k++) {
        const id = identity(data.users[k] as number);
        piece += `${k > 0 ? ',' : ''}${tokensByUserJson(data.models(k), id.id, id.email)}`;
        if ((k + 1) % usersPerPiece === 0) {
          yield piece;
          piece = '';
        }
      }
      yield `${piece}]}`;
    },
    toolsDay: (date) => extra(toolsRow(dailyTotals(date)), 'tools'),
    activityDay(date) {
      const row = activityRow(
        dailyTotals(date),
        distinctActiveUsers({ start: addDays(date, -6), end: date }),
        distinctActiveUsers({ start: addDays(date, -29), end: date }),
      );
      if (!drift) return row;
      const byClient = { ...row.daily_active_users_by_client };
      byClient[DRIFT.clientType] = driftClientUsers(toEpochDay(date));
      return extra({ ...row, daily_active_users_by_client: byClient }, 'activity');
    },
    productivityDay: (date) => extra(productivityRow(dailyTotals(date)), 'productivity'),
    tokensByModelRows: (date) => tokensByModelRows(dailyTotals(date)).map((r) => extra(r, 'tokens')),
    toolsByNameRows: (date) => toolsByNameRows(dailyTotals(date)).map((r) => extra(r, 'tools')),
    activityByClientRows(date) {
      const rows = activityByClientRows(dailyTotals(date));
      if (!drift) return rows;
      const extraRow = {
        date,
        group_key: DRIFT.clientType,
        daily_active_users: driftClientUsers(toEpochDay(date)),
      };
      return [...rows, extraRow].map((r) => extra(r, 'activity'));
    },
    repositories,
    readinessReports: buildReadinessReports(seed, repositories, today, hostile).map((r) =>
      extra(r, 'readiness'),
    ),
    controlHistory: buildControlHistory(seed, today, admins, hostile, plants).map((c) =>
      drift ? driftControlChange(c) : c,
    ),
    computers: computers.map((c) => extra(c, 'computers')),
    seedSessions: () =>
      buildSeedSessions(seed, computers, today).map((s) => ({
        session: structuredClone(s.session),
        messages: new Map(s.messages),
      })),
  };
}
