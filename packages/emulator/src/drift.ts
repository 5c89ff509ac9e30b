/**
 * Schema drift (the `drift` option, issue 9): what a newer API version than the spec might send.
 * Every resource and analytics row gains unknown fields, some control-history revisions rename or
 * drop `settings` properties, a client type the spec does not list appears in the per-client
 * counts, and some user-days carry a delegation level the spec does not list. Every drifted value
 * is derived from the same seeded inputs as the rest of the organization, and sums still add up:
 * the new client type is counted from the day's active users, so it never exceeds DAU.
 */
import type { ControlChange, EnterpriseSettings, UserDay } from '@orgreport/api-core';
import { hash32 } from './prng.ts';

/** The values drift introduces, for tests and checkers. */
export const DRIFT = {
  /** A client type not in the spec's `CLIENT_TYPES`. */
  clientType: 'ide-plugin',
  /** A delegation level not in the spec's `DELEGATION_LEVELS`. */
  delegationLevel: 'auto-max',
  /** The unknown field added to every resource and analytics row (an object, as an API would add). */
  extraField: 'x_drift_meta',
  /** A second, scalar unknown field on every row. */
  extraScalarField: 'api_revision',
  /** Settings renamed in the drifted revisions: old name -> new name. */
  renamedSettings: { cloudSessionSync: 'cloudSessionSyncEnabled', commandAllowlist: 'commandAllowList' },
  /** Settings removed in the drifted revisions. */
  removedSettings: ['wikiCloudSync', 'sessionRetentionDays'],
  /** A settings property no spec revision knows, added to the drifted revisions. */
  addedSetting: 'agentTelemetryPolicy',
} as const;

const TAG_DRIFT_DELEGATION = 41;
const TAG_DRIFT_CLIENT = 42;

/** One in this many users has adopted the unknown delegation level... */
const ADOPTERS_ONE_IN = 5;
/** ...and uses it on two in three of their active days (so it is the primary level of some users). */
const ADOPTER_DAYS_ONE_IN = 3;
/** One in this many active user-days also used the unknown client. */
const CLIENT_ONE_IN = 4;

/** True when a control-history revision is one of the drifted ones (every third, from the 3rd). */
export function isDriftedRevision(revision: number): boolean {
  return revision % 3 === 0;
}

/** True when the user used the drift client type on that epoch day (only meaningful on active days). */
export function usesDriftClient(seed: number, userIndex: number, day: number): boolean {
  return hash32(seed, userIndex, day, TAG_DRIFT_CLIENT) % CLIENT_ONE_IN === 0;
}

/** True when the user's day carries the drift delegation level (a fifth of users, on most of their days). */
export function hasDriftDelegation(seed: number, userIndex: number, day: number): boolean {
  const adopter = hash32(seed, userIndex, TAG_DRIFT_DELEGATION) % ADOPTERS_ONE_IN === 0;
  return adopter && hash32(seed, userIndex, day, TAG_DRIFT_DELEGATION) % ADOPTER_DAYS_ONE_IN !== 0;
}

/** The unknown fields added to a row; `tag` says which kind of row, so values differ by resource. */
export function extraFields(tag: string): Record<string, unknown> {
  return {
    [DRIFT.extraField]: { source: tag, schema: 'v1.9-preview', flags: ['beta'] },
    [DRIFT.extraScalarField]: 19,
  };
}

/** A row with the unknown fields added (the row's own fields win on a name clash). */
export function withExtraFields<T extends object>(row: T, tag: string): T {
  return { ...extraFields(tag), ...row };
}

/** A `/users` row with unknown fields and, on some days, the drift delegation level. */
export function driftUserDay(row: UserDay, seed: number, userIndex: number, day: number): UserDay {
  const out = withExtraFields(row, 'users');
  if (hasDriftDelegation(seed, userIndex, day)) out.delegation_level = DRIFT.delegationLevel;
  return out;
}

/** A control change whose settings are renamed, trimmed and extended when the revision is drifted. */
export function driftControlChange(change: ControlChange): ControlChange {
  const out = withExtraFields(change, 'controls');
  if (!isDriftedRevision(change.revision)) return out;
  const settings: Record<string, unknown> = { ...change.settings };
  for (const [from, to] of Object.entries(DRIFT.renamedSettings)) {
    if (from in settings) {
      settings[to] = settings[from];
      delete settings[from];
    }
  }
  for (const name of DRIFT.removedSettings) delete settings[name];
  settings[DRIFT.addedSetting] = { level: 'minimal', sinceRevision: change.revision };
  return { ...out, settings: settings as EnterpriseSettings };
}
