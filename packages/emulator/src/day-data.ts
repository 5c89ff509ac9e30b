/**
 * One day of the organization computed in a single pass over its active users: the day's totals,
 * and every active user's figures in compact typed-array columns (about 100 bytes per user-day),
 * from which the `/tokens` `by_user` items and the `/users` rows are rebuilt without generating
 * the user's day again.
 */
import { DELEGATION_LEVELS } from '@orgreport/api-core';
import type { ModelFigures, UserDayDetail, UserDayFigures } from './activity.ts';
import { DayAccumulator, type DayTotals } from './totals.ts';

/** The integer counters of a user-day, stored row-major in one Uint32Array. */
const COUNTERS = [
  'sessions',
  'userMessages',
  'assistantMessages',
  'toolCalls',
  'mcpCalls',
  'skillCalls',
  'slashCommands',
  'hookCalls',
  'filesCreated',
  'filesEdited',
  'commits',
  'prs',
] as const satisfies readonly (keyof UserDayDetail)[];
const WIDTH = COUNTERS.length;
/** A user-day uses one or two models. */
const MODELS_PER_DAY = 2;
const NO_MODEL = 255;
/** Billable, input and output tokens of each model. */
const TOKEN_FIELDS = 3;

/** A day's totals and its active users' figures; see the module comment. */
export class DayData {
  constructor(
    readonly totals: DayTotals,
    /** Indices of the day's active users, ascending. */
    readonly users: Int32Array,
    private readonly counters: Uint32Array,
    private readonly delegation: Uint8Array,
    /** Bit k set when the user's k-th profile language had files that day. */
    private readonly languageMask: Uint8Array,
    private readonly modelIds: Uint8Array,
    private readonly tokens: Float64Array,
  ) {}

  /** Number of active users. */
  get size(): number {
    return this.users.length;
  }

  /** The position of a user among the day's active users, or -1 when they were not active. */
  positionOf(userIndex: number): number {
    let lo = 0;
    let hi = this.users.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const u = this.users[mid] as number;
      if (u === userIndex) return mid;
      if (u < userIndex) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  /** The models of the user at `position`, in the order of their day detail. */
  models(position: number): ModelFigures[] {
    const out: ModelFigures[] = [];
    for (let m = 0; m < MODELS_PER_DAY; m++) {
      const model = this.modelIds[position * MODELS_PER_DAY + m] as number;
      if (model === NO_MODEL) continue;
      const t = (position * MODELS_PER_DAY + m) * TOKEN_FIELDS;
      out.push({
        model,
        billable: this.tokens[t] as number,
        input: this.tokens[t + 1] as number,
        output: this.tokens[t + 2] as number,
      });
    }
    return out;
  }

  /** The `/users` figures of the user at `position`; `languageNames` are the user's profile languages. */
  figures(position: number, languageNames: readonly string[]): UserDayFigures {
    const c = this.counters;
    const o = position * WIDTH;
    const mask = this.languageMask[position] as number;
    const languages: string[] = [];
    for (let k = 0; k < languageNames.length; k++)
      if (mask & (1 << k)) languages.push(languageNames[k] as string);
    return {
      sessions: c[o] as number,
      userMessages: c[o + 1] as number,
      assistantMessages: c[o + 2] as number,
      toolCalls: c[o + 3] as number,
      mcpCalls: c[o + 4] as number,
      skillCalls: c[o + 5] as number,
      slashCommands: c[o + 6] as number,
      hookCalls: c[o + 7] as number,
      filesCreated: c[o + 8] as number,
      filesEdited: c[o + 9] as number,
      commits: c[o + 10] as number,
      prs: c[o + 11] as number,
      delegation: DELEGATION_LEVELS[this.delegation[position] as number] as UserDayFigures['delegation'],
      models: this.models(position),
      languages,
    };
  }
}

/** Collects a day's active users (in ascending index order) into a {@link DayData}. */
export class DayDataBuilder {
  private readonly acc: DayAccumulator;
  private readonly users: Int32Array;
  private readonly counters: Uint32Array;
  private readonly delegation: Uint8Array;
  private readonly languageMask: Uint8Array;
  private readonly modelIds: Uint8Array;
  private readonly tokens: Float64Array;
  private n = 0;

  /** `capacity` is the number of active users the day will receive. */
  constructor(date: string, capacity: number) {
    this.acc = new DayAccumulator(date);
    this.users = new Int32Array(capacity);
    this.counters = new Uint32Array(capacity * WIDTH);
    this.delegation = new Uint8Array(capacity);
    this.languageMask = new Uint8Array(capacity);
    this.modelIds = new Uint8Array(capacity * MODELS_PER_DAY).fill(NO_MODEL);
    this.tokens = new Float64Array(capacity * MODELS_PER_DAY * TOKEN_FIELDS);
  }

  /** Adds an active user's day; `languageNames` are the user's profile languages, in profile order. */
  add(userIndex: number, d: UserDayDetail, languageNames: readonly string[]): void {
    const p = this.n;
    if (p >= this.users.length) throw new RangeError('more active users than the day was built for');
    if (d.models.length > MODELS_PER_DAY) throw new RangeError('a user-day uses at most two models');
    this.acc.add(d);
    this.users[p] = userIndex;
    const o = p * WIDTH;
    for (let k = 0; k < WIDTH; k++) {
      const v = d[COUNTERS[k] as (typeof COUNTERS)[number]];
      // A silent Uint32 wrap would break the invariants between endpoints: fail loudly instead.
      if (v >>> 0 !== v) throw new RangeError(`${COUNTERS[k]} = ${v} does not fit the day columns`);
      this.counters[o + k] = v;
    }
    this.delegation[p] = DELEGATION_LEVELS.indexOf(d.delegation);
    // byLanguage lists a subset of the profile's languages, in profile order.
    let mask = 0;
    let next = 0;
    for (let k = 0; k < languageNames.length && next < d.byLanguage.length; k++) {
      if ((d.byLanguage[next] as [string, number])[0] === languageNames[k]) {
        mask |= 1 << k;
        next++;
      }
    }
    this.languageMask[p] = mask;
    d.models.forEach((m, i) => {
      this.modelIds[p * MODELS_PER_DAY + i] = m.model;
      const t = (p * MODELS_PER_DAY + i) * TOKEN_FIELDS;
      this.tokens[t] = m.billable;
      this.tokens[t + 1] = m.input;
      this.tokens[t + 2] = m.output;
    });
    this.n++;
  }

  /** The finished day. */
  finish(): DayData {
    if (this.n !== this.users.length) throw new RangeError('fewer active users than the day was built for');
    return new DayData(
      this.acc.finish(),
      this.users,
      this.counters,
      this.delegation,
      this.languageMask,
      this.modelIds,
      this.tokens,
    );
  }
}
