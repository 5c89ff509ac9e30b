/**
 * @orgreport/emulator: a faithful local server of the organization API over a deterministic
 * synthetic organization, and that organization as a plain object for checkers and property tests.
 *
 * @module @orgreport/emulator
 */
export type { ModelUsage, UserDayDetail } from './activity.ts';
export type { ModelInfo, Persona } from './catalog.ts';
export {
  ARTIFACT_TOOL_NAMES,
  CRITERIA,
  HOOK_SETUPS,
  LANGUAGES,
  MCP_SERVERS,
  MODELS,
  PERSONAS,
  SKILLS,
  SLASH_COMMANDS,
  TOOLS,
} from './catalog.ts';
export type { StoredSession } from './computers.ts';
export { DIRECTORY_TEAMS, type DirectoryEntry, directoryCsv, directoryOf } from './directory.ts';
export { DRIFT } from './drift.ts';
export { HOSTILE_LIST, HOSTILE_STRINGS } from './hostile.ts';
export type { Organization, OrganizationOptions } from './organization.ts';
export { ADMIN_ROLES, createOrganization } from './organization.ts';
export type { UserIdentity, UserProfile } from './people.ts';
export {
  type CreditSpikePlant,
  PLANT_KINDS,
  type Plant,
  type SecurityChangePlant,
} from './plants.ts';
export { hash32, Rng, splitInteger } from './prng.ts';
export type { Repository } from './readiness.ts';
export type { UsersPaging } from './server/analytics-routes.ts';
export type { RequestLogEntry } from './server/app.ts';
export type { FaultKind, FaultOptions, LatencyOption } from './server/faults.ts';
export { FAULT_KINDS } from './server/faults.ts';
export type { EmulatorKeys, Role } from './server/state.ts';
export { DEFAULT_KEYS } from './server/state.ts';
export type { EmulatorOptions, RunningEmulator } from './start.ts';
export { startEmulator } from './start.ts';
export type { DayTotals } from './totals.ts';
export { percentileInc } from './totals.ts';
