/**
 * The section API: the section is the unit of the report. One declaration holds what a section
 * computes (from the snapshot and what every section shares, see {@link SectionContext}), its
 * data-quality checks, its definitions, its template partial and its workbook sheets.
 * `buildReportModel` runs the sections' computations, checks and definitions; the renderer lays out
 * the configured sections' partials and writes their sheets, in the configured order. The built-in
 * sections (`src/sections/<id>/`) are declared with this API like other teams' sections.
 */
import type {
  ActivityDay,
  MonthPeriod,
  ProductivityDay,
  Snapshot,
  TokensDay,
  ToolsDay,
} from '@orgreport/api-core';
import type { LevelMapping, SectionInputs } from './inputs.ts';
import type {
  ContextBlock,
  DailyRow,
  DataQualityFinding,
  Definition,
  Figure,
  ReportModel,
  UserMonthRow,
  WeeklyRow,
} from './model.ts';
import type { ResolvedScope } from './scope.ts';

export type {
  DirectoryPerson,
  LevelMapping,
  MonthHistory,
  OrganizationFigures,
  PeopleDirectory,
  SectionInputs,
} from './inputs.ts';

/** How a number is shown: the report's text formats and the workbook's number formats follow it. */
export type ValueKind =
  /** Whole counts and credits: thousands separators, no decimals (`12,345`). */
  | 'integer'
  /** Averages and ratios: two decimals with separators (`1,234.57`). */
  | 'decimal'
  /** Fractions in [0, 1] shown as percentages with one decimal (`12.3%`). */
  | 'share'
  /** A relative change shown as a signed percentage (`+4.2%`, `-0.5%`). */
  | 'change'
  /**
   * A difference of two shares in percentage points (`+5.0 pp`), given as a fraction (0.05) like
   * the shares; the workbook stores it in points (5.0), since a number format cannot scale by 100
   * without showing `%`.
   */
  | 'points'
  /** A signed whole-number difference (`+3`, `-12`). */
  | 'delta'
  /** A signed difference of two decimals (`+0.05`). */
  | 'deltaDecimal'
  /** A readiness level or other small whole number without separators (`3`). */
  | 'level';

/** What a workbook column holds; numeric kinds carry the report's number formats. */
export type SheetColumnKind = 'text' | 'date' | 'datetime' | 'boolean' | 'currency' | ValueKind;

/**
 * One column of a table sheet: its header, its kind and how to read its value from a row. A value is
 * one value: null, undefined and '' leave the cell empty, and a list belongs on a sheet of its own
 * (see {@link listSheet}), never joined into one cell.
 */
export interface SheetColumn<Row> {
  header: string;
  kind: SheetColumnKind;
  value: (row: Row) => unknown;
  /**
   * Why the column can be empty in every row (`no credit limits were given`): the workbook leaves
   * out a column without any value and says so under the table, with this reason.
   */
  emptyReason?: string;
}

/**
 * A table sheet of a section: one row per item, one typed column per field, read from the report
 * model. The renderer writes it as an Excel table named after the sheet (`tbl_users` for `Users`)
 * with a bold frozen header and number formats by column kind; it puts the organization's id, the
 * month and the report's scope (`org_id`, `month`, `scope`) in front of the sheet's columns, so that
 * months, organizations and scopes stack, and keeps every column, even one without any value.
 */
export interface TableSheet<Row = never> {
  /** The sheet's name (at most 31 characters; a taken name gets a number). */
  name: string;
  /** The columns; `model.pricing` tells whether cost columns belong. */
  columns: (model: ReportModel) => ReadonlyArray<SheetColumn<Row>>;
  rows: (model: ReportModel) => readonly Row[];
}

/**
 * A sheet of figures: one row per figure (`id`, `label`, `value`, `previous`, `change`) in each
 * figure's number format, and a cost row when a price is set. A total that a table sheet listing
 * the model's daily series (`rows` returning `model.daily`) reproduces is written as a formula over
 * that sheet, with its computed result.
 */
export interface FiguresSheet {
  name: string;
  figures: (model: ReportModel) => readonly Figure[];
}

/** One workbook sheet of a section: a table, or a sheet of figures. */
export type SectionSheet<Row = never> = TableSheet<Row> | FiguresSheet;

/**
 * A column table of the shared computations: an arquero `ColumnTable` (`import type { ColumnTable }
 * from 'arquero'` to use its verbs), declared here by what every reader needs, so that the package's
 * types do not depend on arquero's.
 */
export interface SharedTable {
  numRows(): number;
  columnNames(): string[];
  /** The values of a column, in row order. */
  array(name: string): ArrayLike<unknown>;
}

