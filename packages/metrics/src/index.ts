/**
 * @orgreport/metrics: from a snapshot of the organization API to the report model, exactly as
 * the definitions say. {@link buildReportModel} is the stage; the report is made of sections
 * ({@link defineSection}, {@link BUILTIN_SECTIONS}); the model's types are its output and
 * {@link DEFINITIONS} the rules in plain language. The transforms behind it are internal.
 *
 * @module @orgreport/metrics
 */
export { buildReportModel } from './build-report-model.ts';
export { DEFAULT_MIN_GROUP_SIZE } from './defaults.ts';
export { DEFINITIONS, READINESS_LEVEL_RULE } from './definitions.ts';
export {
  applyFigureRules,
  type CombineAcross,
  type CombineRule,
  describeCombineRule,
  FIGURE_RULES,
  type FigureRule,
  RULES_ACROSS,
} from './figure-rules.ts';
export { clientName } from './internal/transforms/clients.ts';
export { CHANGED_REDACTED, diffSettings, SECURITY_SETTINGS } from './internal/transforms/controls.ts';
export { MIX_TOLERANCE, USERS_TOTAL_TOLERANCE } from './internal/transforms/data-quality.ts';
export { READINESS_LEVEL_NAMES } from './internal/transforms/readiness.ts';
export { UNPARSEABLE } from './internal/transforms/tools.ts';
export { ADDITIVE_FIELDS as DAILY_SUMS } from './internal/transforms/weekly-rollup.ts';
export { type ListSheetRow, type ListSheetSpec, listSheet } from './list-sheet.ts';
export * from './model.ts';
export {
  DEFAULT_CURRENCY,
  DEFAULT_LEVEL_MAPPING,
  DEFAULT_TOP_N,
  type LevelMapping,
  type ReportOptions,
} from './options.ts';
export {
  holdBackMix,
  holdBackSmallGroups,
  type Identity,
  identitiesOf,
  OPEN_POLICY,
  type PersonRows,
  type PrivacyPolicy,
  type ProtectOptions,
  protectModel,
  type SectionPrivacy,
  WITHHELD,
  withholdPeople,
} from './privacy.ts';
export {
  PSEUDONYM_DOMAIN,
  type Pseudonymizer,
  pseudonymizeDirectory,
  pseudonymizer,
  pseudonymizeSnapshot,
} from './pseudonyms.ts';
export {
  type DirectoryIndex,
  indexDirectory,
  inScopeOn,
  isValidFrom,
  ORGANIZATION_SCOPE,
  parseScope,
  type ResolvedScope,
  resolveScope,
  SCOPE_KINDS,
  ScopeError,
  type ScopeKind,
  type ScopeSpec,
  type ScopeSpell,
  scopeNames,
  scopeText,
} from './scope.ts';
export {
  type DirectoryPerson,
  defineSection,
  type FiguresSheet,
  type MonthHistory,
  type OrganizationFigures,
  type PeopleDirectory,
  type ReportSection,
  type SectionContext,
  SectionError,
  type SectionInputs,
  type SectionScopeMode,
  type SectionSheet,
  type SharedComputations,
  type SharedTable,
  type SheetColumn,
  type SheetColumnKind,
  type TableSheet,
  type UserDayEncoding,
  type ValueKind,
} from './section.ts';
export {
  type ActionFact,
  BRIEF_FIGURES,
  type BriefSection,
} from './sections/brief/index.ts';
export type { GuideSection } from './sections/guide/index.ts';
export {
  BUILTIN_SECTION_IDS,
  BUILTIN_SECTIONS,
  isBuiltinSection,
  resolveSections,
  sectionData,
  shortSections,
} from './sections/index.ts';
export type { OrganizationContextSection } from './sections/organization-context/index.ts';
export type { PeopleSection, PersonRef, PersonRow } from './sections/people/index.ts';
