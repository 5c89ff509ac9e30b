/**
 * Data-quality findings of what the fetch stage checked in the rows (negative or fractional counts,
 * rows outside the requested days or in the future, duplicate rows) and of redirects it followed:
 * read from the snapshot's manifest, where the fetch stage recorded them.
 */
import type { RowCheck, SnapshotManifest } from '@orgreport/api-core';
import type { DataQualityFinding } from '../../model.ts';

const DATASET_NAMES: Record<string, string> = {
  userDays: 'per-user (/users) rows',
  tokens: '/tokens day rows',
  tools: '/tools day rows',
  activity: '/activity day rows',
  productivity: '/productivity day rows',
};

const RULE_TEXT: Record<RowCheck['rule'], string> = {
  negative: 'had a negative count',
  fractional: 'had a fractional count where the API means a whole number',
  'outside-range': 'were dated outside the requested days',
  future: 'were dated today or later (data runs up to yesterday)',
  duplicate: 'repeated a row already received for the same user and day (or day)',
};

const ACTION_TEXT: Record<RowCheck['action'], string> = {
  excluded: 'excluded from every figure',
  kept: 'kept and counted as sent',
};

/**
 * One finding per dataset and rule the fetch stage recorded, saying how many rows and what was done.
 *
 * @example
 * rowCheckFindings(snapshot.manifest) // [{ kind: 'rows_duplicate', message: '12 per-user (/users) rows repeated ...', count: 12, details: [...] }]
 */
export function rowCheckFindings(manifest: Pick<SnapshotManifest, 'rowChecks'>): DataQualityFinding[] {
  return (manifest.rowChecks ?? []).map((check) => ({
    kind: `rows_${check.rule.replace('-', '_')}`,
    message: `${check.rows.toLocaleString('en-US')} ${DATASET_NAMES[check.dataset] ?? `${check.dataset} rows`} ${RULE_TEXT[check.rule]}: ${ACTION_TEXT[check.action]}.`,
    count: check.rows,
    details: check.examples,
  }));
}

/** A finding when requests were redirected to hosts other than the configured ones (allowed by a setting). */
export function redirectFinding(manifest: Pick<SnapshotManifest, 'source'>): DataQualityFinding | null {
  const hosts = manifest.source.redirectedTo ?? [];
  if (hosts.length === 0) return null;
  return {
    kind: 'redirected',
    message: `Requests were redirected to ${hosts.join(', ')}, a host other than the configured ones (allowed by a setting): the data came from there.`,
    count: hosts.length,
    details: hosts,
  };
}
