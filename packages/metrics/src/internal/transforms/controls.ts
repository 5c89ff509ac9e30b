/**
 * Enterprise-control changes of a span: who, when, and a field-level diff against the previous
 * revision, with secrets never shown.
 */
import {
  type ControlChange,
  isRedactionMark,
  isSecretField,
  looksLikeSecret,
  REDACTED,
  redactSecrets,
  type Snapshot,
} from '@orgreport/api-core';
import type {
  ControlChangeRow,
  ControlFieldDiff,
  ControlsSection,
  OrganizationControls,
} from '../../model.ts';
import { inSpan } from './span.ts';

/**
 * Settings whose changes bear on security: who may create keys or see members, which models,
 * MCP servers, plugins, commands, networks and machines agents may use, the sandbox, the shield,
 * and where session data goes and how long it is kept. Their changes are marked and listed first.
 */
export const SECURITY_SETTINGS: ReadonlySet<string> = new Set([
  'restrictApiKeyCreationToManagers',
  'restrictMemberVisibility',
  'enableAgentShield',
  'commandAllowlist',
  'commandDenylist',
  'customModels',
  'modelPolicy',
  'userModelPolicies',
  'mcpPolicy',
  'mcpAutonomyOverrides',
  'missionPolicy',
  'networkPolicy',
  'sandbox',
  'enabledPlugins',
  'extraKnownMarketplaces',
  'strictKnownMarketplaces',
  'managedComputersEnabled',
  'managedComputersAllowedEmails',
  'byomComputersEnabled',
  'byomComputersAllowedEmails',
  'cloudSessionSync',
  'wikiCloudSync',
  'sessionRetentionDays',
]);

/** What a changed secret shows instead of its values. */
export const CHANGED_REDACTED = 'changed (redacted)';

type Json = unknown;

function isPlainObject(v: Json): v is Record<string, Json> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function deepEqual(a: Json, b: Json): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b))
    return a.length === b.length && a.every((v, i) => deepEqual(v, b[i]));
  if (isPlainObject(a) && isPlainObject(b)) {
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    return ka.length === kb.length && ka.every((k) => Object.hasOwn(b, k) && deepEqual(a[k], b[k]));
  }
  return false;
}

function isSecretValue(v: Json): boolean {
  return typeof v === 'string' && (isRedactionMark(v) || looksLikeSecret(v));
}

/** Printable text of a value found at `fields` (JSON for non-strings), with any secret inside redacted. */
function display(v: Json, fields: readonly string[]): string | null {
  if (v === undefined) return null;
  const safe = redactSecrets(v, { at: fields });
  return typeof safe === 'string' ? safe : JSON.stringify(safe);
}

/**
 * `fields`: the field names from the settings' root (`[]` for array items), which decide whether a
 * value is a secret field; `secret` carries that down into a secret object's members.
 */
