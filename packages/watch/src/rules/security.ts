/**
 * The security rule: each control revision since the last watch that changed a security-relevant
 * setting (the report's list, through the report's settings diff, so secrets stay redacted) is one
 * alert, with each setting's before and after, who made the change and when, as the API says.
 *
 * A revision counts once it is in the store and its time has passed (`now`). The first watch of an
 * organization has seen nothing: it takes the revisions up to now as seen and alerts on none of them,
 * so that starting to watch does not replay the whole history.
 */
import type { ControlChange } from '@orgreport/api-core';
import { utcDay } from '@orgreport/api-core/dates';
import { CONTROLS_DOCUMENT, sqlText } from '../more.ts';
import type { Finding, SettingsDiff } from '../types.ts';

/** The rule's alerts and the highest revision seen now. */
export interface SecurityOutcome {
  findings: Finding[];
  lastRevision: number | null;
}

function byWhom(change: ControlChange): string | null {
  const u = change.user;
  if (!u) return null;
  if (u.name && u.email) return `${u.name} <${u.email}>`;
  return u.name ?? u.email ?? u.id ?? null;
}

/**
 * The security alerts of the revisions after `lastRevision` whose time is not after `now`.
 *
 * @example
 * securityFindings('org_1', revisions, 41, '2026-10-06T00:00:00Z', diffSettings)
 * // { findings: [{ key: 'security|organization:org_1|r42', figures: { enableAgentShield: 'true -> false', ... } }], lastRevision: 42 }
 */
export function securityFindings(
  orgId: string,
  controls: readonly ControlChange[],
  lastRevision: number | null,
  now: string,
  diff: SettingsDiff,
): SecurityOutcome {
  const nowMs = Date.parse(now);
  // A time that cannot be read counts as past (kept rather than dropped, as the store does).
  const visible = controls
    .filter((c) => {
      const t = Date.parse(c.updatedAt);
      return Number.isNaN(t) || t <= nowMs;
    })
    .sort((a, b) => a.revision - b.revision);
  const newest = visible.at(-1)?.revision ?? lastRevision;
  const seen = lastRevision === null ? newest : Math.max(lastRevision, newest ?? lastRevision);
  if (lastRevision === null) return { findings: [], lastRevision: seen };
  const findings: Finding[] = [];
  visible.forEach((change, i) => {
    if (change.revision <= lastRevision) return;
    const previous = i > 0 ? visible[i - 1]! : null;
    const changes = diff(previous?.settings ?? {}, change.settings ?? {}).filter((d) => d.security);
    if (changes.length === 0) return;
    const by = byWhom(change);
    const parsed = Date.parse(change.updatedAt);
    const day = Number.isNaN(parsed) ? utcDay(Date.parse(now)) : utcDay(parsed);
    const listed = changes.map((c) => `${c.path} ${c.before ?? '(none)'} -> ${c.after ?? '(none)'}`);
    const revisions = [previous?.revision, change.revision].filter((r) => r !== undefined);
    findings.push({
      rule: 'security',
      key: `security|organization:${orgId}|r${change.revision}`,
      orgId,
      scope: { kind: 'organization', name: orgId },
      period: `r${change.revision}`,
      severity: 'warning',
      day,
      sentence: `Security-relevant enterprise setting${changes.length === 1 ? '' : 's'} changed in revision ${change.revision}${by ? ` by ${by}` : ''} at ${change.updatedAt}: ${listed.join('; ')}.`,
      figures: {
        revision: change.revision,
        previous_revision: previous?.revision ?? null,
        updated_at: change.updatedAt,
        by,
        ...Object.fromEntries(
          changes.map((c) => [c.path, `${c.before ?? '(none)'} -> ${c.after ?? '(none)'}`]),
        ),
      },
      more: {
        sql: `SELECT revision, updated_at, user_email, settings FROM control_revisions WHERE org_id = ${sqlText(orgId)} AND revision IN (${revisions.join(', ')}) ORDER BY revision`,
        document: CONTROLS_DOCUMENT,
      },
      person: false,
    });
  });
  return { findings, lastRevision: seen };
}
