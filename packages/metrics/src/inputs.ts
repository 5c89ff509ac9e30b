/**
 * What a report is computed from besides the snapshot: the inputs of a run by name (a store's
 * history, a people directory, budgets, ...) and the readiness level mapping. Plain declarations,
 * imported by the section API and the transforms alike.
 */
import type { Figure } from './model.ts';

/** Criterion id -> readiness level (1..4) the criterion belongs to. */
export type LevelMapping = Readonly<Record<string, number>>;

/**
 * Further inputs of a run by name, as the caller passes them in `ReportOptions.inputs` (a history of
 * months from a store, a people directory mapping e-mails to teams, ...). A package that brings one
 * names its type by augmenting this interface, so sections read it typed:
 *
 * ```ts
 * declare module '@orgreport/metrics' {
 *   interface SectionInputs { people?: ReadonlyMap<string, { team: string; costCenter: string }> }
 * }
 * ```
 */
export interface SectionInputs {
  readonly [name: string]: unknown;
  /** Earlier months of the organization, oldest first (from a store): the trend section reads them. */
  readonly history?: ReadonlyArray<MonthHistory>;
  /**
   * The organizations of a rollup, each with its own report's figures: the rollup section lists
   * them beside the run's figures, which are those of all of them together.
   */
  readonly organizations?: ReadonlyArray<OrganizationFigures>;
  /** Who is in which team and cost center (a directory file): the teams and chargeback sections read it. */
  readonly directory?: PeopleDirectory;
  /**
   * Monthly credit budgets by name (the config file's `watch.budgets`): a scoped report sets its
   * credits against its team's or cost center's budget, else against its people's credit limits.
   */
  readonly budgets?: {
    readonly organization?: number;
    readonly teams?: Readonly<Record<string, number>>;
    readonly costCenters?: Readonly<Record<string, number>>;
  };
  /**
   * The month-end forecast of credits from the credits of each day held (`YYYY-MM-DD` -> credits)
   * up to `lastDay` (the watch's `forecastMonth`): a partial report states its month's forecast.
   */
  readonly forecastCredits?: (values: ReadonlyMap<string, number>, lastDay: string) => number;
  /** Where the full definitions are (a URL): the short report's "how to read" page links there. */
  readonly definitionsUrl?: string;
}

/** One person of a directory. */
export interface DirectoryPerson {
  /** As the file gives it; matched to users and seats in any case. */
  email: string;
  team: string;
  costCenter: string;
  manager: string | null;
  /** Repository URLs the person's team owns (the directory's `repositories` column, `;`-separated). */
  repositories: string[];
  /** The file's other columns, by header. */
  attributes: Readonly<Record<string, string>>;
  /**
   * The first day (`YYYY-MM-DD`) this row holds, when the directory is effective-dated (its
   * `valid_from` column): a person's row holds until their next one. None: since always.
   */
  validFrom?: string | null;
}

/** A directory of people: e-mail to team, cost center and manager. */
export interface PeopleDirectory {
  /** Where it came from (a file name), for messages. */
  source: string;
  people: ReadonlyArray<DirectoryPerson>;
}

/** One organization of a rollup and the figures of its own report. */
export interface OrganizationFigures {
  id: string;
  name: string;
  figures: ReadonlyArray<Figure>;
}

/**
 * One month of an organization's history as a store sums it up: what the trend section needs that
 * only a month's user-day rows give (the rest, seats and readiness, comes from the snapshot's lists).
 * Same definitions as the report's figures of the same ids.
 */
export interface MonthHistory {
  /** `YYYY-MM`. */
  month: string;
  /** Days of the month the store holds (fewer than the month's days: a partial month). */
  days: number;
  /** Days of the month with data (2026-01 has 18: data starts on the 14th). */
  daysInMonth: number;
  /** `credits`: the `/tokens` daily `billable_tokens` summed. */
  credits: number;
  /** `active_users`: distinct users with tool calls, messages or sessions on a day of the month. */
  activeUsers: number;
  /** `avg_dau`: mean `daily_active_users` over the days with `/activity` rows; null with none. */
  avgDau: number | null;
  /** `autonomy_mean`: mean over users with user messages of tool calls / user messages; null with none. */
  autonomyMean: number | null;
}