/**
 * The snapshot's `/users` rows as one table with integer-coded keys, and the dictionaries that
 * decode them: `uid` indexes `userIds` and `emails`, `lvl` `levels`, `mdl` `models` and `modelTiers`,
 * `lng` `languageSets`; `day` counts days since 1970-01-01, `wk` ISO weeks (Mondays since the epoch),
 * `active` is 1 for a day with tool calls, messages or sessions. The other columns are the
 * snapshot's.
 */
export interface UserDayEncoding {
  table: SharedTable;
  userIds: string[];
  /** Each user's e-mail (by uid): the latest non-null one of their rows, else their seat's. */
  emails: Array<string | null>;
  levels: Array<string | null>;
  models: Array<string | null>;
  /** Model tier seen with each model (the first non-null one). */
  modelTiers: Array<string | null>;
  languageSets: string[][];
}

/**
 * What every section shares, computed once per run (the same values the model holds under the
 * same names where it has them).
 */
export interface SharedComputations {
  /** The snapshot's `/users` rows, encoded once. */
  userDays: UserDayEncoding;
  /** The rows of `userDays.table` dated inside the period. */
  periodUserDays: SharedTable;
  /** The period's daily series (`model.daily`). */
  daily: readonly DailyRow[];
  /** The ISO weeks intersecting the period (`model.weekly`). */
  weekly: readonly WeeklyRow[];
  /** The headline figures with their comparison (`model.figures`). */
  figures: readonly Figure[];
  /** Per-user totals of the period, most credits first (`model.users`). */
  users: readonly UserMonthRow[];
  /** The analytics endpoints' rows dated inside the period. */
  rows: {
    tokens: readonly TokensDay[];
    tools: readonly ToolsDay[];
    activity: readonly ActivityDay[];
    productivity: readonly ProductivityDay[];
  };
  /** Price per credit and currency when configured (`model.pricing`). */
  pricing: ReportModel['pricing'];
  /** Length of top lists. */
  topN: number;
  /** Criterion-to-level mapping of readiness. */
  levelMapping: LevelMapping;
}

/**
 * Options of `buildReportModel`: everything configurable about the report's numbers. Declared with
 * the section API, whose contexts carry them.
 */
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

/** What a section's privacy hook receives. */
export interface SectionPrivacy {
  minGroupSize: number;
  /** The reader may see each person's rows of the document (everyone's, or the scope's in a scoped report). */
  personRows: boolean;
  /** Records groups held back, for the document's privacy note. */
  heldBack(where: string, groups: number, people: number): void;
  /**
   * The document's scope (a team's, a cost center's report), null for the organization's: the
   * scope's own group (its team's, its cost center's row) is never held back, as the minimum
   * protects people, not the totals of the budget the reader owns.
   */
  scope: { kind: string; name: string } | null;
}

/** What a section's computation and checks receive. */
export interface SectionContext {
  snapshot: Snapshot;
  options: ReportOptions;
  /** The report's period, and the comparison period (null when there is none). */
  period: MonthPeriod;
  comparison: MonthPeriod | null;
  /** What every section shares, computed once. */
  shared: SharedComputations;
  /**
   * The report model of the built-in sections. They run first, so another section reads any of
   * their figures here; a built-in section itself reads `shared` (the model is not built yet).
   */
  model: Readonly<ReportModel>;
  /** Further inputs of the run by name (see {@link SectionInputs}). */
  inputs: SectionInputs;
  /**
   * The set of people the report is for, when it is a scoped report: `snapshot` then holds only
   * their rows (and no organization-wide analytics). Null for the organization's report.
   */
  scope: ResolvedScope | null;
  /**
   * In a scoped report, the organization's own report model (the one the scope is compared with),
   * when the caller gives it; null otherwise.
   */
  organization: Readonly<ReportModel> | null;
  /** The sections of the run: the built-in ones, then the configured sections of other packages. */
  sections: ReadonlyArray<ReportSection>;
}

/**
 * A section of the report. `Data` is what its `compute` returns; a list of sections of different
 * kinds is a list of `ReportSection` (its default, `any`, lets each keep its own).
 */
