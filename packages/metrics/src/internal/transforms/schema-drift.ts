/**
 * Data-quality findings of schema drift: values and fields a newer API version sends that the spec
 * (api-core's schemas) does not know. They are reported, never dropped from the figures.
 */
import {
  type ActivityDay,
  activityDaySchema,
  CLIENT_TYPES,
  type ControlChange,
  controlChangeSchema,
  enterpriseSettingsSchema,
  orgUserSchema,
  productivityDaySchema,
  readinessReportSchema,
  type Snapshot,
  tokensDaySchema,
  toolsDaySchema,
} from '@orgreport/api-core';
import type { DataQualityFinding } from '../../model.ts';

/** The row datasets of a snapshot checked for unknown top-level fields, with their documented keys. */
const DOCUMENTED_FIELDS = {
  tokens: Object.keys(tokensDaySchema.shape),
  tools: Object.keys(toolsDaySchema.shape),
  activity: Object.keys(activityDaySchema.shape),
  productivity: Object.keys(productivityDaySchema.shape),
  orgUsers: Object.keys(orgUserSchema.shape),
  readiness: Object.keys(readinessReportSchema.shape),
  controls: Object.keys(controlChangeSchema.shape),
} as const;

/** The documented properties of the enterprise-control settings. */
const DOCUMENTED_SETTINGS: ReadonlySet<string> = new Set(Object.keys(enterpriseSettingsSchema.shape));

/**
 * Client types of `daily_active_users_by_client` that the spec does not list, with their
 * user-days (sum of the client's daily active users over the days given).
 *
 * @example
 * unknownClients(periodActivity) // { kind: 'client_unknown', count: 1, details: [{ client: 'ide-plugin', user_days: 42 }] }
 */
export function unknownClients(days: readonly ActivityDay[]): DataQualityFinding | null {
  const known: ReadonlySet<string> = new Set(CLIENT_TYPES);
  const userDays = new Map<string, number>();
  for (const d of days) {
    for (const [client, n] of Object.entries(d.daily_active_users_by_client ?? {})) {
      if (known.has(client)) continue;
      userDays.set(client, (userDays.get(client) ?? 0) + (typeof n === 'number' ? n : 0));
    }
  }
  if (userDays.size === 0) return null;
  const details = [...userDays]
    .map(([client, user_days]) => ({ client, user_days }))
    .sort((a, b) => b.user_days - a.user_days || a.client.localeCompare(b.client));
  return {
    kind: 'client_unknown',
    message: `${details.length} client type(s) the API specification does not list reported daily active users; they are shown in the clients table.`,
    count: details.length,
    details,
  };
}

/** Unknown fields gathered outside the snapshot's rows (e.g. `/users` columns a columnar snapshot drops). */
export type UnknownFieldsByDataset = Readonly<Record<string, readonly string[]>>;

/**
 * Top-level row fields that the dataset's schema does not document, per dataset, with the number of
 * rows carrying any of them. `extra` adds fields recorded elsewhere (the snapshot manifest's
 * `unknownFields`), whose rows are not known (`rows: null`) unless the dataset was also inspected.
 *
 * @example
 * unknownFields(snapshot) // { kind: 'unknown_fields', count: 2, details: [{ dataset: 'tokens', fields: ['api_revision', 'x_meta'], rows: 60 }] }
 */
export function unknownFields(
  snapshot: Pick<Snapshot, keyof typeof DOCUMENTED_FIELDS>,
  extra: UnknownFieldsByDataset = {},
): DataQualityFinding | null {
  const found = new Map<string, { fields: Set<string>; rows: number | null }>();
  for (const [dataset, documented] of Object.entries(DOCUMENTED_FIELDS)) {
    const known: ReadonlySet<string> = new Set(documented);
    const fields = new Set<string>();
    let rows = 0;
    for (const row of snapshot[dataset as keyof typeof DOCUMENTED_FIELDS] as readonly object[]) {
      let unknown = false;
      for (const key of Object.keys(row)) {
        if (!known.has(key)) {
          fields.add(key);
          unknown = true;
        }
      }
      if (unknown) rows++;
    }
    if (fields.size) found.set(dataset, { fields, rows });
  }
  for (const [dataset, fields] of Object.entries(extra)) {
    if (!Array.isArray(fields) || fields.length === 0) continue;
    const entry = found.get(dataset) ?? { fields: new Set<string>(), rows: null };
    for (const f of fields) if (typeof f === 'string') entry.fields.add(f);
    found.set(dataset, entry);
  }
  if (found.size === 0) return null;
  const details = [...found]
    .map(([dataset, { fields, rows }]) => ({ dataset, fields: [...fields].sort(), rows }))
    .sort((a, b) => a.dataset.localeCompare(b.dataset));
  const count = details.reduce((n, d) => n + d.fields.length, 0);
  return {
    kind: 'unknown_fields',
    message: `${count} field(s) in ${details.length} dataset(s) are not in the API specification; they were kept in the snapshot and left out of the report.`,
    count,
    details,
  };
}

/**
 * Control-history revisions whose settings carry properties the specification does not document,
 * or lack documented properties that the previous revision had (renamed or removed), in revision order.
 *
 * @example
 * settingsDrift(controls) // { kind: 'settings_unknown_keys', count: 1, details: [{ revision: 3, unknown: ['agentPolicy'], missing: ['wikiCloudSync'] }] }
 */
export function settingsDrift(controls: readonly ControlChange[]): DataQualityFinding | null {
  const ordered = [...controls].sort((a, b) => a.revision - b.revision);
  const details: Array<{ revision: number; unknown: string[]; missing: string[] }> = [];
  let previous: ReadonlySet<string> | null = null;
  for (const change of ordered) {
    const keys = Object.keys(change.settings ?? {});
    const present = new Set(keys);
    const unknown = keys.filter((k) => !DOCUMENTED_SETTINGS.has(k)).sort();
    const missing = previous
      ? [...previous].filter((k) => DOCUMENTED_SETTINGS.has(k) && !present.has(k)).sort()
      : [];
    if (unknown.length || missing.length) details.push({ revision: change.revision, unknown, missing });
    previous = present;
  }
  if (!details.length) return null;
  return {
    kind: 'settings_unknown_keys',
    message: `${details.length} enterprise-control revision(s) carry settings the API specification does not document, or lack documented settings the previous revision had (renamed or removed).`,
    count: details.length,
    details,
  };
}

/** The optional `unknownFields` of a snapshot manifest (dataset -> field names), when present and well-formed. */
export function manifestUnknownFields(manifest: object): UnknownFieldsByDataset {
  const value = (manifest as { unknownFields?: unknown }).unknownFields;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return {};
  const out: Record<string, string[]> = {};
  for (const [dataset, fields] of Object.entries(value)) {
    if (Array.isArray(fields)) out[dataset] = fields.filter((f): f is string => typeof f === 'string');
  }
  return out;
}
