/**
 * The built-in sections, each declared in its own folder with the section API, in their default
 * order; and how a report's list of sections is resolved.
 */
import type { ReportModel } from '../model.ts';
import { defineSection, type ReportSection, SectionError } from '../section.ts';
import { adoption } from './adoption/index.ts';
import { behaviour } from './behaviour/index.ts';
import { brief } from './brief/index.ts';
import { memberOf } from './builtin.ts';
import { chargeback } from './chargeback/index.ts';
import { controls } from './controls/index.ts';
import { cover } from './cover/index.ts';
import { dataQuality } from './data-quality/index.ts';
import { definitions } from './definitions/index.ts';
import { guide } from './guide/index.ts';
import { hookEvents } from './hook-events/index.ts';
import { organizationContext } from './organization-context/index.ts';
import { people } from './people/index.ts';
import { productivity } from './productivity/index.ts';
import { readiness } from './readiness/index.ts';
import { rollup } from './rollup/index.ts';
import { seats } from './seats/index.ts';
import { summary } from './summary/index.ts';
import { teams } from './teams/index.ts';
import { tools } from './tools/index.ts';
import { trend } from './trend/index.ts';
import { usage } from './usage/index.ts';

/**
 * The built-in sections in their default order: the organization's report as it has always been.
 * The brief, people, organization-context and guide sections compute figures only in a scoped
 * report, whose short layout is the sections marked `short` in this order (see `shortSections`).
 */
export const BUILTIN_SECTIONS: ReadonlyArray<ReportSection> = [
  cover,
  brief,
  summary,
  rollup,
  trend,
  usage,
  adoption,
  behaviour,
  tools,
  productivity,
  readiness,
  seats,
  people,
  teams,
  chargeback,
  controls,
  hookEvents,
  organizationContext,
  guide,
  definitions,
  dataQuality,
];

/**
 * The short report a scoped reader gets when no sections are configured: the built-in sections
 * marked `short`, in their order (the brief, their people, teams and chargeback, the organization's
 * context, how to read it); with `model`, a section whose `short` is a function is in it when its
 * figures say so. The organization's report keeps every section.
 */
export function shortSections(model?: ReportModel): ReportSection[] {
  return BUILTIN_SECTIONS.filter((s) =>
    typeof s.short === 'function' ? !model || s.short(sectionData(model, s)) : s.short === true,
  );
}

/** Ids of the built-in sections, in the default order. */
export const BUILTIN_SECTION_IDS: ReadonlyArray<string> = BUILTIN_SECTIONS.map((s) => s.id);

/** True for a section with a built-in id (whose figures the model always holds). */
export function isBuiltinSection(section: ReportSection): boolean {
  return BUILTIN_SECTION_IDS.includes(section.id);
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

/**
 * What a section computed, as the model holds it: a built-in section's member (`tools`, ...), else
 * `sections[id]`; null for a section that computes nothing or whose figures the model lacks.
 */
export function sectionData(model: ReportModel, section: Pick<ReportSection, 'id'>): unknown {
  const member = memberOf(section.id);
  return (member ? model[member] : model.sections?.[section.id]) ?? null;
}
