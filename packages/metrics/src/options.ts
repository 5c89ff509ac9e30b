/**
 * Options of {@link buildReportModel}: everything configurable about the report's numbers.
 */
import defaultLevelMapping from './default-level-mapping.json' with { type: 'json' };
import type { ReportModel } from './model.ts';
import type { ResolvedScope } from './scope.ts';
import type { ReportSection, SectionInputs } from './section.ts';

/** Criterion id -> readiness level (1..4) the criterion belongs to. */
export type LevelMapping = Readonly<Record<string, number>>;

export interface ReportOptions {
  /** ISO 8601 instant written into the model as `generatedAt` (the caller's clock, never read here). */
  generatedAt: string;
  /** Criterion-to-level mapping; defaults to {@link DEFAULT_LEVEL_MAPPING}. Missing criteria are listed, not guessed. */
  levelMapping?: LevelMapping;
  /** Price of one credit; cost columns appear only when it is set. */
  pricePerCredit?: number;
  /** Currency of `pricePerCredit` (ISO 4217 code); defaults to `USD` when a price is set. */
  currency?: string;
  /** Price of one seat for the period, in the same currency: the chargeback's seat cost. */
  pricePerSeat?: number;
  /** Credit limit per user e-mail (matched case-insensitively). */
  creditLimits?: Readonly<Record<string, number>>;
  /** Length of the top lists (tools, skills, slash commands, weakest criteria); default 10. */
  topN?: number;
  /**
   * The report's sections in order (default: the built-in ones). The model always holds the
   * built-in sections' figures; the other sections' computations, checks and definitions run after.
   */
  sections?: ReadonlyArray<ReportSection>;
  /** Further inputs sections read by name (see {@link SectionInputs}). */
  inputs?: SectionInputs;
  /**
   * A report for a set of people: the scope (resolved against the directory over the snapshot's
   * days), applied to the snapshot once before anything is computed; and the organization's own
   * report model, whose figures the scope's are compared with and whose organization-only sections
   * are shown as context (without it they are left out).
   */
  scope?: { scope: ResolvedScope; organization?: ReportModel };
}

/** The default criterion-to-level mapping that ships with the package (`default-level-mapping.json`). */
export const DEFAULT_LEVEL_MAPPING: LevelMapping = defaultLevelMapping;

/** Default length of top lists. */
export const DEFAULT_TOP_N = 10;

/** Currency named when a price is given without one. */
export const DEFAULT_CURRENCY = 'USD';
