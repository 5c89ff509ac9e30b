/**
 * The section API: the section is the unit of the report. One declaration holds what a section
 * computes from the snapshot, its data-quality checks, its definitions, its template partial and
 * its workbook sheets. `buildReportModel` runs the computations, checks and definitions of the
 * configured sections; the renderer lays out their partials and writes their sheets, in the
 * configured order. Built-in sections and other teams' sections are declared the same way.
 */
import type { Snapshot } from '@orgreport/api-core';
import type { DataQualityFinding, Definition, ReportModel } from './model.ts';
import type { ReportOptions } from './options.ts';

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

/** One column of a section's sheet: its header, its kind and how to read its value from a row. */
export interface SheetColumn<Row> {
  header: string;
  kind: SheetColumnKind;
  value: (row: Row) => unknown;
}

/** One workbook sheet of a section: its name, its columns and its rows, read from the report model. */
export interface SectionSheet<Row = never> {
  /** The sheet's name (at most 31 characters; a taken name gets a number). */
  name: string;
  columns: (model: ReportModel) => ReadonlyArray<SheetColumn<Row>>;
  rows: (model: ReportModel) => readonly Row[];
}

/** What a section's computation receives. */
export interface SectionContext {
  snapshot: Snapshot;
  options: ReportOptions;
  /**
   * The report model of the built-in figures (period, figures, users, ...), built before the
   * sections run: a section reads it rather than computing a figure again.
   */
  model: Readonly<ReportModel>;
  /**
   * Further inputs of the run by name (a people directory, a history of months, ...), as the
   * caller passes them in `ReportOptions.inputs`.
   */
  inputs: Readonly<Record<string, unknown>>;
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
   * The section's figures, computed from the snapshot: plain JSON (no class instances, no Dates),
   * kept in the model under `sections[id]`. Built-in sections, whose figures the model's own
   * members hold, have none.
   */
  compute?: (context: SectionContext) => Data;
  /** Data-quality findings of the section, listed with the report's others. */
  checks?: (context: SectionContext, data: Data) => DataQualityFinding[];
  /** Definitions of the section's figures, printed on the definitions page and sheet. */
  definitions?: ReadonlyArray<Definition>;
  /**
   * The section's Handlebars partial: a file (absolute path) or its source. It is rendered with the
   * report's template context plus `section`: this section's data. A user template folder's
   * `partials/<id>.hbs` overrides it. Built-in sections' partials come with the templates.
   */
  partial?: { file: string } | { source: string };
  /** The section's workbook sheets, in order. */
  sheets?: ReadonlyArray<SectionSheet<any>>;
}

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
  for (const key of ['compute', 'checks'] as const) {
    if (section[key] !== undefined && typeof section[key] !== 'function') {
      throw new SectionError(`${what}: ${key} must be a function`);
    }
  }
  for (const sheet of section.sheets ?? []) {
    if (
      typeof sheet?.name !== 'string' ||
      typeof sheet.columns !== 'function' ||
      typeof sheet.rows !== 'function'
    ) {
      throw new SectionError(`${what}: every sheet needs a name, columns(model) and rows(model)`);
    }
  }
  const partial = section.partial as { file?: unknown; source?: unknown } | undefined;
  if (partial !== undefined && typeof partial.file !== 'string' && typeof partial.source !== 'string') {
    throw new SectionError(`${what}: partial must be { file } or { source }`);
  }
  return section;
}

/**
 * The built-in sections in their default order: the report as it always was. Their figures are the
 * model's own members; their partials come with the templates and their sheets with the renderer.
 */
export const BUILTIN_SECTIONS: ReadonlyArray<ReportSection> = [
  { id: 'summary', title: 'Executive summary' },
  { id: 'usage', title: 'Usage' },
  { id: 'adoption', title: 'Adoption' },
  { id: 'behaviour', title: 'Autonomy and delegation' },
  { id: 'tools', title: 'Tools, MCP servers, skills, slash commands and hooks' },
  { id: 'productivity', title: 'Productivity' },
  { id: 'readiness', title: 'Readiness' },
  { id: 'seats', title: 'Seats and credit limits' },
  { id: 'controls', title: 'Enterprise-control changes' },
  { id: 'hook-events', title: 'Hook-log events' },
  { id: 'definitions', title: 'Definitions' },
  { id: 'data-quality', title: 'Data quality' },
];

/** Ids of the built-in sections, in the default order. */
export const BUILTIN_SECTION_IDS: ReadonlyArray<string> = BUILTIN_SECTIONS.map((s) => s.id);

/** True for a built-in section (its figures are the model's own members). */
export function isBuiltinSection(section: ReportSection): boolean {
  return BUILTIN_SECTIONS.some((s) => s === section || s.id === section.id);
}

/**
 * The sections of a report: the built-in ones when nothing is configured, else those given, in the
 * given order; each id once.
 */
export function resolveSections(sections: ReadonlyArray<ReportSection> | undefined): ReportSection[] {
  const list = sections ? [...sections] : [...BUILTIN_SECTIONS];
  const seen = new Set<string>();
  for (const s of list) {
    defineSection(s);
    if (seen.has(s.id)) throw new SectionError(`section "${s.id}" is configured twice`);
    seen.add(s.id);
  }
  return list;
}