function diffAt(
  path: string,
  fields: readonly string[],
  before: Json,
  after: Json,
  secret: boolean,
  out: ControlFieldDiff[],
): void {
  if (deepEqual(before, after)) return;
  const kind: ControlFieldDiff['kind'] =
    before === undefined ? 'added' : after === undefined ? 'removed' : 'changed';
  if (isPlainObject(before) && isPlainObject(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
    for (const k of keys) {
      const at = [...fields, k];
      diffAt(path ? `${path}.${k}` : k, at, before[k], after[k], secret || isSecretField(at), out);
    }
    return;
  }
  const hasObjects = (v: Json) => Array.isArray(v) && v.some((x) => typeof x === 'object' && x !== null);
  if (Array.isArray(before) && Array.isArray(after) && (hasObjects(before) || hasObjects(after))) {
    for (let i = 0; i < Math.max(before.length, after.length); i++)
      diffAt(`${path}[${i}]`, [...fields, '[]'], before[i], after[i], secret, out);
    return;
  }
  const security = SECURITY_SETTINGS.has(fields[0] ?? '');
  if (secret || isSecretValue(before) || isSecretValue(after)) {
    out.push({
      path,
      kind,
      before: before === undefined ? null : REDACTED,
      after: after === undefined ? null : kind === 'changed' ? CHANGED_REDACTED : REDACTED,
      redacted: true,
      security,
    });
    return;
  }
  out.push({
    path,
    kind,
    before: display(before, fields),
    after: display(after, fields),
    redacted: false,
    security,
  });
}

/**
 * Field-level differences between two settings objects: nested objects by key, arrays of objects
 * by index, arrays of plain values as a whole. Secret fields (a custom model's `apiKey`, ...), and
 * values that are redaction marks or credentials, are never shown: a changed one reads "changed
 * (redacted)". Everything else, `restrictApiKeyCreationToManagers` included, shows before and after.
 *
 * @example
 * diffSettings({ customModels: [{ apiKey: '[redacted:1]' }] }, { customModels: [{ apiKey: '[redacted:2]' }] })
 * // [{ path: 'customModels[0].apiKey', kind: 'changed', before: '[redacted]', after: 'changed (redacted)', redacted: true }]
 */
export function diffSettings(before: Json, after: Json): ControlFieldDiff[] {
  const out: ControlFieldDiff[] = [];
  diffAt('', [], before ?? {}, after ?? {}, false, out);
  return out;
}

/**
 * The revisions whose `updatedAt` falls inside the span (UTC days), oldest first, each diffed
 * against the revision before it (the highest lower revision number in the snapshot).
 *
 * @example
 * controlChanges(snapshot.controls, period).changes[0].diffs
 */
export function controlChanges(
  controls: readonly ControlChange[],
  span: { start: string; end: string },
): ControlsSection {
  const sorted = [...controls].sort((a, b) => a.revision - b.revision);
  const changes: ControlChangeRow[] = [];
  let current: number | null = null;
  sorted.forEach((change, i) => {
    const day = change.updatedAt.slice(0, 10);
    if (day <= span.end) current = change.revision;
    if (!inSpan(day, span)) return;
    const previous = i > 0 ? sorted[i - 1]! : null;
    changes.push({
      revision: change.revision,
      updated_at: change.updatedAt,
      user: {
        id: change.user?.id ?? null,
        email: change.user?.email ?? null,
        name: change.user?.name ?? null,
      },
      previous_revision: previous?.revision ?? null,
      diffs: diffSettings(previous?.settings ?? {}, change.settings ?? {}),
    });
  });
  const security = changes.flatMap((c) =>
    c.diffs
      .filter((d) => d.security)
      .map((d) => ({
        ...d,
        revision: c.revision,
        updated_at: c.updated_at,
        by: c.user.name ?? c.user.email ?? c.user.id,
      })),
  );
  return { changes, current_revision: current, security };
}

/**
 * The enterprise-control changes of a snapshot in a span. In a snapshot of several organizations (a
 * rollup) each organization's revisions are diffed among themselves (revision numbers count per
 * organization) and listed under its name, organization by organization; every row names its
 * organization, and no single revision is in force.
 *
 * @example
 * snapshotControlChanges(rollupSnapshot, period).organizations?.map((o) => o.changes.length) // [4, 5]
 */
export function snapshotControlChanges(
  snapshot: Pick<Snapshot, 'controls' | 'organizations'>,
  span: { start: string; end: string },
): ControlsSection {
  if (!snapshot.organizations) return controlChanges(snapshot.controls, span);
  const organizations: OrganizationControls[] = snapshot.organizations.map((part) => {
    const organization = { ...part.organization };
    const own = controlChanges(part.controls, span);
    return {
      organization,
      changes: own.changes.map((c) => ({ organization, ...c })),
      current_revision: own.current_revision,
      security: own.security.map((s) => ({ organization, ...s })),
    };
  });
  return {
    changes: organizations.flatMap((o) => o.changes),
    current_revision: null,
    security: organizations.flatMap((o) => o.security),
    organizations,
  };
}
