/**
 * `buildReportModel`: from a snapshot to the report model. What every section shares is computed
 * once (`internal/run.ts`); then the built-in sections compute the model's members, and the other
 * configured sections their own figures (`sections[id]`); every section adds its data-quality
 * findings and its definitions.
 */
import type { MonthPeriod, Snapshot } from '@orgreport/api-core';
import { applyScope } from './internal/apply-scope.ts';
import { computeRun, sharedOf } from './internal/run.ts';
import {
  reportScope,
  SCOPE_DEFINITIONS,
  scopedChangeFacts,
  scopedFigures,
  scopedInputs,
} from './internal/scoped-report.ts';
import { namesOf } from './internal/transforms/people-names.ts';
import {
  type DataQualityFinding,
  REPORT_MODEL_VERSION,
  type ReportModel,
  type ReportPeriod,
} from './model.ts';
import type { ReportOptions } from './options.ts';
import { type ReportSection, type SectionContext, SectionError, type SectionScopeMode } from './section.ts';
import { type BuiltinMember, memberOf } from './sections/builtin.ts';
import { glossary } from './sections/definitions/index.ts';
import { BUILTIN_SECTIONS, isBuiltinSection, resolveSections, sectionData } from './sections/index.ts';

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
  // A scope is applied here, once, before anything is computed: every section sees its rows alone.
  const scoped = options.scope ? applyScope(snapshot, options.scope.scope) : undefined;
  const organization = options.scope?.organization;
  const run = computeRun(scoped?.snapshot ?? snapshot, options, scoped);
  const modeOf = (s: ReportSection): SectionScopeMode => (scoped ? (s.scope ?? 'scope') : 'scope');
  const base = {
    snapshot: run.snapshot,
    options,
    period: run.period,
    comparison: run.comparison,
    shared: sharedOf(run),
    inputs: scoped ? scopedInputs(options.inputs ?? {}, scoped.scope) : (options.inputs ?? {}),
    scope: scoped?.scope ?? null,
    organization: (scoped && organization) || null,
    sections: [...BUILTIN_SECTIONS, ...added],
  };

  // The built-in sections compute the model's members from what is shared; the model is not built yet.
  const building: SectionContext = {
    ...base,
    get model(): never {
      throw new SectionError('a built-in section reads context.shared, not the model it helps build');
    },
  };
  // In a scoped report, a section of the organization's shows the organization report's figures
  // (none without it) and an omitted one nothing.
  const computeIn = (s: ReportSection, context: SectionContext): unknown => {
    const mode = modeOf(s);
    if (mode === 'omit') return null;
    if (mode === 'organization') return organization ? sectionData(organization, s) : null;
    return s.compute?.(context) ?? null;
  };
  const builtin = new Map(BUILTIN_SECTIONS.map((s) => [s.id, computeIn(s, building)]));
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
    figures: scoped ? scopedFigures(run.figures, organization) : run.figures,
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
    // A scope's data is cut from the organization's: its findings are the organization's.
    dataQuality: scoped
      ? (organization?.dataQuality.map((f) => ({ ...f })) ?? [])
      : findingsOf(BUILTIN_SECTIONS, building, builtin),
    // A built-in section without a member of its own (trend) is in the model, and its terms on the
    // definitions page, only when it computed something.
    definitions: glossary(
      BUILTIN_SECTIONS.filter(
        (s) => modeOf(s) !== 'omit' && (memberOf(s.id) || !s.compute || builtin.get(s.id) !== null),
      ),
    ),
  };
  if (scoped) {
    model.scope = reportScope(scoped.scope, [...BUILTIN_SECTIONS, ...added], modeOf, {
      organization,
      nameOf: namesOf(snapshot.orgUsers),
    });
    model.whatChanged = scopedChangeFacts(run.whatChanged, model.figures);
    model.definitions.push(...SCOPE_DEFINITIONS.map((d) => ({ ...d })));
  }
  const ownData = [...builtin].filter(([id, data]) => !memberOf(id) && data !== null && data !== undefined);
  if (ownData.length > 0) model.sections = Object.fromEntries(ownData);
  if (added.length === 0) return model;

  // Other sections run after the built-in ones and read their figures in the model.
  const context: SectionContext = { ...base, model };
  const computed = new Map<string, unknown>();
  for (const section of added) {
    if (section.compute || modeOf(section) === 'organization')
      computed.set(section.id, computeIn(section, context));
  }
  // Checks run on what a section computed from the run's rows, not on the organization's context.
  model.dataQuality.push(
    ...findingsOf(
      added.filter((s) => modeOf(s) === 'scope'),
      context,
      computed,
    ),
  );
  model.definitions.push(
    ...added.filter((s) => modeOf(s) !== 'omit').flatMap((s) => (s.definitions ?? []).map((d) => ({ ...d }))),
  );
  return computed.size > 0
    ? { ...model, sections: { ...model.sections, ...Object.fromEntries(computed) } }
    : model;
}