// biome-ignore lint/suspicious/noExplicitAny: a list holds sections of different data types.
export interface ReportSection<Data = any> {
  /** Stable id: lower-case letters, digits and hyphens, starting with a letter. Names its partial. */
  id: string;
  /** Heading of the section. */
  title: string;
  /**
   * The section's figures: plain JSON (no class instances, no Dates), kept in the model under
   * `sections[id]` (the built-in sections' under the model's own members, such as `tools`). A
   * section whose computation gives `null` has nothing to show and is left out of the document.
   */
  compute?: (context: SectionContext) => Data;
  /** Data-quality findings of the section, listed with the report's others in section order. */
  checks?: (context: SectionContext, data: Data) => DataQualityFinding[];
  /** Definitions of the section's terms, printed on the definitions page and sheet. */
  definitions?: ReadonlyArray<Definition>;
  /**
   * The section's Handlebars partial: a file (absolute path) or its source. It is rendered with the
   * report's template context plus `section` (this section's data) and `title` (its heading). A
   * user template folder's `partials/<id>.hbs` overrides it.
   */
  partial?: { file: string } | { source: string };
  /** The section's workbook sheets, in order. */
  // biome-ignore lint/suspicious/noExplicitAny: each sheet has rows of its own type.
  sheets?: ReadonlyArray<SectionSheet<any>>;
  /**
   * How the section reads in a report for a set of people (see {@link SectionScopeMode}); default
   * `scope`: computed from the scope's rows, which is all a scoped run's snapshot holds.
   */
  scope?: SectionScopeMode;
  /**
   * In a scoped report, what the section shows that the API gives for the whole organization only
   * (tokens by kind, tools by name, DAU by client, ...): blocks read from the organization's model,
   * shown once, labelled, on the organization-context page, never as the scope's figures.
   */
  organizationContext?: (organization: Readonly<ReportModel>) => ContextBlock[];
  /**
   * The section belongs in the short report a scoped reader gets by default (a page they act on,
   * their people, their teams and money, the organization's context, how to read it); default
   * false. A function says so from what the section computed (a teams page only where the scope
   * has several teams). A plan rule or `--sections` still lays out any section.
   */
  short?: boolean | ((data: Data) => boolean);
  /**
   * How the section's figures are protected in a document whose reader may not see everyone's rows
   * (see `protectModel`): per-person rows removed where `rules.personRows` is false, groups under
   * `rules.minGroupSize` held back (`holdBackSmallGroups`). A section of another package without
   * one is left out of such documents.
   */
  privacy?: (data: Data, rules: SectionPrivacy) => Data;
}

/**
 * How a section reads in a scoped report (a team's, a cost center's, a manager's people's):
 * - `scope`: computed from the scope's rows (the scoped snapshot holds nothing else);
 * - `organization`: what the API gives only for the whole organization, shown once as labelled
 *   organization context (the organization report's figures of the section);
 * - `omit`: left out of a scoped report.
 */
export type SectionScopeMode = 'scope' | 'organization' | 'omit';

const SECTION_ID = /^[a-z][a-z0-9-]{0,62}$/;

/** Raised for a section declaration that cannot be used; names the section and what is wrong. */
export class SectionError extends Error {
  override readonly name = 'SectionError';
}

/**
 * Checks and returns a section declaration (the identity for a valid one), so that a mistake in a
 * package's section is named when it is loaded, not halfway through a render.
 *
 * @example
 * export const section = defineSection({ id: 'weekday', title: 'Busiest weekday', compute: (ctx) => ({ ... }) });
 */
export function defineSection<Data>(section: ReportSection<Data>): ReportSection<Data> {
  const what = `section ${JSON.stringify(section?.id)}`;
  if (section === null || typeof section !== 'object') throw new SectionError('a section must be an object');
  if (typeof section.id !== 'string' || !SECTION_ID.test(section.id)) {
    throw new SectionError(
      `${what}: the id must be lower-case letters, digits and hyphens, starting with a letter`,
    );
  }
  if (typeof section.title !== 'string' || section.title.trim() === '') {
    throw new SectionError(`${what}: a title is required`);
  }
  if (
    section.short !== undefined &&
    typeof section.short !== 'boolean' &&
    typeof section.short !== 'function'
  ) {
    throw new SectionError(`${what}: short must be true, false or a function of the section's figures`);
  }
  for (const key of ['compute', 'checks', 'privacy', 'organizationContext'] as const) {
    if (section[key] !== undefined && typeof section[key] !== 'function') {
      throw new SectionError(`${what}: ${key} must be a function`);
    }
  }
  for (const sheet of section.sheets ?? []) {
    const { name, columns, rows, figures } = (sheet ?? {}) as Partial<TableSheet & FiguresSheet>;
    const table = typeof columns === 'function' && typeof rows === 'function';
    if (typeof name !== 'string' || !(table || typeof figures === 'function')) {
      throw new SectionError(
        `${what}: every sheet needs a name and either columns(model) and rows(model), or figures(model)`,
      );
    }
  }
  if (section.scope !== undefined && !['scope', 'organization', 'omit'].includes(section.scope)) {
    throw new SectionError(`${what}: scope must be 'scope', 'organization' or 'omit'`);
  }
  const partial = section.partial as { file?: unknown; source?: unknown } | undefined;
  if (partial !== undefined && typeof partial.file !== 'string' && typeof partial.source !== 'string') {
    throw new SectionError(`${what}: partial must be { file } or { source }`);
  }
  return section;
}
