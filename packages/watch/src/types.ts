/**
 * The watch stage's input and output types: an organization's history as the store keeps it (plus
 * the directory, the credit limits and the sync runs), the rules' settings, what the watch
 * remembers between runs, and the alerts it finds. All plain JSON: no Dates, no class instances.
 */
import type { ControlChange, DayRange, IsoDate } from '@orgreport/api-core';
import type { LimitRecord, SyncRun } from '@orgreport/store';

/** How urgent an alert is. */
export type Severity = 'info' | 'warning' | 'critical';

/** The rules of the watch. */
export const RULES = ['security', 'budget', 'spike', 'stale'] as const;
export type RuleName = (typeof RULES)[number];

/** What an alert is about: the organization, a cost center or team of the directory, or one person. */
export type ScopeKind = 'organization' | 'cost_center' | 'team' | 'user';

export interface Scope {
  kind: ScopeKind;
  /** The organization's id, the cost center or team as the directory names it, a user's e-mail (or id without one). */
  name: string;
}

/** One alert: what a rule found, with the figures it compared and where to see more. */
export interface Alert {
  rule: RuleName;
  /**
   * What makes the alert the same on every run, `rule|scope|period|threshold`: the watch sends an
   * alert the first time its key is found and remembers it in its state.
   */
  key: string;
  /** The organization's id. */
  orgId: string;
  scope: Scope;
  /**
   * The period the alert is about: a month (`2026-10`, budgets), the first day of a spike
   * (`2026-10-07`, the spike's episode), a control revision (`r42`), or the last day held (stale).
   */
  period: string;
  /** The threshold crossed, for budgets: `actual-80`, `actual-100`, `forecast-80`, `forecast-100`. */
  threshold?: string;
  severity: Severity;
  /** The data day the alert is about (a spike's day, a change's day, the month's last day held). */
  day: IsoDate;
  /** One sentence for people, with the figures in it. */
  sentence: string;
  /** The figures the rule compared, by name. */
  figures: Record<string, string | number | boolean | null>;
  /** Where to see more: an `orgreport query` SQL over the store, and/or a document. */
  more: { sql?: string; document?: string };
  /**
   * The alert is about one person (their spike, their budget): route it only to recipients allowed
   * to see that person. Their e-mail is in `email` (or their id in `userId` when the API sent none).
   */
  person: boolean;
  email?: string;
  userId?: string;
  /** True the first time the alert's key is found (the run that sends it). */
  new: boolean;
}

/** An alert as a rule finds it, before the state says whether it is new. */
export type Finding = Omit<Alert, 'new'>;

// The sync log and the credit limits are the store's records: their types are the store's.
export type { LimitRecord, SyncRun };

/** A person of the directory, as far as the watch needs them. */
export interface WatchPerson {
  email: string;
  team: string;
  costCenter: string;
  /** Their budget in credits per month, from the directory's budget column; undefined without. */
  budget?: number;
  /**
   * The day this row takes effect (the directory's `valid_from`): a person's row holds until their
   * next one, so someone who moved team counts to each team on its days. None: since always.
   */
  validFrom?: IsoDate | null;
}

/** One user's credits on one day (a `user_days` row). */
export interface UserCredits {
  date: IsoDate;
  userId: string;
  email: string | null;
  credits: number;
}

/** What the watch reads of an organization. */
export interface WatchHistory {
  orgId: string;
  /** The days the store holds, as sorted, disjoint spans. */
  held: readonly DayRange[];
  /** The organization's credits per day held (`tokens_daily`). */
  orgDays: ReadonlyArray<{ date: IsoDate; credits: number }>;
  /** Every user's credits per day held (`user_days`). */
  userDays: readonly UserCredits[];
  /** Control revisions the store holds (any order). */
  controls: readonly ControlChange[];
  /** The sync runs logged, any order (none when the log is missing). */
  syncRuns: readonly SyncRun[];
  /** The credit limits `limits apply` recorded, any order. */
  limits: readonly LimitRecord[];
}

/** One field of a settings difference, as the report shows it (secrets already redacted). */
export interface SettingChange {
  path: string;
  before: string | null;
  after: string | null;
  /** Whether the setting bears on security (the report's list). */
  security: boolean;
}

/** The field-level difference of two revisions' settings (the report's, injected: `diffSettings` of `@orgreport/metrics`). */
export type SettingsDiff = (before: unknown, after: unknown) => readonly SettingChange[];

/** Budgets in credits per calendar month. */
export interface BudgetRules {
  organization?: number;
  /** By cost center as the directory names it. */
  costCenters: Record<string, number>;
  /** By team as the directory names it. */
  teams: Record<string, number>;
  /** By e-mail (any letter case). */
  users: Record<string, number>;
  /** A user's latest limit set with `limits apply` counts as their budget (unless set above). */
  fromLimits: boolean;
  /** Percents of the budget that alert, of the credits to date and of the forecast. */
  thresholds: number[];
  /** Alert on the forecast too, not only on the credits to date. */
  forecast: boolean;
}

export interface SpikeRules {
  enabled: boolean;
  /** A day above this multiple of its trailing median is a spike. */
  multiple: number;
  /** Days of the trailing window. */
  trailingDays: number;
  /** Days with credits the window must hold for the scope to be judged (fewer: too little history). */
  minHistoryDays: number;
  /** Days below this many credits are never spikes (tiny numbers). */
  minCredits: number;
  /** A spike's run of days ends after this many days without a spike day (until then it is one alert). */
  quietDays: number;
  /** Which scopes are watched. */
  scopes: Array<'organization' | 'team' | 'user'>;
}

export interface StaleRules {
  enabled: boolean;
  /** Yesterday must be in the store by this hour (UTC). */
  byHourUtc: number;
  /** Alert when sync failed this many days running. */
  syncFailures: number;
}

/** Every rule's settings. */
export interface WatchRules {
  security: { enabled: boolean };
  budgets: BudgetRules;
  spike: SpikeRules;
  stale: StaleRules;
  /** Days the forecast's rates are taken over (trailing, ending the last day held). */
  forecastDays: number;
}

/** What the watch remembers of an organization between runs. */
export interface WatchState {
  version: 1;
  orgId: string;
  /** The last data day the spike rule judged; null before the first run. */
  lastDay: IsoDate | null;
  /** The highest control revision seen; null before the first run. */
  lastRevision: number | null;
  /** Alerts sent, by key: the day of the run that sent each, and its rule. */
  fired: Record<string, { day: IsoDate; rule: RuleName }>;
}
