/**
 * `buildReportModel`: from a snapshot to the report model. What every section shares is computed
 * once (`internal/run.ts`); then the built-in sections compute the model's members, and the other
 * configured sections their own figures (`sections[id]`); every section adds its data-quality
 * findings and its definitions.
 */
import type { MonthPeriod, Snapshot } from '@orgreport/api-core';
import { computeRun, sharedOf } from './internal/run.ts';
import {
  type DataQualityFinding,
  REPORT_MODEL_VERSION,
  type ReportModel,
  type ReportPeriod,
} from './model.ts';
import type { ReportOptions } from './options.ts';
import { type ReportSection, type SectionContext, SectionError } from './section.ts';
import { type BuiltinMember, memberOf } from './sections/builtin.ts';
import { glossary } from './sections/definitions/index.ts';
import { BUILTIN_SECTIONS, isBuiltinSection, resolveSections } from './sections/index.ts';

function reportPeriod(p: MonthPeriod): ReportPeriod {
  return {
    month: p.month,
    start: p.start,
    end: p.end,
    days: p.days,
    partial: p.partial,
    clampedStart: p.clampedStart,
    endsEarly: p.endsEarly,
  };
}

/** Runs each section's checks on what it computed, in order. */
function findingsOf(
  sections: ReadonlyArray<ReportSection>,
  context: SectionContext,
  data: ReadonlyMap<string, unknown>,
): DataQualityFinding[] {
  return sections.flatMap((s) => s.checks?.(context, data.get(s.id) ?? null) ?? []);
}

/**
 * Builds the report model of a snapshot: every figure, series, table and finding of the report,
 * as plain JSON. The model always holds the built-in sections' figures, whatever sections
 * `options.sections` lays out; it adds the figures, findings and definitions of the other sections
 * configured there.
 *
 * @example
 * buildReportModel(snapshot, { generatedAt: '2026-04-01T06:00:00.000Z', pricePerCredit: 0.00001, currency: 'EUR' })
 */
export function buildReportModel(snapshot: Snapshot, options: ReportOptions): ReportModel {
  const added = resolveSections(options.sections).filter((s) => !isBuiltinSection(s));
  const run = computeRun(snapshot, options);
  const base = {
    snapshot,
    options,
    period: run.period,
    comparison: run.comparison,
    shared: sharedOf(run),
    inputs: options.inputs ?? {},
  };

  // The built-in sections compute the model's members from what is shared; the model is not built yet.
  const building: SectionContext = {
    ...base,
    get model(): never {
      throw new SectionError('a built-in section reads context.shared, not the model it helps build');
    },
  };
  const builtin = new Map(BUILTIN_SECTIONS.map((s) => [s.id, s.compute?.(building) ?? null]));
  const members = new Map<BuiltinMember | undefined, unknown>(
    [...builtin].map(([id, data]) => [memberOf(id), data]),
  );
  const member = <K extends BuiltinMember>(key: K) => members.get(key) as ReportModel[K];

  const model: ReportModel = {
    modelVersion: REPORT_MODEL_VERSION,
    organization: { ...snapshot.manifest.organization },
    period: reportPeriod(run.period),
    comparison: run.comparison ? reportPeriod(run.comparison) : null,
    comparisonHasData: run.comparisonHasData,
    partial: run.period.partial,
    generatedAt: options.generatedAt,
    source: {
      fetchedAt: snapshot.manifest.fetchedAt,
      toolVersion: snapshot.manifest.toolVersion,
      baseUrl: snapshot.manifest.source.baseUrl,
    },
    pricing: run.pricing,
    figures: run.figures,
    whatChanged: run.whatChanged,
    daily: run.daily,
    weekly: run.weekly,
    behaviour: member('behaviour'),
    credits: member('credits'),
    tools: member('tools'),
    productivity: member('productivity'),
    users: run.users,
    clients: member('clients'),
    readiness: member('readiness'),
    controls: member('controls'),
    seats: member('seats'),
    hookEvents: member('hookEvents'),
    dataQuality: findingsOf(BUILTIN_SECTIONS, building, builtin),
    // A built-in section without a member of its own (trend) is in the model, and its terms on the
    // definitions page, only when it computed something.
    definitions: glossary(
      BUILTIN_SECTIONS.filter((s) => memberOf(s.id) || !s.compute || builtin.get(s.id) !== null),
    ),
  };
  const ownData = [...builtin].filter(([id, data]) => !memberOf(id) && data !== null && data !== undefined);
  if (ownData.length > 0) model.sections = Object.fromEntries(ownData);
  if (added.length === 0) return model;

  // Other sections run after the built-in ones and read their figures in the model.
  const context: SectionContext = { ...base, model };
  const computed = new Map<string, unknown>();
  for (const section of added) {
    if (section.compute) computed.set(section.id, section.compute(context));
  }
  model.dataQuality.push(...findingsOf(added, context, computed));
  model.definitions.push(...added.flatMap((s) => (s.definitions ?? []).map((d) => ({ ...d }))));
  return computed.size > 0
    ? { ...model, sections: { ...model.sections, ...Object.fromEntries(computed) } }
    : model;
}
