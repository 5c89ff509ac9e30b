/**
 * How a built-in section is declared: with the section API, plus the member of the report model its
 * figures have always been kept under (`tools`, `readiness`, ...), so the model keeps its published
 * shape. A new built-in section needs no member: its figures go under `sections[id]`, like any
 * other section's.
 */
import type { ReportModel } from '../model.ts';
import { defineSection, type ReportSection } from '../section.ts';

/** The members of the report model that hold a built-in section's figures. */
export type BuiltinMember =
  | 'behaviour'
  | 'credits'
  | 'tools'
  | 'productivity'
  | 'clients'
  | 'readiness'
  | 'controls'
  | 'seats'
  | 'hookEvents';

const members = new Map<string, BuiltinMember>();

/** Declares a built-in section whose figures are the model's member `member`. */
export function builtinSection<K extends BuiltinMember>(
  member: K,
  section: ReportSection<ReportModel[K]>,
): ReportSection<ReportModel[K]> {
  members.set(section.id, member);
  return defineSection(section);
}

/** The model member of a built-in section's figures; undefined for every other section. */
export function memberOf(id: string): BuiltinMember | undefined {
  return members.get(id);
}
