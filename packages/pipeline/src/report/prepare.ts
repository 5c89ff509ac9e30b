/**
 * The data every report of a run reads, prepared once: pseudonymized when the run asks for it (the
 * snapshot and the directory, before anything is computed or written, so no document, log line or
 * snapshot holds a real identity), with everyone a document might name (for the privacy rules), and
 * scopes resolved against the directory in the same identities.
 */
import type { DayRange, MonthPeriod, Snapshot } from '@orgreport/api-core';
import type {
  DirectoryIndex,
  Identity,
  PeopleDirectory,
  Pseudonymizer,
  ResolvedScope,
  ScopeSpec,
} from '@orgreport/metrics';
import { UsageError } from '../errors.ts';
import type { Settings } from '../settings.ts';

/** The run's data as its reports read it. */
export interface PreparedData {
  snapshot: Snapshot;
  directory?: PeopleDirectory;
  /** Present when identities are pseudonyms: recipients and scopes given by real e-mail are mapped with it. */
  pseudonymizer?: Pseudonymizer;
  /** Everyone of the organization a document might name (gathered when first read). */
  people: Identity[];
}

/** Pseudonymizes (when configured) and gathers the identities of a run's data. */
export async function prepareData(
  snapshot: Snapshot,
  directory: PeopleDirectory | undefined,
  config: Pick<Settings, 'pseudonymKey'>,
): Promise<PreparedData> {
  const metrics = await import('@orgreport/metrics');
  // Everyone's identities are gathered when first asked for (a report for readers of everyone's
  // rows never asks), then kept.
  const withPeople = (data: Omit<PreparedData, 'people'>): PreparedData => {
    let people: Identity[] | undefined;
    return Object.defineProperty(data, 'people', {
      get: () => {
        people ??= metrics.identitiesOf(data.snapshot, data.directory);
        return people;
      },
      enumerable: true,
    }) as PreparedData;
  };
  if (!config.pseudonymKey) return withPeople({ snapshot, ...(directory && { directory }) });
  const p = metrics.pseudonymizer(config.pseudonymKey);
  const pseudonymous = metrics.pseudonymizeSnapshot(snapshot, p);
  const dir = directory && metrics.pseudonymizeDirectory(directory, p);
  return withPeople({ snapshot: pseudonymous, ...(dir && { directory: dir }), pseudonymizer: p });
}

/** An e-mail in the run's identities: its pseudonym when the run pseudonymizes. */
export function identityOf(data: PreparedData, email: string): string {
  return data.pseudonymizer ? data.pseudonymizer.email(email) : email.toLowerCase();
}

/** The days a report of `period` reads: the comparison month's first to the period's last. */
export async function daysOfReport(period: MonthPeriod): Promise<DayRange> {
  const { comparisonPeriod } = await import('@orgreport/api-core');
  const { fetchedRangeOf } = await import('@orgreport/snapshot');
  return fetchedRangeOf(period, comparisonPeriod(period));
}

/**
 * The directory indexed over `range`, managers followed: no directory, or a manager column that
 * cannot be followed, is an input error.
 */
export async function directoryIndex(
  directory: PeopleDirectory | undefined,
  range: DayRange,
  needed = 'a scoped report',
): Promise<DirectoryIndex> {
  const { indexDirectory, ScopeError } = await import('@orgreport/metrics');
  if (!directory) {
    throw new UsageError(
      `${needed} needs the people directory: set --directory, ORGREPORT_DIRECTORY or "directory" (or use --demo)`,
    );
  }
  try {
    return indexDirectory(directory, range, { managers: true });
  } catch (error) {
    if (error instanceof ScopeError) throw new UsageError(error.message, { cause: error });
    throw error;
  }
}

/**
 * A scope resolved in the run's identities (a manager given by real e-mail is found by their
 * pseudonym); a scope under the minimum group size is refused: no report singles out people.
 */
export async function scopeOfRun(
  index: DirectoryIndex,
  spec: ScopeSpec,
  minGroupSize: number,
  identity: (email: string) => string = (email) => email.toLowerCase(),
): Promise<ResolvedScope> {
  const { resolveScope, scopeText, ScopeError } = await import('@orgreport/metrics');
  const inRun = spec.kind === 'manager' ? { ...spec, name: identity(spec.name) } : spec;
  let resolved: ResolvedScope;
  try {
    resolved = resolveScope(index, inRun);
  } catch (error) {
    if (error instanceof ScopeError) {
      throw new UsageError(`--scope ${scopeText(spec)}: ${error.message}`, { cause: error });
    }
    throw error;
  }
  if (resolved.people < minGroupSize) {
    throw new UsageError(
      `--scope ${scopeText(spec)}: ${resolved.people} ${resolved.people === 1 ? 'person' : 'people'} on ${index.range.end}, fewer than the minimum group size of ${minGroupSize} (--min-group-size): no report, so that no figure singles out people`,
    );
  }
  return resolved;
}
