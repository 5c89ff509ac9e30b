/**
 * @orgreport/snapshot: the snapshot stage. {@link fetchSnapshot} fetches a month (and its comparison
 * month) of the organization API into a {@link Snapshot}; {@link writeSnapshot} and
 * {@link readSnapshot} keep it on disk as a checksummed folder and read it back, validated.
 *
 * @module @orgreport/snapshot
 */
export type {
  Snapshot,
  SnapshotManifest,
  UserDayColumns,
} from '@orgreport/api-core';
export { combineSnapshots } from './combine.ts';
export { dayOf, type RevisionPlace, revisionPlace, revisionsInRange } from './control-range.ts';
export { MANIFEST_FILE, readSnapshot, SnapshotError, USER_DAYS_FILE, writeSnapshot } from './disk.ts';
export {
  collectUnknownKeys,
  type FetchProgress,
  type FetchSnapshotOptions,
  fetchedRangeOf,
  fetchSnapshot,
  MAX_UNKNOWN_FIELD_NAMES,
} from './fetch.ts';
export { type FetchRangeOptions, fetchRange, rangePeriod } from './fetch-range.ts';
export { organizationNameFromUsers } from './organization-name.ts';
export { periodNotes } from './period-notes.ts';
